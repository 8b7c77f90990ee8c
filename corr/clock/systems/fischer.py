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

from ..verdicts import ControlWindow
from ..units import Unit
from .base import MoveTimes, SystemState, flag, only_keys


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

    def state(self, moves: MoveTimes) -> SystemState:
        clock = self.initial
        overstepped = None
        for number, days in enumerate(moves.completed, start=1):
            if overstepped is None and days + moves.at_zero > clock:
                overstepped = flag(number, number, clock)
            clock = clock - days + self.increment
            if self.max is not None:
                clock = min(clock, self.max)
        left = clock - moves.current
        if overstepped is None and left < moves.at_zero:
            overstepped = flag(moves.number, moves.number, clock)
        window = ControlWindow(number=moves.number, through_move=moves.number, allowed_days=clock,
                               remaining_days=left)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"clock_days": left, "increment_days": self.increment, "max_days": self.max})
