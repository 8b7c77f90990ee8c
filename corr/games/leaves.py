"""Reading leave: which booked or granted days stop a game's clocks (issue 14)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple
from datetime import date, datetime

import orjson
from django.db.models import Q

from corr.clock.calendar import DateRange
from corr.models import AllowancePer, Game, GameStatus, Leave, Mode, Tournament
from corr.sql import bound_cursor, ids_in

if TYPE_CHECKING:
    from accounts.models import User

_CACHE = "_leave_ranges"


def leave_applies(leave: Leave, tournament, game: Game | None = None) -> bool:
    """A booking for every tournament stops the clocks of those that allow leave; special leave its own; the leave
    of one game (``leave.game_id``, an imported game's: issue 37) that game's alone (``game``; None: none)."""
    if leave.game_id is not None:
        return game is not None and leave.game_id == game.pk
    if leave.tournament_id is not None:
        return leave.tournament_id == tournament.pk
    return tournament.leave_days > 0


def game_leave(game: Game) -> dict[str, tuple[DateRange, ...]]:
    """Each colour's leave in ``game`` (one query, kept on the instance for the rest of the request)."""
    cached = getattr(game, _CACHE, None)
    if cached is None:
        leaves_prefetch([game])
        cached = getattr(game, _CACHE)
    return cached


def leaves_prefetch(games: Iterable[Game]) -> None:
    """Read the leave of many games in one query (the nightly chunk) and keep it on each instance."""
    games = list(games)
    if not games:
        return
    # The ids bound as arrays (corr.sql), not through the ORM's lookups: Django prepares every value of a related
    # ``__in`` in Python, a millisecond a chunk of the nightly job for its 250 games and 500 players.
    users, user_params = ids_in("user_id", sorted({g.white_id for g in games} | {g.black_id for g in games}))
    tournaments, tournament_params = ids_in("tournament_id", sorted({g.tournament_id for g in games}))
    own, own_params = ids_in("game_id", [g.pk for g in games])
    with bound_cursor() as cursor:
        cursor.execute(f"SELECT user_id, \"first\", \"last\", tournament_id, game_id FROM {Leave._meta.db_table}"
                       f" WHERE {users} AND (tournament_id IS NULL OR {tournaments}) AND (game_id IS NULL OR {own})"
                       " ORDER BY \"first\"", [*user_params, *tournament_params, *own_params])
        rows = [_LeaveRow(*row) for row in cursor.fetchall()]
    for game in games:
        leave_keep(game, rows)


def leave_keep(game: Game, rows) -> None:
    """Keep on ``game`` the ranges of the leave ``rows`` (``user_id``, ``first``, ``last``, ``tournament_id``,
    in order of ``first``) that stop its clocks: those of its players that apply to its tournament.

    ``rows`` may hold other players' leave and other games' own; the caller read them (``leaves_prefetch``, or the
    move's one locking statement, ``corr.games.services.lock_read.game_lock_read``).
    """
    ranges: dict[str, list[DateRange]] = {"white": [], "black": []}
    for leave in rows:
        if not leave_applies(leave, game.tournament, game):
            continue
        for colour, user_id in (("white", game.white_id), ("black", game.black_id)):
            if leave.user_id == user_id:
                ranges[colour].append(DateRange(leave.first, leave.last))
    setattr(game, _CACHE, {colour: tuple(r) for colour, r in ranges.items()})


LEAVE_JSON_SQL = (
    "SELECT COALESCE(json_agg(json_build_array(l.user_id, l.first, l.last, l.tournament_id, l.game_id)"
    " ORDER BY l.first), '[]')::text FROM corr_leave l WHERE l.user_id IN (corr_game.white_id, corr_game.black_id)"
    " AND (l.tournament_id IS NULL OR l.tournament_id = corr_game.tournament_id)"
    " AND (l.game_id IS NULL OR l.game_id = corr_game.id)")
"""A subquery of a ``corr_game`` query: its players' leave that may apply to it, as one JSON text (PostgreSQL)."""


class _LeaveRow(NamedTuple):
    user_id: int
    first: date
    last: date
    tournament_id: int | None
    game_id: int | None


def leave_keep_json(game: Game, text: str) -> None:
    """``leave_keep`` with the rows of ``LEAVE_JSON_SQL``'s text."""
    fromdate = date.fromisoformat
    leave_keep(game, [_LeaveRow(u, fromdate(first), fromdate(last), t, g)
                      for u, first, last, t, g in orjson.loads(text)])


def leave_forget(game: Game) -> None:
    """Drop the kept leave of an instance (after a booking changed it)."""
    if hasattr(game, _CACHE):
        delattr(game, _CACHE)


def ongoing_games(user: User, tournament: Tournament | None = None) -> list[Game]:
    """``user``'s ongoing correspondence games (of ``tournament`` if given): those leave can stop.

    A live game is none of them (issue 23): its clock runs in seconds at the board, where leave means
    nothing, and the correspondence calculator that a booking recomputes refuses it.
    """
    games = (Game.objects.filter(Q(white=user) | Q(black=user), status=GameStatus.ONGOING)
             .exclude(mode=Mode.LIVE))
    if tournament is not None:
        games = games.filter(tournament=tournament)
    return list(games.select_related("tournament", "white", "black").order_by("pk"))


def days_in_year(first: date, last: date, year: int) -> int:
    lo, hi = max(first, date(year, 1, 1)), min(last, date(year, 12, 31))
    return max(0, (hi - lo).days + 1)


def leave_used(*, user: User, tournament: Tournament, year: int | None) -> int:
    """Days of ``user``'s own bookings that count against ``tournament``'s allowance (special leave never does).

    ``year`` None: the whole event (every booking); otherwise the days falling in that calendar year.
    """
    rows = Leave.objects.filter(user=user, special=False).filter(Q(tournament__isnull=True) | Q(tournament=tournament))
    if year is None:
        return sum(row.days for row in rows)
    return sum(days_in_year(row.first, row.last, year) for row in rows)


def leave_summary(*, user: User, now: datetime) -> dict:
    """The player's leave and, for each tournament of their ongoing games, the allowance used and left."""
    from .clockstate import local_today  # clockstate reads leave from here

    leaves = list(Leave.objects.filter(user=user).select_related("tournament", "granted_by").order_by("first"))
    tournaments = {g.tournament_id: g.tournament for g in ongoing_games(user)}
    allowances = []
    for t in sorted(tournaments.values(), key=lambda t: t.pk):
        year = None if t.leave_per == AllowancePer.EVENT else local_today(t, now).year
        used = leave_used(user=user, tournament=t, year=year) if t.leave_days else 0
        allowances.append({
            "tournament": t.pk, "name": t.name, "per": t.leave_per, "year": year, "allowance_days": t.leave_days,
            "used_days": used, "left_days": max(0, t.leave_days - used), "min_days": t.leave_min_days,
            "book_ahead_days": t.leave_book_ahead_days,
        })
    return {"leaves": leaves, "allowances": allowances}


def games_leave_stops(user: User) -> list[Game]:
    """The games a booking of ``user``'s leave stops: their ongoing correspondence games whose tournament allows
    leave (``leave_days`` > 0), in id order. The booking and its partners' e-mail read this one list."""
    return [g for g in ongoing_games(user) if g.tournament.leave_days > 0]
