"""Japanese byo-yomi (Go rules, seed 003, 12.2 type 1; DGS and OGS "Japanese").

Main time first; then each move must be made within one period of
``period_time``. A move made within a period keeps it; a move that overruns
a period uses it up and goes on in the next; the flag falls when the last
period is overrun. Saved time is not carried over.

Where the texts are silent: a move that starts in main time and runs past
it goes on into the periods with the days over main time (as DGS and OGS
count it); a move ending exactly at the end of a period keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..control import ControlWindow, Overstep
from .base import MoveTimes, SystemState, only_keys, whole


@dataclass(frozen=True, slots=True)
class Byoyomi:
    main: int
    periods: int
    period_time: int
    name: str = "byoyomi"

    @classmethod
    def parse(cls, data: dict, path: str) -> "Byoyomi":
        only_keys(data, {"system", "main", "periods", "period_time", "double_after", "max_per_move"}, path)
        return cls(whole(data, "main", path), whole(data, "periods", path, minimum=1),
                   whole(data, "period_time", path, minimum=1))

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "main": self.main, "periods": self.periods, "period_time": self.period_time}

    def _play(self, main: int, periods: int, days: int) -> tuple[int, int, bool]:
        """(main left, periods left, flag fell) after a move of ``days``."""
        if days <= main:
            return main - days, periods, False
        over = days - main
        if over > periods * self.period_time:
            return 0, 0, True
        # Made in period k = ceil(over / P): the k - 1 before it are used up.
        used_up = (over - 1) // self.period_time
        return 0, periods - used_up, False

    def state(self, moves: MoveTimes) -> SystemState:
        main, periods = self.main, self.periods
        overstepped = None
        for number, days in enumerate(moves.completed, start=1):
            budget = main + periods * self.period_time
            main, periods, fell = self._play(main, periods, days)
            if fell and overstepped is None:
                overstepped = Overstep(control=number, through_move=number, allowed_days=budget, used_days=days)
                break
        budget = main + periods * self.period_time
        left = budget - moves.current
        if overstepped is None and left < 0:
            overstepped = Overstep(control=moves.number, through_move=moves.number, allowed_days=budget,
                                   used_days=moves.current)
        now_main, now_periods, _ = self._play(main, periods, max(0, moves.current)) if left >= 0 else (0, 0, True)
        window = ControlWindow(number=self.periods - periods, through_move=moves.number, allowed_days=budget,
                               remaining_days=left)
        return SystemState(window=window, overstepped=overstepped, current_left=left,
                           clock={"main_days": now_main, "periods_left": now_periods,
                                  "period_days": self.period_time, "in_byoyomi": main == 0})
