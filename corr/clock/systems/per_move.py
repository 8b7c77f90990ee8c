"""Days per move (lichess and chess.com correspondence): every move within ``time``; nothing accumulates.

Penalty days (50.4.9, 50.4.10) charged to a move count in that move's days, so a penalty above the
days per move oversteps at once (see docs/time_controls.md, "Choices").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..verdicts import ControlWindow
from ..units import Unit
from .base import MoveTimes, SystemState, flag, only_keys


@dataclass(frozen=True, slots=True)
class PerMove:
    time: int
    name: str = "per_move"
    by_move: bool = True
    unit: Unit = Unit.DAYS

    @classmethod
    def parse(cls, data: dict, path: str, unit: Unit = Unit.DAYS) -> "PerMove":
        only_keys(data, {"system", "time", "double_after", "max_per_move"}, path)
        return cls(unit.read(data, "time", path, minimum=1), unit=unit)

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "time": self.unit.write(self.time)}

    def state(self, moves: MoveTimes) -> SystemState:
        overstepped = None
        for number, days in enumerate(moves.completed, start=1):
            if days + moves.at_zero > self.time:
                overstepped = flag(number, number, self.time)
                break
        left = self.time - moves.current
        if overstepped is None and left < moves.at_zero:
            overstepped = flag(moves.number, moves.number, self.time)
        window = ControlWindow(number=moves.number, through_move=moves.number, allowed_days=self.time,
                               remaining_days=left)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"move_days_left": left, "days_per_move": self.time})
