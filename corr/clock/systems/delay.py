"""Delay, FIDE "temps différé" (seed 002, 6.1 and 6.3): the first ``delay`` days of each move are free.

Only ``max(0, t - delay)`` comes off the main time; unused delay is lost
("le temps différé non utilisé n'est pas reporté"). The flag falls when the
main time goes below zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..control import ControlWindow, Overstep
from .base import MoveTimes, SystemState, only_keys, whole


@dataclass(frozen=True, slots=True)
class Delay:
    main: int
    delay: int
    name: str = "delay"

    @classmethod
    def parse(cls, data: dict, path: str) -> "Delay":
        only_keys(data, {"system", "main", "delay", "double_after", "max_per_move"}, path)
        return cls(whole(data, "main", path, minimum=1), whole(data, "delay", path))

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "main": self.main, "delay": self.delay}

    def state(self, moves: MoveTimes) -> SystemState:
        main = self.main
        overstepped = None
        for number, days in enumerate(moves.completed, start=1):
            main -= max(0, days - self.delay)
            if overstepped is None and main < 0:
                overstepped = Overstep(control=number, through_move=number, allowed_days=self.main,
                                       used_days=self.main - main)
        main_before = main
        main -= max(0, moves.current - self.delay)
        if overstepped is None and main < 0:
            overstepped = Overstep(control=moves.number, through_move=moves.number, allowed_days=self.main,
                                   used_days=self.main - main)
        left = main_before + self.delay - moves.current  # this move may also use what is left of its delay
        window = ControlWindow(number=1, through_move=moves.number, allowed_days=self.main, remaining_days=main)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"main_days": main, "delay_days": self.delay,
                                  "delay_left_days": max(0, self.delay - moves.current)})
