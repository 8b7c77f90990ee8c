"""Canadian byo-yomi (Go rules, seed 003, 12.2 type 2; DGS and OGS "Canadian").

Main time first; then blocks: ``moves`` moves within ``period_time``. A block
that is completed in time starts a new one afresh; time saved in a block is
not carried over. The flag falls when a block's time runs out before its moves.

``main`` is whole days or move-count stages, as for Japanese byo-yomi
(:mod:`.byoyomi`). Controls are numbered from 1: the main time is control 1
(stages 1..S), block k is control S + k; the ``block`` of the clock is k (0 in
main time).

Where the texts are silent: the move that uses up main time, exactly or by
running past it, is the first move of the first block, and its days over main
time come off that block (as OGS counts it). Once the flag has fallen the
block is not renewed: its days stay below zero and every later day comes off
them.

The one system where playing an *earlier* move faster can leave less time:
where main time runs out decides where the blocks start. Main 2, blocks of 2
moves in 2 days: moves of 2 and 2 days put both moves in block 1 (0 + 2 of 2
days), so move 3 opens a fresh block; moves of 1 and 2 days open block 1 on
move 2 with 1 day over main, so move 3 has 1 day left. That is the rule's own
arithmetic (a real Canadian clock does the same), not a fault of the count;
``tests/clock/test_system_properties.py`` pins it as a worked example and
checks the other properties for Canadian too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..verdicts import ControlWindow, Overstep
from ..units import Unit
from .base import (
    MoveTimes, Stage, SystemState, flag, main_json, main_stage_fold, main_stage_view, only_keys, parse_main, replay,
    whole,
)


@dataclass(frozen=True, slots=True)
class Canadian:
    main: int
    moves: int
    period_time: int
    main_stages: tuple[Stage, ...] = ()
    name: str = "canadian"
    by_move: bool = True
    unit: Unit = Unit.DAYS

    @classmethod
    def parse(cls, data: dict, path: str, unit: Unit = Unit.DAYS) -> "Canadian":
        only_keys(data, {"system", "main", "moves", "period_time", "double_after", "max_per_move"}, path)
        main, stages = parse_main(data, path, unit)
        return cls(main, whole(data, "moves", path, minimum=1), unit.read(data, "period_time", path, minimum=1),
                   stages, unit=unit)

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "main": main_json(self.main, self.main_stages, self.unit), "moves": self.moves,
                "period_time": self.unit.write(self.period_time)}

    def begin(self, at_zero: int) -> "CanadianCarry":
        stages = self.main_stages
        if stages:  # main time in stages; after them, the first block at once
            return CanadianCarry(0, at_zero, None, 1, 0, stages[0].moves or 0, 0, True, 1, self.period_time, self.moves)
        overtime = self.main == 0
        return CanadianCarry(0, at_zero, None, 0, 0, 0, self.main, overtime, int(overtime), self.period_time,
                             self.moves)

    def fold(self, carry: "CanadianCarry", days: int, extra: int) -> "CanadianCarry":
        c = carry
        number = c.made + 1
        stages = self.main_stages
        if c.stage and c.stage <= len(stages):
            stage, used, last, over = main_stage_fold(stages, c.stage, c.stage_used, c.stage_last, number, days,
                                                      c.at_zero, c.overstepped)
            return CanadianCarry(number, c.at_zero, over, stage, used, last, c.main, c.in_overtime, c.blocks,
                                 c.block_days, c.block_moves)
        main, in_overtime, blocks, over = c.main, c.in_overtime, c.blocks, c.overstepped
        had = 0  # main time the move had besides its block
        if not in_overtime:
            if days < main:
                return CanadianCarry(number, c.at_zero, over, c.stage, 0, c.stage_last, main - days, False, blocks,
                                     c.block_days, c.block_moves)
            had, days = main, days - main  # this move uses main time up: it opens the first block
            main, in_overtime, blocks = 0, True, 1
        if over is None and days + c.at_zero > c.block_days:
            over = flag((len(stages) or 1) + blocks, number, had + c.block_days)
        block_days, block_moves = c.block_days - days, c.block_moves - 1
        if block_moves == 0:  # block completed: a new one, afresh (saved time is lost) unless the flag fell
            block_moves, blocks = self.moves, blocks + 1
            if over is None:
                block_days = self.period_time
        return CanadianCarry(number, c.at_zero, over, c.stage, 0, c.stage_last, main, in_overtime, blocks, block_days,
                             block_moves)

    def view(self, carry: "CanadianCarry", current: int, extra: int, later: tuple[int, ...]) -> SystemState:
        c = carry
        number = c.made + 1
        at_zero = c.at_zero
        stages = self.main_stages
        overstepped = c.overstepped
        if c.stage and c.stage <= len(stages):
            overstepped, window, left = main_stage_view(stages, c.stage, c.stage_used, c.stage_last, number, current,
                                                        at_zero, overstepped)
            return SystemState(window=window, overstepped=overstepped, current_left=left, clock={
                "main_days": left, "main_moves_left": c.stage_last - number + 1, "in_overtime": False,
                "block": 0, "block_moves_left": self.moves, "block_days_left": self.period_time,
                "moves_per_block": self.moves, "period_days": self.period_time})
        before = len(stages) or 1  # controls before the blocks: the main time (its stages)
        main, in_overtime, blocks = c.main, c.in_overtime, c.blocks
        block_days, block_moves = c.block_days, c.block_moves
        # The running move counts everywhere: once it reaches the end of main time it is in block 1.
        now_in_overtime = in_overtime or current >= main
        if in_overtime:
            budget, block_left, block = block_days, block_days - current, blocks
        else:
            budget, block_left, block = main + block_days, block_days - max(0, current - main), int(now_in_overtime)
        left = budget - current
        if overstepped is None and left < at_zero:
            overstepped = flag(before + max(block, 1), number, budget)
        window = ControlWindow(number=before + block, through_move=number + (block_moves - 1 if block else 0),
                               allowed_days=budget, remaining_days=left)
        clock = {"main_days": 0 if now_in_overtime else main - current, "in_overtime": now_in_overtime,
                 "block": block, "block_moves_left": block_moves, "block_days_left": block_left,
                 "moves_per_block": self.moves, "period_days": self.period_time}
        if stages:
            clock = {"main_days": 0, "main_moves_left": 0, **clock}
        return SystemState(window=window, overstepped=overstepped, current_left=left, clock=clock)

    def state(self, moves: MoveTimes) -> SystemState:
        return replay(self, moves)


@dataclass(frozen=True, slots=True)
class CanadianCarry:
    """After ``made`` moves: the main-time stage of the next move (0 without stages; past the last once they
    are made), its days used and last move; the main time left, whether the blocks began, the block's
    number, its days and moves left."""

    made: int
    at_zero: int
    overstepped: Overstep | None
    stage: int
    stage_used: int
    stage_last: int
    main: int
    in_overtime: bool
    blocks: int
    block_days: int
    block_moves: int
