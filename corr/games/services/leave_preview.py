"""See a booking before you make it (issue 41): the deadlines a leave would move, game by game.

``leave_preview`` runs the booking itself (``leave.leave_book``: its rules, its refusals, every game's
recomputed clock) in a transaction that is always rolled back, and compares each of the player's ongoing games
as it is and as the booking would leave it. So a booking the rules refuse is refused here with the same error,
and nothing is kept: no leave row, no history line, no e-mail to the partners (queued after commit, dropped
with the rollback).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction

from accounts.models import User
from corr.models import Game

from ..clockstate import clock_as_of, counts_instants, game_time
from ..leaves import games_leave_stops, leave_forget, ongoing_games
from ..selectors import game_rows
from ..whatif import ClockChange, Standing, clock_changes, standings
from .leave import leave_book


@dataclass(frozen=True, slots=True)
class DeadlineMove:
    """One player's deadline in one game: ``before`` the booking and ``after`` it (dates, or instants)."""

    player: str
    before: date | datetime | None
    after: date | datetime | None

    @property
    def moves(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True, slots=True)
class GameLeavePreview:
    """One ongoing game of the player: whether the booking stops its clocks (``stops``: its tournament allows
    leave), each player's deadline before and after, and the changes worded as a game's preview words them."""

    game: Game
    colour: str
    stops: bool
    deadlines: list[DeadlineMove]
    changes: list[ClockChange]


def _standings(game: Game, as_of) -> dict[str, Standing]:
    leave_forget(game)  # the game's leave is read anew: the booking's, inside the transaction
    time = game_time(game, game_rows(game=game), as_of)
    return standings(time.clock.accounts, instants=counts_instants(game),
                     time_control=game.tournament.ruleset.time_control)


def leave_preview(*, by: User, first: date, last: date, now: datetime) -> list[GameLeavePreview]:
    """Every ongoing correspondence game of ``by`` as booking leave ``first``..``last`` at ``now`` would leave it.

    In game order; a game whose tournament allows no leave is listed with ``stops`` False and its deadlines
    unmoved. :raises InvalidInput: as ``leave_book`` (the rule broken, the overlapping leave), nothing kept.
    """
    games = ongoing_games(by)
    stopped = {g.pk for g in games_leave_stops(by)}
    with transaction.atomic():
        as_of = {g.pk: clock_as_of(g, now) for g in games}
        before = {g.pk: _standings(g, as_of[g.pk]) for g in games}
        leave_book(by=by, first=first, last=last, now=now)
        after = {g.pk: _standings(g, as_of[g.pk]) for g in games}
        transaction.set_rollback(True)  # nothing is kept, and the partners' e-mail queued on commit never goes
    for game in games:
        leave_forget(game)
    return [GameLeavePreview(
        game=g, colour=g.colour_of(by) or "", stops=g.pk in stopped,
        deadlines=[DeadlineMove(p, before[g.pk][p].deadline, after[g.pk][p].deadline) for p in before[g.pk]],
        changes=clock_changes(before[g.pk], after[g.pk])) for g in games]
