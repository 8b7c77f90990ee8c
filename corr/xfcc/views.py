"""``/xfcc/xfccbasic.asmx``: the XfccBasic SOAP endpoint, a thin edge over :mod:`.games` and :mod:`.moves`.

Each request, in order: POST only (405); over HTTPS unless ``XFCC_REQUIRE_HTTPS`` is off (403:
the password is in the body); an XML media type (415); at most ``XFCC_BODY_MAX`` bytes (413);
the sign-in throttle (429 with ``Retry-After``); the envelope (400); the sign-in lockout (429) and
the XFCC password. Every refusal is a SOAP fault and stores nothing. A wrong username or password
answers ``AuthenticationFailed`` (a fault for ``GetMyGames``, the result word for ``MakeAMove``),
the same whether or not the user exists.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from accounts.signin import LockedOut
from accounts.xfcc import SignInThrottle, xfcc_sign_in
from corr import limits as lim

from .games import xfcc_game_record, xfcc_games
from .moves import xfcc_move
from .soap import Call, SoapFault, call_parse, fault_answer, games_answer, move_answer

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


def _user(request, call: Call):
    """The signed-in user, or None for a wrong username or XFCC password. :raises SoapFault: 429 locked out."""
    username = call.text("username", limit=lim.USERNAME_MAX)
    password = call.text("password", limit=lim.PASSWORD_MAX)
    try:
        return xfcc_sign_in(request=request, username=username, password=password)
    except LockedOut as locked:
        raise SoapFault(f"AuthenticationFailed: too many failed sign-ins for this username from this address; try"
                        f" again in {locked.retry_after // 60} minutes", status=429,
                        headers={"Retry-After": str(locked.retry_after)}) from None


@csrf_exempt
def xfcc_basic(request):
    """POST a SOAP 1.1 envelope holding ``GetMyGames`` or ``MakeAMove`` (XfccBasic); the answer's envelope."""
    try:
        if request.method != "POST":
            raise SoapFault("XfccBasic answers POST requests", status=405, headers={"Allow": "POST"})
        if settings.XFCC_REQUIRE_HTTPS and not request.is_secure():
            raise SoapFault("XFCC is served over HTTPS only: its password travels in the request", status=403)
        body = _body(request)
        throttle = SignInThrottle()
        if not throttle.allow_request(request, None):
            wait = int(throttle.wait() or 1)
            raise SoapFault(f"too many requests from this address: try again in {wait} seconds", status=429,
                            headers={"Retry-After": str(wait)})
        call = call_parse(body)
        now = timezone.now()
        if call.operation == "GetMyGames":
            user = _user(request, call)
            if user is None:
                raise SoapFault("AuthenticationFailed", status=403)
            return _xml(games_answer([xfcc_game_record(game, user, now) for game in xfcc_games(user=user)]))
        arguments = dict(
            game_id=call.number("gameId", low=1, high=lim.ID_MAX), resign=call.flag("resign"),
            accept_draw=call.flag("acceptDraw"), offer_draw=call.flag("offerDraw"), claim_draw=call.flag("claimDraw"),
            movecount=call.number("movecount", low=0, high=lim.MOVES_MAX),
            move=call.text("myMove", limit=lim.NOTATION_MAX, required=False))
        call.text("myMessage", limit=lim.XFCC_MESSAGE_MAX, required=False)
        user = _user(request, call)
        if user is None:
            return _xml(move_answer("AuthenticationFailed"))
        return _xml(move_answer(xfcc_move(user=user, now=now, **arguments)))
    except SoapFault as fault:
        return _xml(fault_answer(fault), fault.status, fault.headers)
