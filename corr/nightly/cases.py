"""Arbiters decide cases: confirm (a time forfeit, or the penalty of 50.4.9.3) or dismiss with a reason.

Every decision locks the game first and the case second, the order every
event takes (an event locks its game, then updates its cases): two orders
would deadlock. Confirming re-checks the current clock: a case whose facts
are gone cannot be confirmed, and the result quotes the figures of the moment.
"""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils.translation import gettext_lazy

from corr.games.cases import history_append, mail_case_holds
from corr.games.clockstate import game_time
from corr.games.records import record_text
from corr.games.errors import InvalidInput, TurnConflict, colour_word
from corr.games.services import game_finish, game_lock, penalty_assess
from corr.games.services.arbiters import ensure_arbiter
from corr.models import CaseKind, EventKind, GameResult, GameStatus, OverstepCase, OverstepStatus


def _decidable(case: OverstepCase, by):
    """The locked game, its rows and the locked case, if ``by`` may decide it now."""
    game, rows = game_lock(case.game)
    case = OverstepCase.objects.select_for_update().get(pk=case.pk)
    ensure_arbiter(game, by)
    if case.status != OverstepStatus.OPEN:
        raise TurnConflict(gettext_lazy("case %(case)s is already %(status)s"), field="case", case=case.pk,
                           status=case.status)
    return game, rows, case


def _decided(case: OverstepCase, status: str, by, now: datetime, reason: str = "") -> None:
    case.status, case.decided_by, case.decided_at, case.decision_reason = status, by, now, reason
    case.save(update_fields=["status", "decided_by", "decided_at", "decision_reason", "through_move",
                             "allowed_days", "used_days", "deadline", "checked_on"])


@transaction.atomic
def overstep_confirm(*, case: OverstepCase, by, now: datetime, today: date) -> OverstepCase:
    """Confirm a case on the current facts.

    An overstep: the game ends, lost on time, with today's figures in the
    termination. A registered-mail case: the penalty of 50.4.9.3 is added
    through the ordinary penalty event (5 days, then 10: 50.4.10).
    :raises TurnConflict: the case is decided already, or its facts are gone (409, with today's figures).
    """
    game, rows, case = _decidable(case, by)
    if case.kind == CaseKind.REGISTERED_MAIL:
        if not mail_case_holds(game, rows, case):
            raise TurnConflict(gettext_lazy("case %(case)s no longer holds: move %(move)s is not recorded as sent by"
                                            " ordinary mail or e-mail in time trouble"), field="case",
                               case=case.pk, move=case.through_move)
        case.checked_on = today
        _decided(case, OverstepStatus.CONFIRMED, by, now)
        history_append(game=game, by=by, kind=EventKind.CASE, player=case.player, number=case.through_move,
                       note=record_text("mail_case_confirmed", case=case.pk))
        penalty_assess(game=game, by=by, player=case.player, reason="unregistered_mail", today=today)
        return case
    account = game_time(game, rows, today).clock.accounts[case.player]
    over = account.overstepped
    if game.status != GameStatus.ONGOING or over is None or over.control != case.control_number:
        window = account.control
        raise TurnConflict(
            gettext_lazy("case %(case)s no longer holds: as of %(today)s %(player)s has used %(used)s of %(allowed)s"
                         " days in control %(control)s, %(left)s left"), field="case", case=case.pk, today=today,
            player=colour_word(case.player), used=window.allowed_days - window.remaining_days,
            allowed=window.allowed_days, control=window.number, left=window.remaining_days)
    case.through_move, case.allowed_days, case.used_days = over.through_move, over.allowed_days, over.used_days
    case.deadline, case.checked_on = account.deadline, today
    _decided(case, OverstepStatus.CONFIRMED, by, now)
    history_append(game=game, by=by, kind=EventKind.CASE, player=case.player, number=case.through_move,
                   note=record_text("overstep_case_confirmed", case=case.pk, used=over.used_days,
                                    allowed=over.allowed_days, control=over.control))
    result = GameResult.BLACK_WON if case.player == "white" else GameResult.WHITE_WON
    game_finish(game=game, by=by, result=result, today=today,
                termination=record_text("lost_on_time_control", player=case.player, control=over.control,
                                        used=over.used_days, allowed=over.allowed_days, day=today))
    return case


@transaction.atomic
def overstep_dismiss(*, case: OverstepCase, by, reason: str, now: datetime) -> OverstepCase:
    """Dismiss a case (e.g. a postmark proves the move was sent in time); the reason is kept."""
    if not reason.strip():
        raise InvalidInput(gettext_lazy("reason is required: say why the case is dismissed"), field="reason")
    game, _, case = _decidable(case, by)
    _decided(case, OverstepStatus.DISMISSED, by, now, reason)
    history_append(game=game, by=by, kind=EventKind.CASE, player=case.player, number=case.through_move,
                   note=record_text("case_dismissed", kind=case.kind_name, case=case.pk, reason=reason))
    return case
