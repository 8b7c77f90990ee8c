"""Fischer clock (FIDE 6.2 "increment", SchemingMind, ICCF 30 + 3, OGS "capped Fischer").

The clock starts at ``initial``; a move's days come off it; after each
completed move ``increment`` is added and the clock is capped at ``max``
(when given). The flag falls when a move's days exceed the clock. The
increment is added after the move, so a move cannot use its own increment
(seed 002, 6.2: "un laps de temps supplémentaire après chaque coup"; lichess
the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..verdicts import ControlWindow, Overstep
from ..units import Unit
from .base import MoveTimes, SystemState, flag, only_keys, replay


@dataclass(frozen=True, slots=True)
class Fischer:
    initial: int
    increment: int
    max: int | None = None
    name: str = "fischer"
    by_move: bool = True
    unit: Unit = Unit.DAYS

    @classmethod
    def parse(cls, data: dict, path: str, unit: Unit = Unit.DAYS) -> "Fischer":
        only_keys(data, {"system", "initial", "increment", "max", "double_after", "max_per_move"}, path)
        return cls(unit.read(data, "initial", path, minimum=1), unit.read(data, "increment", path),
                   unit.read(data, "max", path, minimum=1, required=False), unit=unit)

    def as_json(self) -> dict[str, Any]:
        w = self.unit.write
        return {"system": self.name, "initial": w(self.initial), "increment": w(self.increment), "max": w(self.max)}

    def begin(self, at_zero: int) -> "FischerCarry":
        return FischerCarry(0, at_zero, None, self.initial)

    def fold(self, carry: "FischerCarry", days: int, extra: int) -> "FischerCarry":
        number = carry.made + 1
        clock = carry.clock
        over = carry.overstepped
        if over is None and days + carry.at_zero > clock:
            over = flag(number, number, clock)
        clock = clock - days + self.increment
        if self.max is not None:
            clock = min(clock, self.max)
        return FischerCarry(number, carry.at_zero, over, clock)

    def view(self, carry: "FischerCarry", current: int, extra: int, later: tuple[int, ...]) -> SystemState:
        number = carry.made + 1
        clock = carry.clock
        overstepped = carry.overstepped
        left = clock - current
        if overstepped is None and left < carry.at_zero:
            overstepped = flag(number, number, clock)
        window = ControlWindow(number=number, through_move=number, allowed_days=clock, remaining_days=left)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"clock_days": left, "increment_days": self.increment, "max_days": self.max})

    def state(self, moves: MoveTimes) -> SystemState:
        return replay(self, moves)


@dataclass(frozen=True, slots=True)
class FischerCarry:
    """After ``made`` moves: the clock the next move starts with (its increments added), the first flag."""

    made: int
    at_zero: int
    overstepped: Overstep | None
    clock: int
