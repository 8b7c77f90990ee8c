"""What a control makes of a player's charges: the current window, where the flag fell, the deadline.

The bottom of the calculator's values, below the systems that build them and the controls that
fold into them (:mod:`corr.clock.systems`, :mod:`corr.clock.control`): it imports nothing of the
calculator, so that the modules above it lie in one direction (units and rules at the bottom,
then events, the systems, charging, the account on top).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from .counts import rfc3339


@dataclass(init=False, unsafe_hash=True, slots=True)
class ControlWindow:
    """The current control: its number, the move it ends at, its allowed and remaining days."""

    number: int
    through_move: int
    allowed_days: int
    remaining_days: int

    def __init__(self, number: int, through_move: int, allowed_days: int, remaining_days: int) -> None:
        # Written out rather than generated: a dataclass's generated __init__ runs as interpreted code
        # even in the compiled build, at ~150 ns a field (issue 13).
        self.number = number
        self.through_move = through_move
        self.allowed_days = allowed_days
        self.remaining_days = remaining_days

    def as_json(self) -> dict:
        return {"number": self.number, "through_move": self.through_move,
                "allowed_days": self.allowed_days, "remaining_days": self.remaining_days}


@dataclass(init=False, unsafe_hash=True, slots=True)
class Overstep:
    """Where the flag fell first: the control, the move, the days allowed and used.

    A control of N moves (50.4.3 and plain ``periods`` stages) is exceeded as a whole: ``through_move``
    is its last move and ``used_days`` every day charged through it. Everywhere else (a clock, a
    byo-yomi period, the rest of the game) ``through_move`` is the move during which the time ran
    out, ``allowed_days`` what it had, and ``used_days`` ``allowed_days + 1``: the first day over,
    which later moves and later dates do not change.
    """

    control: int
    through_move: int
    allowed_days: int
    used_days: int
    reason: str | None = None
    """None for a control or clock exceeded; ``max_per_move`` for a single move over the limit."""
    at: datetime | None = None
    """The instant the flag fell (under ``dates``, 00:00 of the first day over); set by the account."""

    def __init__(
        self,
        control: int,
        through_move: int,
        allowed_days: int,
        used_days: int,
        reason: str | None = None,
        at: datetime | None = None,
    ) -> None:
        self.control = control
        self.through_move = through_move
        self.allowed_days = allowed_days
        self.used_days = used_days
        self.reason = reason
        self.at = at

    def as_json(self) -> dict:
        out: dict[str, int | str | None] = {"control": self.control, "through_move": self.through_move,
               "allowed_days": self.allowed_days, "used_days": self.used_days}
        if self.reason is not None:
            out["reason"] = self.reason
        out["at"] = rfc3339(self.at)
        return out

    def fallen_at(self, at: datetime | None) -> "Overstep":
        """This overstep with the instant the flag fell."""
        return Overstep(self.control, self.through_move, self.allowed_days, self.used_days, self.reason, at)


@dataclass(init=False, unsafe_hash=True, slots=True)
class ControlState:
    """What a control makes of a player's charges."""

    window: ControlWindow
    overstepped: Overstep | None
    deadline: date | None
    """Last date the pending move may be sent without exceeding the control; None without one."""
    clock: dict | None = None
    """The system's own state (``time_control`` systems only)."""
    flag_at: datetime | None = None
    """Under the instant counts, the instant the pending move is over its time (the account derives it
    from ``deadline`` under ``dates``); None without a pending move or a deadline."""
    next_move_seconds: int = 0
    """Seconds the player's next move may take before its flag falls (0 when none): the time left of a
    player not on move."""
    rival: Overstep | None = None
    """Where both a clock and the per-move limit fell, the one not chosen by move number: the account
    keeps whichever fell first in time."""

    def __init__(
        self,
        window: ControlWindow,
        overstepped: Overstep | None,
        deadline: date | None,
        clock: dict | None = None,
        flag_at: datetime | None = None,
        next_move_seconds: int = 0,
        rival: Overstep | None = None,
    ) -> None:
        self.window = window
        self.overstepped = overstepped
        self.deadline = deadline
        self.clock = clock
        self.flag_at = flag_at
        self.next_move_seconds = next_move_seconds
        self.rival = rival
