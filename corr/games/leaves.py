"""Reading leave: which booked or granted days stop a game's clocks (issue 14)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from corr.clock.calendar import DateRange
from corr.models import Game, Leave

_CACHE = "_leave_ranges"


def leave_applies(leave: Leave, tournament) -> bool:
    """A booking for every tournament stops the clocks of those that allow leave; special leave its own."""
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
    users = {g.white_id for g in games} | {g.black_id for g in games}
    tournaments = {g.tournament_id for g in games}
    rows = list(Leave.objects.filter(user_id__in=users)
                .filter(Q(tournament__isnull=True) | Q(tournament_id__in=tournaments)).order_by("first"))
    for game in games:
        ranges: dict[str, list[DateRange]] = {"white": [], "black": []}
        for leave in rows:
            if not leave_applies(leave, game.tournament):
                continue
            for colour, user_id in (("white", game.white_id), ("black", game.black_id)):
                if leave.user_id == user_id:
                    ranges[colour].append(DateRange(leave.first, leave.last))
        setattr(game, _CACHE, {colour: tuple(r) for colour, r in ranges.items()})


def leave_forget(game: Game) -> None:
    """Drop the kept leave of an instance (after a booking changed it)."""
    if hasattr(game, _CACHE):
        delattr(game, _CACHE)
