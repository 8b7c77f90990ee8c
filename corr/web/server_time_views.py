"""The game page's posts for each server's own clock (issue 40): a pause, a vacation, a calendar.

Each calls the API's own service (``corr.games.services.server_time``) with the server's clock read once; a
refusal comes back on the game page beside the field it names, in the reader's language, nothing stored.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.utils import timezone
from django.views.decorators.http import require_POST

from corr.clock.personal import CalendarZone
from corr.games import services

from .deadline import reader_zone
from .server_time_forms import CalendarForm, PauseForm, VacationForm
from .views import _act, _game_or_404


@login_required
@require_POST
def pause_post(request, game_id: int):
    game = _game_or_404(request, game_id)
    form = PauseForm(request.POST, zone=reader_zone(request.user, game.tournament))
    return _act(request, game_id, form, lambda game, data, today: services.pause_take(
        game=game, by=request.user, until=data["until"], now=timezone.now()))


@login_required
@require_POST
def vacation_post(request, game_id: int):
    game = _game_or_404(request, game_id)
    form = VacationForm(request.POST, zone=reader_zone(request.user, game.tournament))
    return _act(request, game_id, form, lambda game, data, today: services.vacation_book(
        game=game, by=request.user, starts=data["starts"], until=data["until"], now=timezone.now()))


@login_required
@require_POST
def calendar_post(request, game_id: int):
    game = _game_or_404(request, game_id)
    form = CalendarForm(request.POST, own_zone=game.tournament.player_calendars == CalendarZone.OWN_ZONE.value)
    return _act(request, game_id, form, lambda game, data, today: services.calendar_set(
        game=game, by=request.user, today=today, **form.service_data()))
