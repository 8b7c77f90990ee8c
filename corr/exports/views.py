"""The game page's downloads: the same files as ``GET /api/games/{id}/export/{format}/``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from corr.games.clockstate import local_today
from corr.games.permissions import can_view
from corr.games.selectors import game_get, game_rows
from corr.models import Game
from corr.links import absolute_url

from . import Export, ExportUnavailable, game_export


def export_response(export: Export) -> HttpResponse:
    response = HttpResponse(export.content, content_type=export.media_type)
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response


def export_of(game: Game, format: str) -> Export:
    """The file of ``game`` as of today in its tournament's zone (the game page's date)."""
    return game_export(game=game, rows=game_rows(game=game), as_of=local_today(game.tournament, timezone.now()),
                       format=format, site=absolute_url(reverse("game", args=[game.pk])))


@login_required
def game_download(request, game_id: int, format: str):
    try:
        game = game_get(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404(_("no such game")) from None
    if not can_view(request.user, game):
        raise PermissionDenied(_("you are neither a player of this game nor an arbiter of its tournament"))
    try:
        return export_response(export_of(game, format))
    except ExportUnavailable as error:
        raise Http404(error.message) from None
