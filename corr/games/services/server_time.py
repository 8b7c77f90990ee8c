"""Each server's own clock stops and time given, as a player's actions (issue 40): the opponent's "+" (lichess)
or "add time" (Dragon Go Server), a player's pause (OGS), a vacation booked or started now (chess.com, OGS,
DGS), a player's own calendar (OGS's weekends, DGS's night).

Each is stored as a fact of the game (``GameEvent`` of kind ``gift``, ``pause`` or ``vacation``; a calendar a
``PlayerCalendar``) with a line in the game's history, and checked by the calculator before anything is
stored: the bound of a gift (``corr.clock.gifts``: lichess's ``moretimeable``, DGS's ``MAX_ADD_DAYS``), the
allowance and least length of a vacation and the pauses' budget (``corr.clock.vacation``), a calendar's zone,
weekday and night (``corr.clock.personal``). The calculator's refusal is said in the reader's language naming
the field and the rule (``corr.games.clock_messages``), and nothing is stored.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr import limits as lim
from corr.clock.assembly import other
from corr.clock.errors import ClockError
from corr.clock.personal import CalendarZone, read_calendar
from corr.models import EventKind, Game, GameEvent, Mode, PlayerCalendar

from ..cases import history_append
from ..clock_messages import ClockRefusal
from ..clockstate import (GameTime, assemble_game, clock_as_of, clock_start, counts_instants, instant_text,
                          local_today)
from ..errors import InvalidInput
from ..personal import player_calendars_forget
from ..records import amount_text, record_text
from .storage import ensure_ongoing, event_new, events_store_changes, game_lock, game_recompute, player_colour_of


def _server_instants(game: Game, field: str, what) -> None:
    """The facts of issue 40 are instants of a server's clock: a server game counted in instants.

    :raises InvalidInput: naming ``field``, else.
    """
    if game.mode != Mode.SERVER or not counts_instants(game):
        raise InvalidInput(_("%(what)s is kept in server games whose clock counts instants (time_control.count"
                             " whole_days or exact); this game's clock counts dates"), field=field, what=what)


def _store(game: Game, rows, row: GameEvent, now: datetime, cause: str, field: str) -> GameTime:
    """Store ``row`` once the calculator has taken the game with it (its refusal said, nothing stored).

    A refusal of a player's fact (``players.<colour>.vacation.taken[i]``, ``pauses[i]``) names the input that
    made it, ``field``; the calculator's words still name its own field."""
    as_of = clock_as_of(game, now)
    try:
        return events_store_changes(game, rows, [row], local_today(game.tournament, now), cause=cause,
                                    as_of=as_of)[0]
    except ClockRefusal as refusal:
        if (refusal.field or "").startswith("players."):
            refusal.field = field
        raise


@transaction.atomic
def time_give(*, game: Game, by: User, days: int, now: datetime) -> GameTime:
    """``by`` gives the partner ``days`` of time at ``now``, within the tournament's ``gifts`` rule (issue 40).

    lichess's "+" gives exactly one day, only while the partner's time left is under a move's days less an hour
    (``moretimeable``); Dragon Go Server's "add time" up to 14 days at once (``MAX_ADD_DAYS``). The gift is taken
    off the partner's move in hand and charged to no one: the partner's flag moves by exactly its days.
    :raises InvalidInput: naming ``days`` (or ``at``, the bound on the clock) and the rule; nothing stored.
    :raises NotAllowed: not a player; :raises GameOver: the game is over.
    """
    game, rows = game_lock(game)
    giver = player_colour_of(game, by)
    ensure_ongoing(game)
    _server_instants(game, "days", _("time given"))
    rule = game.tournament.ruleset.gifts
    if rule is None:
        raise InvalidInput(_("this tournament's rules give no time between players (ruleset.gifts is not set)"),
                           field="days")
    partner = other(giver)
    at = now.astimezone(UTC).replace(microsecond=0)
    row = event_new(by, EventKind.GIFT, partner, days=days, sent_at=at,
                    sent_on=local_today(game.tournament, at),
                    note=record_text("time_given", amount=amount_text(days), player=partner, partner=giver))
    return _store(game, rows, row, at, record_text("cause_time_given", player=partner), "days")


