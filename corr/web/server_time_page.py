"""The game page's controls for each server's own clock (issue 40), shown only where the tournament's rules allow
them: the opponent's "+" (``gifts``), a player's pause (``pauses_per_game``), a vacation (``vacation``) and a
player's own calendar (``player_calendars``, before the player's clock first runs: ``calendar_set``).

Each is a player's control in an ongoing server game counted in instants (``corr.games.services.server_time``
refuses the others); the service decides and words every refusal, the page shows it beside the field it names.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from corr.clock.assembly import active_events
from corr.clock.personal import CalendarZone
from corr.games.clockstate import counts_instants
from corr.games.services import credits as credit_services
from corr.games.services.server_time import clock_has_run
from corr.models import EventKind, Game, GameStatus, Mode, PlayerCalendar

from .forms import GiftForm
from .server_time_forms import CalendarForm, PauseForm, VacationForm


def players_control(game: Game, colour: str | None) -> bool:
    """Whether the reader, a player (``colour``), may act on their own clock: an ongoing server game of instants."""
    return (colour is not None and game.mode == Mode.SERVER and game.status == GameStatus.ONGOING
            and counts_instants(game))


def gift_form_for(game: Game, data=None) -> GiftForm:
    """The "+" form: under the tournament's ``gifts`` rule whole days only, and a rule of exactly N days
    (lichess: 1) a button with the days fixed; else the older gift of ``gift_max_days`` (issue 39)."""
    rule = game.tournament.gifts
    if rule is None:
        return GiftForm(data, seconds=credit_services.exact(game))
    form = GiftForm(data, seconds=False)
    if rule.get("days"):
        from django import forms

        form.fields["days"].widget = forms.HiddenInput()
        form.fields["days"].initial = rule["days"]
    return form


def gift_rule_text(game: Game) -> str:
    """The tournament's ``gifts`` rule in the page's words ("" under the older ``gift_max_days``)."""
    rule = game.tournament.gifts
    if rule is None:
        return ""
    if rule.get("days"):
        text = ngettext("Each gift is %(days)s day.", "Each gift is %(days)s days.", rule["days"]) % {
            "days": rule["days"]}
    else:
        days = rule.get("max_days") or 0
        text = ngettext("Up to %(days)s day at a time.", "Up to %(days)s days at a time.", days) % {"days": days}
    hours = rule.get("below_allowance_less_hours")
    if hours:
        text += " " + ngettext(
            "Allowed while your partner's time left is under a move's time less %(hours)s hour.",
            "Allowed while your partner's time left is under a move's time less %(hours)s hours.", hours) % {
            "hours": hours}
    return text


def gift_button_text(game: Game) -> str:
    rule = game.tournament.gifts or {}
    if rule.get("days"):
        return ngettext("+%(days)s day", "+%(days)s days", rule["days"]) % {"days": rule["days"]}
    return _("Give time")


def server_time_context(game: Game, *, colour: str | None, bound: dict, zone: str, time, rows) -> dict:
    """The page's forms and sentences for the reader's own clock (``None`` forms: not shown)."""
    t = game.tournament
    mine = players_control(game, colour)
    pauses = None
    if mine and t.pauses_per_game is not None:
        # The budget as the calculator counts it: the pauses in force (a withdrawn or corrected one is not).
        taken = sum(1 for r in active_events(list(rows)) if r.kind == EventKind.PAUSE and r.player == colour)
        pauses = {"left": max(t.pauses_per_game - taken, 0), "of": t.pauses_per_game}
    vacation_left = None
    if mine and t.vacation is not None and time.clock.vacation is not None:
        vacation_left = (time.clock.vacation.get(colour) or {}).get("left_hours")
    # The calendar counts for the whole game: gone once the player's clock has run (``calendar_set``).
    moved = mine and clock_has_run(game, time.assembled, colour, timezone.now())
    calendar_shown = mine and t.player_calendars != CalendarZone.NONE.value and not moved
    calendar_initial = {}
    if calendar_shown:
        own = PlayerCalendar.objects.filter(game=game, player=colour).first()
        if own is not None:
            calendar_initial = {"time_zone": own.time_zone, "weekend_days": own.weekend_days,
                                "night_from": own.night_from or None, "night_hours": own.night_hours}
    own_zone = t.player_calendars == CalendarZone.OWN_ZONE.value
    return {
        "pause_form": (bound.get("pause") or PauseForm(zone=zone)) if pauses is not None else None,
        "pauses": pauses,
        "vacation_form": (bound.get("vacation") or VacationForm(zone=zone)) if vacation_left is not None else None,
        "vacation_left": vacation_left,
        "calendar_form": ((bound.get("calendar") or CalendarForm(initial=calendar_initial, own_zone=own_zone))
                          if calendar_shown else None),
        "gift_rule_text": gift_rule_text(game),
        "gift_button": gift_button_text(game),
    }
