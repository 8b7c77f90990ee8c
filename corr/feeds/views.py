"""The calendar addresses (no sign-in: the token is the secret) and the pages' rotate buttons."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from corr.games.permissions import can_arbitrate
from corr.models import Tournament

from .deadlines import deadlines_of_tournament, deadlines_of_user
from .ics import deadlines_ics
from .tokens import calendar_feed_find, calendar_feed_rotate


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    # The address is a secret: no shared cache keeps it, no search engine lists it.
    response["Cache-Control"] = "private, max-age=0"
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
def user_calendar(request, token: str):
    """``GET /calendar/<token>.ics``: the deadlines the feed's user owes in their ongoing games."""
    feed = calendar_feed_find(token=token, of_tournament=False)
    if feed is None or not feed.user.is_active:
        raise Http404("no such calendar")
    now = timezone.now()
    deadlines = deadlines_of_user(user=feed.user, now=now)
    with translation.override(feed.user.language or translation.get_language()):  # the owner's language
        name = _("corr: deadlines of %(username)s") % {"username": feed.user.username}
        return _ics(deadlines_ics(deadlines, name=name, now=now, own=True, reader=feed.user), "corr-deadlines.ics")


@require_GET
def tournament_calendar(request, token: str):
    """``GET /calendar/tournament/<token>.ics``: the tournament's deadlines, while the feed's user arbitrates it."""
    feed = calendar_feed_find(token=token, of_tournament=True)
    if feed is None or not feed.user.is_active or not can_arbitrate(feed.user, feed.tournament):
        raise Http404("no such calendar")
    now = timezone.now()
    deadlines = deadlines_of_tournament(tournament=feed.tournament, now=now)
    with translation.override(feed.user.language or translation.get_language()):  # the arbiter's language
        name = _("corr: deadlines of %(tournament)s") % {"tournament": feed.tournament.name}
        return _ics(deadlines_ics(deadlines, name=name, now=now, own=False, reader=feed.user),
                    f"corr-tournament-{feed.tournament_id}.ics")


@login_required
@require_POST
def calendar_rotate(request):
    calendar_feed_rotate(user=request.user)
    messages.success(request, _("New calendar address: the old one no longer works."))
    return redirect("my-games")


@login_required
@require_POST
def tournament_calendar_rotate(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_arbitrate(request.user, tournament):
        raise PermissionDenied(_("only the tournament's arbiters have its calendar"))
    calendar_feed_rotate(user=request.user, tournament=tournament)
    messages.success(request, _("New calendar address: the old one no longer works."))
    return redirect("my-games")
