"""Arbiters' events: penalties, delays, late start notices, corrections, withdrawals, results."""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock import DelayReason, PenaltyReason, player_start
from corr.models import (
    CaseKind, Colour, EventKind, Game, GameEvent, GameResult, GameStatus, OverstepCase, OverstepStatus,
)

from ..cases import history_append
from ..notices import Change, notice_on_commit
from ..records import record_text
from ..clockstate import GameTime, game_time
from ..errors import InvalidInput, NotAllowed, TurnConflict, colour_word
from ..permissions import can_arbitrate
from .credits import credit_of_reopening
from .participants import correction_of, row_in_force
from .storage import (
    ensure_not_after_today, ensure_ongoing, event_new, events_store, game_lock, game_recompute, reason_checked,
)


def ensure_arbiter(game: Game, by: User) -> None:
    """``by`` may rule on ``game``: an arbiter of its tournament who does not play in it.

    Nobody judges their own game, superusers included: a player of the game
    needs another arbiter of the tournament or another superuser.
    """
    if not can_arbitrate(by, game.tournament):
        raise NotAllowed(_("only the arbiters of this game's tournament may do this"))
    if game.colour_of(by) is not None:
        raise NotAllowed(_("you play in this game: another arbiter of the tournament or another superuser must rule"
                           " on it (nobody arbitrates their own game)"))


def colour_checked(value: str) -> str:
    if value not in Colour.values:
        raise InvalidInput(_("player must be white or black, got %(value)s"), field="player", value=repr(value))
    return value


@transaction.atomic
def penalty_assess(*, game: Game, by: User, player: str, reason: str, move: int | None = None, note: str = "",
                   today: date) -> GameTime:
    """Assess a penalty (50.4.9); its days (5, then 10: 50.4.10) follow from the rules, never typed.

    ``move``: the move the days are charged to (default: the player's next move); ``note``: the
    arbiter's words for the history.
    """
    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    ensure_ongoing(game)  # a finished game is reopened first (game_reopen), which is recorded
    colour = colour_checked(player)
    reason_checked(PenaltyReason, reason)
    if move is None:
        move = game_time(game, rows, today).assembled.made[colour] + 1
    new = event_new(by, EventKind.PENALTY, colour, number=move, reason=reason, note=note)
    return events_store(game, rows, [new], today)


@transaction.atomic
def delay_assess(*, game: Game, by: User, player: str, days: int, move: int | None = None,
                 reason: str = DelayReason.LATE_REPEAT.value, note: str = "", today: date) -> GameTime:
    """Add the whole delay of a late repeat, in days the arbiter determined (50.4.11)."""
    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    ensure_ongoing(game)  # a finished game is reopened first (game_reopen), which is recorded
    colour = colour_checked(player)
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise InvalidInput(_("days must be a whole number >= 0, got %(value)s"), field="days", value=repr(days))
    reason_checked(DelayReason, reason)
    if move is None:
        move = game_time(game, rows, today).assembled.made[colour] + 1
    new = event_new(by, EventKind.DELAY, colour, number=move, days=days, reason=reason, note=note)
    return events_store(game, rows, [new], today)


@transaction.atomic
def start_notice_record(*, game: Game, by: User, player: str, received_on: date, today: date) -> GameTime:
    """Record that a player received the notice of the start late (50.4.6): they start 3 days after it."""
    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    ensure_ongoing(game)  # a finished game is reopened first (game_reopen), which is recorded
    ensure_not_after_today(received_on, "received_on", today, game)
    ensure_late_notice(game, received_on)
    new = event_new(by, EventKind.START_NOTICE, colour_checked(player), received_on=received_on)
    return events_store(game, rows, [new], today)


