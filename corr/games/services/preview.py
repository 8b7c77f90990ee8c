"""See before you act (issue 41): a game as it would be after some events, computed by the acts themselves.

A preview runs the very services that store the events (``move_submit``, ``penalty_assess`` ...): their
checks, their permissions, their calculator and their cases, in a transaction that is always rolled back.
So a preview refuses what the act refuses, with the same error, and "preview, then store" gives the clock
that storing gives. Nothing is kept: the rows are rolled back, and the after-commit work the acts queue
(the notices, ``corr.games.notices``; a server game's flag check, ``corr.games.flagclock``) is dropped with
the transaction, as Django drops the ``on_commit`` callbacks of a rolled-back block. The one-round-trip
transaction of the API's move (``trips.trip``), which commits itself, is never used here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from corr.models import CaseKind, Game, OverstepCase, OverstepStatus

from ..clockstate import GameTime, clock_as_of, counts_instants, game_time
from ..leaves import leave_forget
from ..selectors import game_rows
from ..whatif import ClockChange, case_changes, clock_changes, standings

Act = Callable[[Game], "GameTime | tuple[GameTime, list]"]
"""One event's service, called on the game (its own lock and checks): a ``GameTime``, or it and warnings."""


@dataclass(frozen=True, slots=True)
class Preview:
    """The game as it would be: ``time`` (the last act's answer), the acts' ``warnings`` (worded when read),
    ``changes`` from now (``corr.games.whatif``)."""

    time: GameTime
    warnings: list
    changes: list[ClockChange]


def game_preview(*, game: Game, acts: list[Act], now: datetime) -> Preview:
    """Run ``acts`` in order on ``game`` in a transaction that is rolled back, and say what they would change.

    ``now``: the instant the preview is asked at; "now" is the game as ``GET /api/games/{id}/`` shows it at
    that instant (``clock_as_of``). ``game``'s status, result and termination are set to what the acts leave
    (a result previewed finishes it in memory; the database keeps it as it is). Each act runs the service
    that stores its event, so a refusal is the act's own (``ServiceError``, a calculator refusal), raised
    with nothing kept.
    :raises ValueError: no act.
    """
    if not acts:
        raise ValueError("a preview needs at least one event")
    with transaction.atomic():
        as_of = clock_as_of(game, now)
        instants, control = counts_instants(game), game.tournament.ruleset.time_control
        before = standings(game_time(game, game_rows(game=game), as_of).clock.accounts, instants=instants,
                           time_control=control)
        cases_before = _cases(game)
        time, warnings = None, []
        for act in acts:
            result = act(game)
            time, said = result if isinstance(result, tuple) else (result, [])
            warnings.extend(said)
        after = standings(time.clock.accounts, instants=instants, time_control=control)
        changes = clock_changes(before, after) + case_changes(cases_before, _cases(game))
        # The answer shows the game as the acts leave it: a result finishes it (read before the rollback).
        game.refresh_from_db(fields=["status", "result", "termination"])
        transaction.set_rollback(True)  # nothing is kept, and nothing queued on commit runs
    leave_forget(game)  # a leave an act booked was read into the game's own cache: it is gone with the rollback
    return Preview(time=time, warnings=warnings, changes=changes)


def _cases(game: Game) -> dict:
    """The game's cases beside the clock (registered mail, 50.4.12) that are not withdrawn, by id.

    Overstep cases follow the accounts' overstep, which the clock's changes already say.
    """
    rows = (OverstepCase.objects.filter(game=game).exclude(kind=CaseKind.OVERSTEP)
            .exclude(status=OverstepStatus.WITHDRAWN).values_list("pk", "kind", "player", "through_move"))
    return {pk: (kind, player, move) for pk, kind, player, move in rows}

