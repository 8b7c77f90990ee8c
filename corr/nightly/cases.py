"""Arbiters decide overstep cases: confirm (the game is lost on time) or dismiss with a reason."""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction

from corr.games.errors import InvalidInput, NotAllowed, TurnConflict
from corr.games.permissions import can_arbitrate
from corr.games.services import game_finish
from corr.models import GameResult, OverstepCase, OverstepStatus


def _decidable(case: OverstepCase, by) -> OverstepCase:
    case = OverstepCase.objects.select_for_update().select_related("game", "game__tournament").get(pk=case.pk)
    if not can_arbitrate(by, case.game.tournament):
        raise NotAllowed("only the arbiters of this game's tournament decide its overstep cases")
    if case.status != OverstepStatus.OPEN:
        raise TurnConflict(f"case {case.pk} is already {case.status}", field="case")
    return case


@transaction.atomic
def overstep_confirm(*, case: OverstepCase, by, now: datetime, today: date) -> OverstepCase:
    """Confirm a time forfeit: the case is closed and the game ends, lost on time by the player."""
    case = _decidable(case, by)
    result = GameResult.BLACK_WON if case.player == "white" else GameResult.WHITE_WON
    if case.game.status == "ongoing":
        game_finish(game=case.game, by=by, result=result, today=today,
                    termination=f"{case.player} lost on time: control {case.control_number} exceeded,"
                                f" {case.used_days} of {case.allowed_days} days (50.4.3)")
    case.status, case.decided_by, case.decided_at = OverstepStatus.CONFIRMED, by, now
    case.save(update_fields=["status", "decided_by", "decided_at"])
    return case


@transaction.atomic
def overstep_dismiss(*, case: OverstepCase, by, reason: str, now: datetime) -> OverstepCase:
    """Dismiss a case (e.g. a postmark proves the move was sent in time); the reason is kept."""
    if not reason.strip():
        raise InvalidInput("reason is required: say why the case is dismissed", field="reason")
    case = _decidable(case, by)
    case.status, case.decided_by, case.decided_at, case.decision_reason = OverstepStatus.DISMISSED, by, now, reason
    case.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    return case
