"""Controls: folding a player's per-move charges into remaining days, deadline and overstep.

The second layer of the calculator. A control sees only :class:`PlayerCharges`
(days charged to each move number, the number the next time goes to, and the
pending move), never the events, so every system of time control sits beside
the others behind :class:`TimeControl`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol

from .charging import PlayerCharges


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

    def as_json(self) -> dict:
        return {"control": self.control, "through_move": self.through_move,
                "allowed_days": self.allowed_days, "used_days": self.used_days}


@dataclass(frozen=True, slots=True)
class ControlState:
    """What a control makes of a player's charges."""

    window: ControlWindow
    overstepped: Overstep | None
    deadline: date | None
    """Last date the pending move may be sent without exceeding the control; None without one."""


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
