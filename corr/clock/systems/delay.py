"""Delay, FIDE "temps différé" (seed 002, 6.2): the first ``delay`` days of each move are free.

6.2: "Le décompte du temps principal commence seulement après l'expiration du temps
supplémentaire. À condition que le joueur arrête sa pendule avant l'expiration du temps
supplémentaire, le temps de réflexion principal ne varie pas, sans tenir compte de la proportion
de temps supplémentaire utilisé." So only ``max(0, t - delay)`` comes off the main time and what a
move leaves of its delay is lost. The flag falls when a move's days exceed the main time left plus
its delay. The whole control is control 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..verdicts import ControlWindow, Overstep
from ..units import Unit
from .base import MoveTimes, SystemState, after_delay, flag, only_keys, replay


@dataclass(frozen=True, slots=True)
class Delay:
    main: int
    delay: int
    name: str = "delay"
    by_move: bool = True
    unit: Unit = Unit.DAYS

    @classmethod
    def parse(cls, data: dict, path: str, unit: Unit = Unit.DAYS) -> "Delay":
        only_keys(data, {"system", "main", "delay", "double_after", "max_per_move"}, path)
        return cls(unit.read(data, "main", path, minimum=1), unit.read(data, "delay", path), unit=unit)

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "main": self.unit.write(self.main), "delay": self.unit.write(self.delay)}

    def begin(self, at_zero: int) -> "DelayCarry":
        return DelayCarry(0, at_zero, None, self.main)

    def fold(self, carry: "DelayCarry", days: int, extra: int) -> "DelayCarry":
        number = carry.made + 1
        over = carry.overstepped
        if over is None and days + carry.at_zero > carry.main + self.delay:
            over = flag(1, number, carry.main + self.delay)
        return DelayCarry(number, carry.at_zero, over, carry.main - after_delay(days, self.delay, extra))

    def view(self, carry: "DelayCarry", current: int, extra: int, later: tuple[int, ...]) -> SystemState:
        number = carry.made + 1
        overstepped = carry.overstepped
        main_before = carry.main
        main = main_before - after_delay(current, self.delay, extra)
        left = main_before + self.delay - current  # this move may also use what is left of its delay
        if overstepped is None and left < carry.at_zero:
            overstepped = flag(1, number, main_before + self.delay)
        window = ControlWindow(number=1, through_move=number, allowed_days=self.main, remaining_days=main)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"main_days": main, "delay_days": self.delay,
                                  "delay_left_days": max(0, self.delay - (current - extra))})

    def state(self, moves: MoveTimes) -> SystemState:
        return replay(self, moves)


@dataclass(frozen=True, slots=True)
class DelayCarry:
    """After ``made`` moves: the main time left, the first flag."""

    made: int
    at_zero: int
    overstepped: Overstep | None
    main: int