def ensure_late_notice(game: Game, received_on: date) -> None:
    """A start notice is recorded only if it came late, i.e. moves the player's start (50.4.6).

    One received early enough leaves the official start in force and records nothing the
    rules use, and a date before it (year 1) is no late notice at all.
    """
    t = game.tournament
    if player_start(t.official_start, received_on, t.ruleset.late_notice_start_days) == t.official_start:
        latest = t.official_start - timedelta(days=t.ruleset.late_notice_start_days)
        raise InvalidInput(
            _("received_on %(received)s is not late: the player starts on the official start %(start)s all the same"
              " (50.4.6 moves the start only for a notice received after %(latest)s)"),
            field="received_on", received=received_on, start=t.official_start, latest=latest)


CORRECTABLE = ("received_on", "sent_on", "days", "reason", "notation", "mail", "number")
# The fields each kind of event has: anything else would be a change the rules never see.
CORRECTABLE_BY_KIND = {
    EventKind.MOVE: ("received_on", "sent_on", "notation", "mail", "number"),
    EventKind.NOTICE: ("received_on", "sent_on", "reason", "number"),
    EventKind.PENALTY: ("reason", "number"),
    EventKind.DELAY: ("days", "reason", "number"),
    EventKind.RECEIPT: ("received_on",),
    EventKind.START_NOTICE: ("received_on",),
    EventKind.CREDIT: ("number",),
}


@transaction.atomic
def event_correct(*, game: Game, by: User, seq: int, changes: dict, note: str, today: date) -> GameTime:
    """Replace an event by a corrected copy (arbiters); the original stays in the history."""
    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    ensure_ongoing(game)  # a finished game is reopened first (game_reopen), which is recorded
    if not note.strip():
        raise InvalidInput(_("note is required: say why the event is corrected"), field="note")
    for key in changes:
        if key not in CORRECTABLE:
            raise InvalidInput(_("%(name)s cannot be corrected (correctable: %(allowed)s)"), field=key, name=key,
                               allowed=", ".join(CORRECTABLE))
    target = row_in_force(rows, seq)
    changes_checked(game, target, changes)
    return events_store(game, rows, [correction_of(target, by, note=note, **changes)], today)


def changes_checked(game: Game, target: GameEvent, changes: dict) -> None:
    """Refuse a correction that changes nothing or a field its event does not have (400).

    Dates are checked by the calculator with the corrected event in its place; a start
    notice, which the calculator takes as it comes, must still be late (50.4.6).
    """
    allowed = CORRECTABLE_BY_KIND.get(target.kind, ())
    for key in changes:
        if key not in allowed:
            raise InvalidInput(_("a %(kind)s has no %(name)s to correct (correctable: %(allowed)s)"),
                               field=key, kind=target.kind, name=key, allowed=", ".join(allowed))
    if all(getattr(target, key) == value for key, value in changes.items()):
        raise InvalidInput(_("the correction changes nothing: the event in force already has these values"),
                           field="event")
    if target.kind == EventKind.START_NOTICE:
        ensure_late_notice(game, changes["received_on"])


@transaction.atomic
def event_withdraw(*, game: Game, by: User, seq: int, note: str, today: date) -> GameTime:
    """Withdraw an event (arbiters), e.g. a penalty dismissed on appeal; the history keeps it."""
    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    ensure_ongoing(game)  # a finished game is reopened first (game_reopen), which is recorded
    if not note.strip():
        raise InvalidInput(_("note is required: say why the event is withdrawn"), field="note")
    target = row_in_force(rows, seq)
    withdrawal = GameEvent(kind=EventKind.WITHDRAWAL, player=target.player, supersedes_id=target.id, entered_by=by,
                           note=note)
    return events_store(game, rows, [withdrawal], today)