@transaction.atomic
def pause_take(*, game: Game, by: User, until: datetime, now: datetime) -> GameTime:
    """``by`` pauses their own clock from ``now`` to ``until`` (OGS's pauses, ``pauses_per_game`` a game).

    The partner's clock runs on. The end is given when the pause starts (OGS's lasts until resumed), so that
    the flag's instant is known; at most ``PAUSE_DAYS_MAX`` days.
    :raises InvalidInput: naming ``until`` (not after now, too long) or ``pauses`` (no pauses in this
        tournament, none left: the calculator's budget); nothing stored.
    """
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    _server_instants(game, "until", _("a pause"))
    if game.tournament.pauses_per_game is None:
        raise InvalidInput(_("this tournament's rules have no pauses (pauses_per_game is not set)"), field="until")
    start = now.astimezone(UTC).replace(microsecond=0)
    end = until.astimezone(UTC).replace(microsecond=0)
    _span_checked(start, end, "until", lim.PAUSE_DAYS_MAX)
    row = event_new(by, EventKind.PAUSE, colour, received_at=start, sent_at=end,
                    received_on=local_today(game.tournament, start), sent_on=local_today(game.tournament, end),
                    note=record_text("pause_taken", player=colour, start=instant_text(start), end=instant_text(end)))
    return _store(game, rows, row, start, record_text("cause_pause", player=colour), "until")


@transaction.atomic
def vacation_book(*, game: Game, by: User, until: datetime, now: datetime,
                  starts: datetime | None = None) -> GameTime:
    """``by`` books a vacation from ``starts`` (None: now, started at once) to ``until`` in ``game``.

    The tournament's ``vacation`` rule decides: the allowance left when it begins, the least length (chess.com
    24 hours, DGS 2 days), and whether a move ends it. The vacation is this game's (the calculator's game file
    has one per game); chess.com's "for all your games" is booked game by game.
    :raises InvalidInput: naming ``starts``/``until`` (in the past, more than ``VACATION_AHEAD_DAYS_MAX`` days
        ahead, reversed, too long) or the calculator's field
        (``players.<colour>.vacation.taken[i]``: over the allowance left, shorter than the least); nothing stored.
    """
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    _server_instants(game, "until", _("a vacation"))
    if game.tournament.ruleset.vacation is None:
        raise InvalidInput(_("this tournament's rules have no vacation (ruleset.vacation is not set)"), field="until")
    current = now.astimezone(UTC).replace(microsecond=0)
    start = current if starts is None else starts.astimezone(UTC).replace(microsecond=0)
    if start < current:
        raise InvalidInput(_("starts must be now or later (%(now)s UTC): a vacation is not booked in the past"),
                           field="starts", now=instant_text(current))
    if start - current > timedelta(days=lim.VACATION_AHEAD_DAYS_MAX):
        raise InvalidInput(_("starts may be at most %(days)s days after now: a vacation is booked at most that far"
                             " ahead"), field="starts", days=lim.VACATION_AHEAD_DAYS_MAX)
    end = until.astimezone(UTC).replace(microsecond=0)
    _span_checked(start, end, "until", lim.VACATION_DAYS_MAX)
    row = event_new(by, EventKind.VACATION, colour, received_at=start, sent_at=end,
                    received_on=local_today(game.tournament, start), sent_on=local_today(game.tournament, end),
                    note=record_text("vacation_booked", player=colour, start=instant_text(start),
                                     end=instant_text(end)))
    return _store(game, rows, row, current, record_text("cause_vacation", player=colour), "until")


def _span_checked(start: datetime, end: datetime, field: str, most_days: int) -> None:
    if end <= start:
        raise InvalidInput(_("%(name)s must be after %(start)s UTC"), field=field, name=field,
                           start=instant_text(start))
    if end - start > timedelta(days=most_days):
        raise InvalidInput(_("%(name)s may be at most %(days)s days after the start"), field=field, name=field,
                           days=most_days)


