"""Canadian byo-yomi (Go rules, seed 003, 12.2 type 2; DGS and OGS "Canadian").

Main time first; then blocks: ``moves`` moves within ``period_time``. A block
that is completed in time starts a new one afresh; time saved in a block is
not carried over. The flag falls when a block's time runs out before its moves.

Where the texts are silent: the move that uses up main time, exactly or by
running past it, is the first move of the first block, and its days over main
time come off that block (as OGS counts it). Counting the move that ends
exactly at zero keeps the clock monotone: playing any move faster never
leaves less time later (a property test checks it for every system).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..control import ControlWindow, Overstep
from .base import MoveTimes, SystemState, only_keys, whole


@dataclass(frozen=True, slots=True)
class Canadian:
    main: int
    moves: int
    period_time: int
    name: str = "canadian"

    @classmethod
    def parse(cls, data: dict, path: str) -> "Canadian":
        only_keys(data, {"system", "main", "moves", "period_time", "double_after", "max_per_move"}, path)
        return cls(whole(data, "main", path), whole(data, "moves", path, minimum=1),
                   whole(data, "period_time", path, minimum=1))

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "main": self.main, "moves": self.moves, "period_time": self.period_time}

    def state(self, moves: MoveTimes) -> SystemState:
        main, block_days, block_moves = self.main, self.period_time, self.moves
        in_overtime = main == 0
        blocks = 1 if in_overtime else 0
        overstepped = None
        for number, days in enumerate(moves.completed, start=1):
            if not in_overtime:
                if days < main:
                    main -= days
                    continue
                days -= main  # this move uses main time up: it opens the first block
                main, in_overtime, blocks = 0, True, 1
            if days > block_days:
                overstepped = Overstep(control=number, through_move=number, allowed_days=block_days, used_days=days)
                break
            block_days -= days
            block_moves -= 1
            if block_moves == 0:  # block completed in time: a new one, afresh (saved time is lost)
                block_days, block_moves, blocks = self.period_time, self.moves, blocks + 1
        budget = main + block_days if not in_overtime else block_days
        if overstepped is not None:
            # The flag fell on a completed move: the clock stands at the excess below zero and
            # keeps running, so a slower earlier move never shows more time left than a faster one.
            budget = block_days - overstepped.used_days
        left = budget - moves.current
        if overstepped is None and left < 0:
            overstepped = Overstep(control=moves.number, through_move=moves.number, allowed_days=budget,
                                   used_days=moves.current)
        window = ControlWindow(number=blocks, through_move=moves.number + (block_moves - 1 if in_overtime else 0),
                               allowed_days=budget, remaining_days=left)
        return SystemState(window=window, overstepped=overstepped, current_left=left, clock={
            "main_days": max(0, main - moves.current) if not in_overtime else 0, "in_overtime": in_overtime,
            "block": blocks, "block_moves_left": block_moves, "block_days_left": block_days,
            "moves_per_block": self.moves, "period_days": self.period_time})
