"""Controls: folding a player's per-move charges into remaining days, deadline and overstep.

The second layer of the calculator. A control sees only :class:`PlayerCharges`
(days charged to each move number, the number the next time goes to, and the
pending move), never the events, so every system of time control sits beside
the others behind :class:`TimeControl`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Protocol

from .charging import PlayerCharges

if TYPE_CHECKING:
    from .systems import TimeControl


@dataclass(frozen=True, slots=True)
class ControlWindow:
    """The current control: its number, the move it ends at, its allowed and remaining days."""

    number: int
    through_move: int
    allowed_days: int
    remaining_days: int

    def as_json(self) -> dict:
        return {"number": self.number, "through_move": self.through_move,
                "allowed_days": self.allowed_days, "remaining_days": self.remaining_days}


@dataclass(frozen=True, slots=True)
class Overstep:
    """The first control whose allowed days were exceeded, and by how much."""

    control: int
    through_move: int
    allowed_days: int
    used_days: int
    reason: str | None = None
    """None for a control or clock exceeded; ``max_per_move`` for a single move over the limit."""

    def as_json(self) -> dict:
        out = {"control": self.control, "through_move": self.through_move,
               "allowed_days": self.allowed_days, "used_days": self.used_days}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class ControlState:
    """What a control makes of a player's charges."""

    window: ControlWindow
    overstepped: Overstep | None
    deadline: date | None
    """Last date the pending move may be sent without exceeding the control; None without one."""
    clock: dict | None = None
    """The system's own state (``time_control`` systems only)."""


class TimeControl(Protocol):
    """A time-control system: a pure fold of one player's charges."""

    def fold(self, charges: PlayerCharges) -> ControlState:  # pragma: no cover - protocol
        ...


@dataclass(frozen=True, slots=True)
class CumulativeMovesControl:
    """50.4.3: ``days_per_control`` days for every ``moves_per_control`` moves, with accumulation.

    The days charged to moves 1..k·N must not exceed k·D for any k. The current
    control is the one holding the move the next time is charged to (q):
    c = ceil(q / N). Remaining days are c·D minus everything charged through
    move c·N, running days of a pending move included.
    """

    moves_per_control: int
    days_per_control: int

    def fold(self, charges: PlayerCharges) -> ControlState:
        n, d = self.moves_per_control, self.days_per_control
        q = charges.next_charge_number
        current = (q + n - 1) // n
        per_move = charges.charges
        overstepped = None
        cumulative = 0
        # Walk control by control: prefix sums at every k·N boundary, k <= c.
        for k in range(1, current + 1):
            cumulative += sum(per_move[(k - 1) * n:k * n])
            if overstepped is None and cumulative > k * d:
                overstepped = Overstep(control=k, through_move=k * n, allowed_days=k * d, used_days=cumulative)
        allowed = current * d
        remaining = allowed - cumulative
        window = ControlWindow(number=current, through_move=current * n, allowed_days=allowed,
                               remaining_days=remaining)
        deadline = None
        pending = charges.pending
        if pending is not None:
            # The running days are already in `cumulative`; the move may run for
            # what is left plus what it has used so far, counted from its first day.
            deadline = pending.counted_from + timedelta(days=remaining + pending.running_days)
        return ControlState(window=window, overstepped=overstepped, deadline=deadline)


def affordable_days(running: int, left: int, double_after: int | None) -> int:
    """How many more days a move that has run ``running`` days can run on ``left`` charged days.

    Without double time that is ``left``. With it, days up to ``double_after``
    cost one and every later day two (ICCF). Negative ``left`` (the flag has
    fallen) is returned as it is: the deadline lies in the past.
    """
    if left < 0 or double_after is None:
        return left
    single = max(0, double_after - running)
    if left <= single:
        return left
    return single + (left - single) // 2


@dataclass(frozen=True, slots=True)
class SystemControl:
    """A ``time_control`` system (see :mod:`corr.clock.systems`) with its options, as a control."""

    time_control: "TimeControl"

    def fold(self, charges: PlayerCharges) -> ControlState:
        from .systems import MoveTimes

        q = charges.next_charge_number
        per_move = charges.charges
        completed = tuple(per_move[:q - 1]) + (0,) * max(0, q - 1 - len(per_move))
        current = per_move[q - 1] if q <= len(per_move) else 0
        state = self.time_control.system.state(MoveTimes(completed=completed, current=current, number=q,
                                                         later=tuple(per_move[q:])))
        overstepped = state.overstepped
        limit = self.time_control.max_per_move
        if limit is not None:
            # ICCF silence / FICGS: one move longer than the limit oversteps, whatever the clock says.
            for number, raw, _event in charges.move_days:
                if raw > limit:
                    long_move = Overstep(control=number, through_move=number, allowed_days=limit, used_days=raw,
                                         reason="max_per_move")
                    if overstepped is None or long_move.through_move < overstepped.through_move:
                        overstepped = long_move
                    break
        deadline = None
        pending = charges.pending
        if pending is not None:
            more = affordable_days(pending.running_days, state.current_left, charges.double_after)
            last_day = pending.running_days + more
            if limit is not None:
                last_day = min(last_day, limit)
            deadline = pending.counted_from + timedelta(days=last_day)
        clock = {"system": self.time_control.system.name, **state.clock}
        return ControlState(window=state.window, overstepped=overstepped, deadline=deadline, clock=clock)