@transaction.atomic
def game_finish(*, game: Game, by: User, result: str, termination: str, today: date) -> Game:
    """End a game with a result (arbiters): resignation, agreement, adjudication or time forfeit."""
    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    ensure_ongoing(game)
    if result not in (GameResult.WHITE_WON, GameResult.BLACK_WON, GameResult.DRAW):
        raise InvalidInput(_("result must be 1-0, 0-1 or 1/2-1/2"), field="result")
    game.status, game.result, game.termination = GameStatus.FINISHED, result, termination
    game.save(update_fields=["status", "result", "termination"])
    history_append(game=game, by=by, kind=EventKind.RESULT,
                   note=record_text("result_ended", result=result, termination=termination) if termination
                   else record_text("result", result=result))
    game_recompute(game, by=by, today=today, cause=record_text("cause_result", result=result))
    notice_on_commit(Change.RESULT, game_id=game.pk, version=game.events_version)
    return game


OVERSTEP_CHOICES = ("credit", "keep")
"""What a reopening does with a player's overstep (issue 39): give back the time that puts them back in the
control (``corr.games.services.credits.overstep_credit``), or keep it (the case waits for the arbiter)."""


@transaction.atomic
def game_reopen(*, game: Game, by: User, note: str, today: date, overstep: str | None = None) -> Game:
    """Set a finished game back to ongoing (arbiters), e.g. a result recorded by mistake; the history keeps why.

    A game whose player is over the control once ongoing (a game lost on time) asks ``overstep``: ``credit``
    stores the credit that puts the player back in the control, ``keep`` leaves the overstep. Either way the
    game's confirmed overstep cases are reopened (``open`` again, a history line each): an ongoing game
    has no confirmed loss on time. After a credit the reopened case is withdrawn by the clock, as any case
    whose facts are gone; withdrawing the credit from the history brings the overstep back, and a new case.
    :raises InvalidInput: no note; ``overstep`` missing where a player is over the control, or not one of
    ``OVERSTEP_CHOICES``. :raises TurnConflict: the game is ongoing; ``credit`` with no overstep to credit.
    """
    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    if game.status == GameStatus.ONGOING:
        raise TurnConflict(_("the game is not finished: nothing to reopen"), field="game")
    if not note.strip():
        raise InvalidInput(_("note is required: say why the game is reopened"), field="note")
    if overstep is not None and overstep not in OVERSTEP_CHOICES:
        raise InvalidInput(_("overstep must be credit or keep, got %(value)s"), field="overstep", value=repr(overstep))
    was = game.result or game.status
    game.status, game.result, game.termination = GameStatus.ONGOING, GameResult.NONE, ""
    game.save(update_fields=["status", "result", "termination"])
    over = [colour for colour, account in game_time(game, rows, today).clock.accounts.items()
            if account.overstepped is not None]
    if over and overstep is None:
        raise InvalidInput(_("%(player)s is over the control: say what to do with the overstep (overstep: credit,"
                             " to give back the time that puts %(player)s back in the control, or keep)"),
                           field="overstep", player=colour_word(over[0]))
    line = (record_text("reopened_kept", was=was, player=over[0], note=note) if over and overstep == "keep"
            else record_text("reopened", was=was, note=note))
    history_append(game=game, by=by, kind=EventKind.REOPEN, note=line)
    cases_reopen(game=game, by=by)
    if overstep == "credit":
        credit_of_reopening(game=game, by=by, note=note, today=today)
    else:
        game_recompute(game, by=by, today=today, cause=record_text("cause_reopened"))
    notice_on_commit(Change.REOPEN, game_id=game.pk, version=game.events_version)
    return game


def cases_reopen(*, game: Game, by: User) -> None:
    """Set the game's confirmed overstep cases back to open, each with a history line (the game is ongoing again:
    a confirmed overstep would contradict it). The clock then keeps, refreshes or withdraws them."""
    for case in OverstepCase.objects.filter(game=game, kind=CaseKind.OVERSTEP, status=OverstepStatus.CONFIRMED):
        case.status, case.decided_by, case.decided_at, case.decision_reason = OverstepStatus.OPEN, None, None, ""
        case.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
        history_append(game=game, by=by, kind=EventKind.CASE, player=case.player,
                       note=record_text("case_reopened", kind="overstep", case=case.pk))