@transaction.atomic
def calendar_set(*, game: Game, by: User, time_zone: str = "", weekend_days: list[str] | None = None,
                 night_from: str = "", night_hours: int | None = None, today,
                 now: datetime | None = None) -> Game:
    """``by`` sets their own calendar in ``game`` where the tournament's ``player_calendars`` allows it, before
    their own clock has run at all (``now``, None: the present instant).

    The game file has one calendar per player for the whole game, time already passed included: a calendar set
    once the player has been on move would give back nights and weekends already charged (issue 40 review).
    So it is refused once the player has been on move at any instant: the first mover from the game's clock
    start, the other player from the first mover's first move. The days and hours chosen are bounded by the
    calendar's own reading only (any weekdays, a night of 1 to 23 hours): the tournament's ``player_calendars``
    allows a calendar or not and says whose zone counts; it carries no bound of OGS's (Saturday and Sunday) or
    DGS's (9 hours) kind, and a preset's players choose within the calendar's reading.
    :raises InvalidInput: naming ``calendar`` (not allowed, the player's clock has run already) or the calendar's
        field (an unknown zone or weekday, a night's hour or length; a zone where the game's zone counts);
        nothing stored.
    """
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    _server_instants(game, "calendar", _("a player's calendar"))
    allowed = game.tournament.player_calendars
    if allowed == CalendarZone.NONE.value:
        raise InvalidInput(_("this tournament's rules keep no player's own calendar (player_calendars is none)"),
                           field="calendar")
    at = (now or timezone.now()).astimezone(UTC)
    if clock_has_run(game, assemble_game(game, rows, clock_as_of(game, at)), colour, at):
        raise InvalidInput(_("a calendar is set before your clock first runs: it counts for the whole game, and"
                             " your clock has run already"), field="calendar")
    if allowed == CalendarZone.GAME_ZONE.value and time_zone:
        raise InvalidInput(_("this tournament reads calendars in the game's zone (%(zone)s): give no time_zone"),
                           field="time_zone", zone=game.tournament.time_zone)
    data: dict = {}
    if time_zone:
        data["time_zone"] = time_zone
    if weekend_days:
        data["weekend_days"] = list(weekend_days)
    if night_from or night_hours is not None:
        data["night"] = {"from": night_from, "hours": night_hours}
    try:
        read_calendar(data, "calendar")
    except ClockError as error:  # the calculator's words, naming the input's field
        field = (error.field or "calendar").removeprefix("calendar.")
        raise ClockRefusal(error, field=field.replace("night.from", "night_from").replace("night.hours", "night_hours"),
                           game=game) from None
    PlayerCalendar.objects.update_or_create(game=game, player=colour, defaults={
        "time_zone": time_zone, "weekend_days": list(weekend_days or []), "night_from": night_from,
        "night_hours": night_hours})
    player_calendars_forget(game)
    history_append(game=game, by=by, kind=EventKind.CALENDAR, player=colour,
                   note=record_text("calendar_set", player=colour, calendar=_calendar_words(data)))
    game_recompute(game, by=by, today=today, cause=record_text("cause_calendar", player=colour))
    return game


def clock_has_run(game: Game, assembled, colour: str, now: datetime) -> bool:
    """Whether ``colour`` has been on move at any instant up to ``now`` (``assembled``: the game as of ``now``):
    the game's clock has started and the player is on move or has moved (the turn passes only by a move).
    A calendar is refused from then (``calendar_set``), and the page's control goes."""
    if now < clock_start(game):
        return False
    return assembled.to_move == colour or assembled.made[colour] > 0


def _calendar_words(data: dict) -> str:
    """The calendar as the history stores it: its game-file JSON, compact (a record the reader checks)."""
    import json

    return json.dumps(data, separators=(", ", ": "), sort_keys=True)
