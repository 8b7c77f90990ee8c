"""``/xfcc/xfccbasic.asmx``: the XfccBasic SOAP endpoint, a thin edge over :mod:`.games` and :mod:`.moves`.

Each request, in order: POST only (405); over HTTPS unless ``XFCC_REQUIRE_HTTPS`` is off (403:
the password is in the body); an XML media type (415); at most ``XFCC_BODY_MAX`` bytes (413); the
address's throttle of wrong sign-ins (429); the envelope (400); the sign-in lockout (429) and the
XFCC password; the user's throttle (429). Every refusal is a SOAP fault and stores nothing. A wrong
username or password answers ``AuthenticationFailed`` (a fault for ``GetMyGames``, the result word for
``MakeAMove``), the same whether or not the user exists, and counts in the address's throttle.

XFCC is not counted in the sign-in throttle of the pages and the API token (issue 37:
:mod:`.throttles`). A limit's fault text begins with the XfccBasic word a client reacts to, then says
in words what happened and for how long: Scid 4.7.4 (``::Xfcc::SOAPError``) matches the fault string
against the words and shows a message box for ``AuthenticationFailed`` ("check username and
password") and ``ServerError`` ("reported an unknown error"), nothing for a text without one (a 429
with no word was a move silently not sent); newer clients show the text. Failures are
``AuthenticationFailed``; the user's limit, which a right password reaches, ``ServerError``, in the
user's language; the others in the request's (``Accept-Language``, else English), since no user is
known. The HTTP status is 429 with ``Retry-After`` for the clients that read it.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt

from accounts.language import user_language
from accounts.signin import LockedOut
from accounts.xfcc import xfcc_sign_in
from corr import limits as lim

from .games import xfcc_game_record, xfcc_games
from .moves import xfcc_move
from .soap import Call, SoapFault, call_parse, fault_answer, games_answer, move_answer
from .throttles import XfccFailureThrottle, XfccUserThrottle

MEDIA_TYPES = ("text/xml", "application/xml", "application/soap+xml")
CONTENT_TYPE = "text/xml; charset=utf-8"


def _xml(body: bytes, status: int = 200, headers: dict | None = None) -> HttpResponse:
    response = HttpResponse(body, content_type=CONTENT_TYPE, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _body(request) -> bytes:
    """The request's body, read no further than the limit. :raises SoapFault: 413 beyond it, 415 not XML."""
    media = request.META.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
    if media not in MEDIA_TYPES:
        raise SoapFault(f"an XFCC request is SOAP 1.1: Content-Type text/xml, got {media or 'none'!r}", status=415)
    too_big = SoapFault(f"the request's body is over {lim.XFCC_BODY_MAX} bytes", status=413)
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise SoapFault("Content-Length is not a number") from None
    if declared > lim.XFCC_BODY_MAX:
        raise too_big
    body = request.read(lim.XFCC_BODY_MAX + 1)
    if len(body) > lim.XFCC_BODY_MAX:
        raise too_big
    return body


def _limited(word: str, text: str, wait: int) -> SoapFault:
    """A limit's fault: 429 with ``Retry-After``, the text after the XfccBasic ``word`` clients react to."""
    return SoapFault(f"{word}: {text}", status=429, headers={"Retry-After": str(wait)})


def _user(request, call: Call, failures: XfccFailureThrottle):
    """The signed-in user, or None for a wrong username or XFCC password (counted in ``failures``).

    :raises SoapFault: 429 locked out (counted in ``failures`` too: axes counts it as a failure).
    """
    username = call.text("username", limit=lim.USERNAME_MAX)
    password = call.text("password", limit=lim.PASSWORD_MAX)
    try:
        user = xfcc_sign_in(request=request, username=username, password=password)
    except LockedOut as locked:
        failures.count()
        raise _limited("AuthenticationFailed", _("too many failed sign-ins for this username from this address;"
                                                 " try again in %(minutes)s minutes")
                       % {"minutes": locked.retry_after // 60}, locked.retry_after) from None
    if user is None:
        failures.count()
        return None
    wait = XfccUserThrottle(str(user.pk)).wait_for_or_count()
    if wait is not None:
        with translation.override(user_language(user)):
            raise _limited("ServerError", ngettext(
                "too many XFCC requests for this account: try again in %(seconds)s second",
                "too many XFCC requests for this account: try again in %(seconds)s seconds", wait)
                % {"seconds": wait}, wait)
    return user


@csrf_exempt
def xfcc_basic(request):
    """POST a SOAP 1.1 envelope holding ``GetMyGames`` or ``MakeAMove`` (XfccBasic); the answer's envelope."""
    try:
        if request.method != "POST":
            raise SoapFault("XfccBasic answers POST requests", status=405, headers={"Allow": "POST"})
        if settings.XFCC_REQUIRE_HTTPS and not request.is_secure():
            raise SoapFault("XFCC is served over HTTPS only: its password travels in the request", status=403)
        body = _body(request)
        failures = XfccFailureThrottle.of(request)
        wait = failures.wait_for()
        if wait is not None:  # before any password is checked: this slows guessing from one address
            raise _limited("AuthenticationFailed", ngettext(
                "too many failed XFCC sign-ins from this address: try again in %(seconds)s second",
                "too many failed XFCC sign-ins from this address: try again in %(seconds)s seconds", wait)
                % {"seconds": wait}, wait)
        call = call_parse(body)
        now = timezone.now()
        if call.operation == "GetMyGames":
            user = _user(request, call, failures)
            if user is None:
                raise SoapFault("AuthenticationFailed", status=403)
            return _xml(games_answer([xfcc_game_record(game, user, now) for game in xfcc_games(user=user)]))
        arguments = dict(
            game_id=call.number("gameId", low=1, high=lim.ID_MAX), resign=call.flag("resign"),
            accept_draw=call.flag("acceptDraw"), offer_draw=call.flag("offerDraw"), claim_draw=call.flag("claimDraw"),
            movecount=call.number("movecount", low=0, high=lim.MOVES_MAX),
            move=call.text("myMove", limit=lim.NOTATION_MAX, required=False))
        call.text("myMessage", limit=lim.XFCC_MESSAGE_MAX, required=False)
        user = _user(request, call, failures)
        if user is None:
            return _xml(move_answer("AuthenticationFailed"))
        return _xml(move_answer(xfcc_move(user=user, now=now, **arguments)))
    except SoapFault as fault:
        return _xml(fault_answer(fault), fault.status, fault.headers)
