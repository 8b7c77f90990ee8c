"""Days per move (lichess and chess.com correspondence): every move within ``time``; nothing accumulates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..control import ControlWindow, Overstep
from .base import MoveTimes, SystemState, only_keys, whole


@dataclass(frozen=True, slots=True)
class PerMove:
    time: int
    name: str = "per_move"

    @classmethod
    def parse(cls, data: dict, path: str) -> "PerMove":
        only_keys(data, {"system", "time", "double_after", "max_per_move"}, path)
        return cls(whole(data, "time", path, minimum=1))

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "time": self.time}

    def state(self, moves: MoveTimes) -> SystemState:
        overstepped = None
        for number, days in enumerate(moves.completed, start=1):
            if days > self.time:
                overstepped = Overstep(control=number, through_move=number, allowed_days=self.time, used_days=days)
                break
        left = self.time - moves.current
        if overstepped is None and left < 0:
            overstepped = Overstep(control=moves.number, through_move=moves.number, allowed_days=self.time,
                                   used_days=moves.current)
        window = ControlWindow(number=moves.number, through_move=moves.number, allowed_days=self.time,
                               remaining_days=left)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"move_days_left": left, "days_per_move": self.time})
