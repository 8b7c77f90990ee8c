"""Days per move (lichess and chess.com correspondence): every move within ``time``; nothing accumulates.

Penalty days (50.4.9, 50.4.10) charged to a move count in that move's days, so a penalty above the
days per move oversteps at once (see docs/time_controls.md, "Choices").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..verdicts import ControlWindow, Overstep
from ..units import Unit
from .base import MoveTimes, SystemState, flag, only_keys, replay


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

    def begin(self, at_zero: int) -> "PerMoveCarry":
        return PerMoveCarry(0, at_zero, None)

    def fold(self, carry: "PerMoveCarry", days: int, extra: int) -> "PerMoveCarry":
        number = carry.made + 1
        over = carry.overstepped
        if over is None and days + carry.at_zero > self.time:
            over = flag(number, number, self.time)
        return PerMoveCarry(number, carry.at_zero, over)

    def view(self, carry: "PerMoveCarry", current: int, extra: int, later: tuple[int, ...]) -> SystemState:
        number = carry.made + 1
        overstepped = carry.overstepped
        left = self.time - current
        if overstepped is None and left < carry.at_zero:
            overstepped = flag(number, number, self.time)
        window = ControlWindow(number=number, through_move=number, allowed_days=self.time, remaining_days=left)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"move_days_left": left, "days_per_move": self.time})

    def state(self, moves: MoveTimes) -> SystemState:
        return replay(self, moves)


@dataclass(frozen=True, slots=True)
class PerMoveCarry:
    """After ``made`` moves: the first move over its days, if any."""

    made: int
    at_zero: int
    overstepped: Overstep | None
