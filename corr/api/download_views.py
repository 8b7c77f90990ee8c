"""Files the API hands out: a game's exports, and the calendar addresses behind them.

The exports answer their file with its own media type (``Content-Disposition:
attachment``); every error stays JSON like the rest of ``/api/``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from corr.exports import FORMATS, FORMATS_BY_KIND
from corr.exports.views import export_of, export_response
from corr.feeds.tokens import calendar_feed_get, calendar_feed_rotate, calendar_url
from corr.games.errors import NotAllowed
from corr.games.permissions import can_arbitrate
from corr.models import Tournament

from .idempotency import idempotent
from .renderers import OrjsonRenderer
from .views import _game


def _file_renderer(media_type: str, format: str) -> type[BaseRenderer]:
    """A renderer that lets a client ask for the file's type in ``Accept``; the view answers the bytes itself."""
    return type(f"{format.upper()}Renderer", (BaseRenderer,), {
        "media_type": media_type, "format": format, "charset": "utf-8",
        "render": lambda self, data, accepted_media_type=None, renderer_context=None: data})


class _JsonErrors:
    """Errors are JSON whatever the client accepted (``Accept: text/csv`` included)."""

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer = OrjsonRenderer()
            request.accepted_media_type = OrjsonRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


def _kinds_text() -> str:
    return "; ".join(f"{kind}: {', '.join(formats)}" for kind, formats in FORMATS_BY_KIND.items())


class GameExportView(_JsonErrors, APIView):
    """GET /api/games/{id}/export/{format}/: the game as PGN, PDN, SGF or its ledger as CSV."""

    renderer_classes = [OrjsonRenderer] + [_file_renderer(media, name) for name, (media, _) in FORMATS.items()]

    def get_format_suffix(self, **kwargs):
        # The path's {format} names the file, not DRF's format suffix (which would pick the renderer by it
        # and answer an unknown one with a bare 404): the service names the format and the kind instead.
        return None

    @extend_schema(
        parameters=[OpenApiParameter("format", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(FORMATS),
                                     description=f"the formats of each kind of game: {_kinds_text()}")],
        responses={(200, media): OpenApiResponse(OpenApiTypes.BINARY, description=f"the game-ID.{name} file")
                   for name, (media, _) in FORMATS.items()},
        description="The game's file (players and arbiters): chess as PGN, draughts as PDN, Go as SGF, the ledger "
                    "of every kind as CSV, as of today; 404 naming the format and the kind for a format that does "
                    "not fit the game.")
    def get(self, request, game_id: int, format: str):
        return export_response(export_of(_game(request, game_id), format))


class CalendarOut(serializers.Serializer):
    calendar_url = serializers.URLField(help_text="the feed's secret address (iCalendar, no sign-in)")


class MyCalendarRotateView(APIView):
    """POST /api/users/me/calendar/rotate/: a new secret address; the old one answers 404 at once."""

    @extend_schema(request=None, responses={200: CalendarOut})
    @idempotent
    def post(self, request):
        return Response({"calendar_url": calendar_url(calendar_feed_rotate(user=request.user))})


def _arbitrated(request, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_arbitrate(request.user, tournament):
        raise NotAllowed(_("only the tournament's arbiters have its calendar"))
    return tournament


class TournamentCalendarView(APIView):
    """GET /api/tournaments/{id}/calendar/: the arbiter's secret address of every deadline of the tournament."""

    @extend_schema(responses={200: CalendarOut})
    def get(self, request, tournament_id: int):
        tournament = _arbitrated(request, tournament_id)
        return Response({"calendar_url": calendar_url(calendar_feed_get(user=request.user, tournament=tournament))})


class TournamentCalendarRotateView(APIView):
    """POST /api/tournaments/{id}/calendar/rotate/: a new address of the tournament's calendar for this arbiter."""

    @extend_schema(request=None, responses={200: CalendarOut})
    @idempotent
    def post(self, request, tournament_id: int):
        tournament = _arbitrated(request, tournament_id)
        feed = calendar_feed_rotate(user=request.user, tournament=tournament)
        return Response({"calendar_url": calendar_url(feed)})
