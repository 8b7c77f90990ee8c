"""What a hypothetical event would change on a game's clocks (issue 41): the differences, as values.

A preview (``POST /api/games/{id}/preview/``, ``manage.py clock FILE --with EVENTS.json``) computes the
game twice, as it is and as it would be; this module compares the two computations, player by player,
and says what changed as ``ClockChange`` values. Their words are ``corr.web.whatif_text.change_text``'s,
written once for the API and the command alike. Nothing here reads or writes the database.

Compared, per player (``Standing``): the time left (``corr.games.timeleft``, the one answer), the
deadline (a date under ``dates``, the flag's instant under an instant count), time trouble (50.4.12)
and an overstep of the control (50.4.3: the case the clock opens or withdraws). A case the database
keeps beside the clock (a registered-mail case, 50.4.12) is compared by ``case_changes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from .timeleft import TimeLeft, TimeLeftWhy, account_time_left


class ChangeKind(StrEnum):
    """What changed for one player (``ClockChange.kind``)."""

    TIME_LEFT = "time_left"
    """The time left before the flag (``before``, ``after``: ``TimeLeft``)."""
    DEADLINE = "deadline"
    """The deadline of the pending move (a date, or an aware instant; None: no move pending)."""
    TIME_TROUBLE = "time_trouble"
    """The player comes into time trouble (50.4.12): ``after`` the days left, ``move`` their next move."""
    TIME_TROUBLE_ENDS = "time_trouble_ends"
    """The player is out of time trouble again."""
    DOUBLE = "double"
    """The pending move's days beyond ``TimeLeft.double_after`` count double (ICCF's double time)."""
    OVERSTEP = "overstep"
    """The player would be over the control (``after``: ``Overstep``): an overstep case opens (50.4.3)."""
    OVERSTEP_ENDS = "overstep_ends"
    """The overstep of the control ``before`` is gone: its case is withdrawn."""
    CASE_OPENS = "case_opens"
    """A case the database keeps would open (``after``: its kind, ``move`` the move it is about)."""
    CASE_CLOSES = "case_closes"
    """A case the database keeps would be withdrawn (``before``: its kind, ``move``)."""


@dataclass(frozen=True, slots=True)
class Overstep:
    """An overstep of control ``control``: ``used`` of ``allowed`` days."""

    control: int
    used: int
    allowed: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's clock as a reader sees it: the values a preview compares."""

    left: TimeLeft
    deadline: date | datetime | None
    time_trouble: bool
    control: int
    next_move: int
    overstep: Overstep | None


@dataclass(frozen=True, slots=True)
class ClockChange:
    """One difference between now and the preview, for ``player`` (a colour, or the game file's player id)."""

    kind: ChangeKind
    player: str
    before: object = None
    after: object = None
    move: int | None = None


def standings(accounts: dict, *, instants: bool, time_control=None) -> dict[str, Standing]:
    """Each account's ``Standing`` (the calculator's ``accounts``: ``GameClock.accounts``), by player.

    ``instants``: the count measures parts of a day (the deadline is then the flag's instant);
    ``time_control``: the ruleset's, for why the time left differs from the control's days.
    """
    out = {}
    for player, account in accounts.items():
        over = account.overstepped
        out[player] = Standing(
            left=account_time_left(account, instants=instants, time_control=time_control),
            deadline=account.flag_at if instants else account.deadline,
            time_trouble=account.time_trouble, control=account.control.number, next_move=account.made + 1,
            overstep=None if over is None else Overstep(over.control, over.used_days, over.allowed_days))
    return out


def clock_changes(before: dict[str, Standing], after: dict[str, Standing]) -> list[ClockChange]:
    """The differences from ``before`` to ``after`` (``standings`` of the two computations), player by player.

    In the order the reader needs them: the overstep first, then time trouble, the time left, the deadline.
    The time left is compared by its worded parts (days, hours and minutes; the control's days): seconds
    that pass between two computations are no change.
    """
    changes: list[ClockChange] = []
    for player, now in before.items():
        then = after.get(player)
        if then is None:
            continue
        if then.overstep is not None and then.overstep != now.overstep:
            changes.append(ClockChange(ChangeKind.OVERSTEP, player, now.overstep, then.overstep))
        elif now.overstep is not None and then.overstep is None:
            changes.append(ClockChange(ChangeKind.OVERSTEP_ENDS, player, now.overstep, None))
        if then.time_trouble and not now.time_trouble and then.overstep is None:
            changes.append(ClockChange(ChangeKind.TIME_TROUBLE, player, now.left, then.left, move=then.next_move))
        elif now.time_trouble and not then.time_trouble and then.overstep is None:
            changes.append(ClockChange(ChangeKind.TIME_TROUBLE_ENDS, player, now.left, then.left))
        if _shown(now.left) != _shown(then.left):
            changes.append(ClockChange(ChangeKind.TIME_LEFT, player, now.left, then.left))
        if then.left.why == TimeLeftWhy.DOUBLE and now.left.why != TimeLeftWhy.DOUBLE:
            changes.append(ClockChange(ChangeKind.DOUBLE, player, now.left, then.left))
        if now.deadline != then.deadline:
            changes.append(ClockChange(ChangeKind.DEADLINE, player, now.deadline, then.deadline))
    return changes


def _shown(left: TimeLeft) -> tuple:
    return left.days, left.hours, left.minutes, left.control_days, left.instants and left.seconds <= 0


def case_changes(before: dict, after: dict) -> list[ClockChange]:
    """The cases the database keeps beside the clock that would open or close: ``before`` and ``after`` map a
    case's key (its id, or a new case's ``(kind, player, move)``) to ``(kind, player, move)``."""
    opened = [ClockChange(ChangeKind.CASE_OPENS, player, None, kind, move=move)
              for key, (kind, player, move) in after.items() if key not in before]
    closed = [ClockChange(ChangeKind.CASE_CLOSES, player, kind, None, move=move)
              for key, (kind, player, move) in before.items() if key not in after]
    return opened + closed
