"""A game's facts of one player's own clock (issue 40): their calendar, vacation and pauses, read from the
database and given to the calculator beside the players (``players.<id>.calendar``, ``vacation``, ``pauses``
of the game file; ``corr.clock.personal``, ``corr.clock.vacation``).

A vacation or a pause is a stored event (``GameEvent`` of kind ``vacation``/``pause``: ``received_at`` to
``sent_at``), withdrawn like any other; a calendar is a ``PlayerCalendar`` row, read only where the
tournament allows calendars (one statement then, none elsewhere). Automatic vacation is no stored fact: the
calculator derives it from the flags (``corr.clock.vacation.with_automatic_vacation``) on every read.
"""

from __future__ import annotations

from dataclasses import replace

from corr.clock.assembly import ClockRow, active_events
from corr.clock.events import Game as ClockGame
from corr.clock.personal import CalendarZone, Span, read_calendar
from corr.models import EventKind, Game, PlayerCalendar

SPAN_KINDS = frozenset({EventKind.VACATION.value, EventKind.PAUSE.value})
_CACHE = "_player_calendars"


def player_calendars(game: Game) -> dict[str, dict]:
    """Each colour's calendar in ``game`` as the game file writes it (``PlayerCalendar.as_json``); empty where
    the tournament allows none. Kept on the instance for the rest of the request."""
    cached = getattr(game, _CACHE, None)
    if cached is None:
        cached = {}
        if game.tournament.player_calendars != CalendarZone.NONE.value and game.pk is not None:
            cached = {c.player: c.as_json() for c in PlayerCalendar.objects.filter(game=game)}
        setattr(game, _CACHE, cached)
    return cached


def player_calendars_forget(game: Game) -> None:
    """Forget the kept calendars (after one is set in this request)."""
    if hasattr(game, _CACHE):
        delattr(game, _CACHE)


def with_personal_facts(game: Game, clock_game: ClockGame, rows, *, clock_tuples: bool = False) -> ClockGame:
    """``clock_game`` (assembled from ``rows``) with each player's calendar, vacations and pauses.

    ``rows``: the stored rows (``clock_tuples``: plain tuples of ``CLOCK_FIELDS``). Nothing changes (the same
    object is returned) for a game with none of them, so the other games pay one attribute read.
    """
    rules = clock_game.ruleset
    calendars = player_calendars(game) if rules.player_calendars is not CalendarZone.NONE else {}
    spans: dict[str, dict[str, list[Span]]] = {}
    if rules.vacation is not None or rules.pauses_per_game is not None:
        named = [ClockRow(*row) for row in rows] if clock_tuples else list(rows)
        if any(row.kind in SPAN_KINDS for row in named):
            for row in active_events(named):
                if row.kind in SPAN_KINDS and row.received_at is not None and row.sent_at is not None:
                    spans.setdefault(row.player, {}).setdefault(row.kind, []).append(
                        Span(row.received_at, row.sent_at))
    if not calendars and not spans:
        return clock_game
    players = []
    for player in clock_game.players:
        own = spans.get(player.id, {})
        calendar = calendars.get(player.id)
        players.append(replace(
            player,
            calendar=read_calendar(calendar, f"players.{player.id}.calendar") if calendar else player.calendar,
            vacation=tuple(sorted(own.get("vacation", ()), key=lambda s: s.first)) or player.vacation,
            pauses=tuple(sorted(own.get("pause", ()), key=lambda s: s.first)) or player.pauses))
    return replace(clock_game, players=(players[0], players[1]))
