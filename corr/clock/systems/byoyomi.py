"""Japanese byo-yomi (Go rules, seed 003, 12.2 type 1; DGS and OGS "Japanese").

Main time first; then each move must be made within one period of
``period_time``. A move made within a period keeps it; a move that overruns
a period uses it up and goes on in the next; the flag falls when the last
period is overrun. Saved time is not carried over.

``main`` is whole days, or (12.2 "какое-то количество ходов ... в заданный
период основного времени") move-count stages ``[{"moves": 40, "time": 60}]``:
each stage's moves within its time, or the game is lost (12.10), and what a
stage saves is lost (12.2); byo-yomi starts after the last stage's moves.

Controls are numbered as everywhere else from 1: the main time is control 1
(its stages 1..S when given as stages), byo-yomi period k is control S + k.

Where the texts are silent: a move that starts in main time and runs past
it goes on into the periods with the days over main time (as DGS and OGS
count it); a move ending exactly at the end of a period keeps it. A move
not made in the last period loses (12.10, DGS, OGS), although seed 003's
interpretation of 12.16 passes the turn to the partner instead.
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
class Byoyomi:
    main: int
    periods: int
    period_time: int
    main_stages: tuple[Stage, ...] = ()
    name: str = "byoyomi"
    by_move: bool = True
    unit: Unit = Unit.DAYS

    @classmethod
    def parse(cls, data: dict, path: str, unit: Unit = Unit.DAYS) -> "Byoyomi":
        only_keys(data, {"system", "main", "periods", "period_time", "double_after", "max_per_move"}, path)
        main, stages = parse_main(data, path, unit)
        return cls(main, whole(data, "periods", path, minimum=1), unit.read(data, "period_time", path, minimum=1),
                   stages, unit=unit)

    def as_json(self) -> dict[str, Any]:
        return {"system": self.name, "main": main_json(self.main, self.main_stages, self.unit),
                "periods": self.periods, "period_time": self.unit.write(self.period_time)}

    def _play(self, main: int, periods: int, days: int, at_zero: int = 0) -> tuple[int, int, bool]:
        """(main left, periods left, flag fell) after a move of ``days`` (``at_zero``: see ``MoveTimes``)."""
        if main == 0 and days <= 0:
            # In byo-yomi, a move charged less than nothing (time an arbiter added in a live game, 003 17.4 б)
            # keeps its period and no more: 12.2, "Время, сэкономленное игроком в течение основного и бееми не
            # добавляется ко времени следующего периода". It never becomes main time.
            return 0, periods, False
        if days + at_zero <= main:
            return main - days, periods, False
        over = days - main
        if over + at_zero > periods * self.period_time:
            return 0, 0, True
        # Made in period k = ceil(over / P): the k - 1 before it are used up (under exact, a period
        # used to its last second is used up too: k = floor(over / P) + 1).
        used_up = (over - 1 + at_zero) // self.period_time
        return 0, periods - used_up, False

    def begin(self, at_zero: int) -> "ByoyomiCarry":
        stages = self.main_stages
        if stages:  # main time in stages: no main time of days after them
            return ByoyomiCarry(0, at_zero, None, 1, 0, stages[0].moves or 0, 0, self.periods, False)
        return ByoyomiCarry(0, at_zero, None, 0, 0, 0, self.main, self.periods, False)

    def fold(self, carry: "ByoyomiCarry", days: int, extra: int) -> "ByoyomiCarry":
        c = carry
        number = c.made + 1
        stages = self.main_stages
        if c.stage and c.stage <= len(stages):
            stage, used, last, over = main_stage_fold(stages, c.stage, c.stage_used, c.stage_last, number, days,
                                                      c.at_zero, c.overstepped)
            return ByoyomiCarry(number, c.at_zero, over, stage, used, last, c.main, c.periods, False)
        if c.fell:  # the last period was overrun: nothing later changes the clock
            return ByoyomiCarry(number, c.at_zero, c.overstepped, c.stage, 0, c.stage_last, 0, 0, True)
        budget = c.main + c.periods * self.period_time
        main, periods, fell = self._play(c.main, c.periods, days, c.at_zero)
        over = c.overstepped
        if fell and over is None:
            over = flag((len(stages) or 1) + self.periods, number, budget)
        return ByoyomiCarry(number, c.at_zero, over, c.stage, 0, c.stage_last, main, periods, fell)

    def view(self, carry: "ByoyomiCarry", current: int, extra: int, later: tuple[int, ...]) -> SystemState:
        c = carry
        number = c.made + 1
        at_zero = c.at_zero
        stages = self.main_stages
        main, periods, period = c.main, c.periods, self.period_time
        overstepped = c.overstepped
        if c.stage and c.stage <= len(stages):
            overstepped, window, left = main_stage_view(stages, c.stage, c.stage_used, c.stage_last, number, current,
                                                        at_zero, overstepped)
            return SystemState(window=window, overstepped=overstepped, current_left=left, clock={
                "main_days": left, "main_moves_left": c.stage_last - number + 1, "periods_left": periods,
                "period_days": period, "in_byoyomi": False})
        before = len(stages) or 1  # controls before the periods: the main time (its stages)
        last_period = before + self.periods
        budget = main + periods * period
        left = budget - current
        if overstepped is None and left < at_zero:
            overstepped = flag(last_period, number, budget)
        in_byoyomi = main == 0 or current > main  # the running move counts: past main time, it is in a period
        if left < at_zero:
            now_main, now_periods, control = 0, 0, last_period
        else:
            now_main, now_periods, _ = self._play(main, periods, current, at_zero)
            # The period the running move stands in: the ones used up before it and by it, plus one.
            control = before + self.periods - now_periods + 1 if in_byoyomi else before
        window = ControlWindow(number=control, through_move=number, allowed_days=budget, remaining_days=left)
        clock = {"main_days": now_main, "periods_left": now_periods, "period_days": period, "in_byoyomi": in_byoyomi}
        if stages:
            clock = {"main_days": 0, "main_moves_left": 0, **clock}
        return SystemState(window=window, overstepped=overstepped, current_left=left, clock=clock)

    @property
    def keeps_gifts_as_main(self) -> bool:
        """True when time given by the opponent is added to the main time (main time in days: DGS's)."""
        return not self.main_stages

    def give(self, carry: "ByoyomiCarry", amount: int, reset: bool) -> "ByoyomiCarry":
        """The carry at the start of a move after the opponent gave ``amount`` (and reset byo-yomi or not).

        Dragon Go Server, ``GameAddTime::add_time`` (include/game_functions.php): the amount is added to the
        main time ("{opp}_Maintime += add_hours"), also in byo-yomi, where it becomes main time again; the
        periods left are kept (a period begun is refilled, "reset_byo = 2", which corr's periods always
        are between moves). With ``reset``, "full byo-yomi reset": with main time left the byo-yomi is as not
        yet entered, all ``periods`` of it to come (Byoperiods = -1, GameAddTimeTest J.R5); with none (no time
        added in byo-yomi) the period in hand is refilled *and* ``periods`` more are left (Byotime = B,
        Byoperiods = P, J.R8), and DGS's ``time_remaining`` flags only when the time used exceeds
        ``b + p * B``: one period more than entering byo-yomi gives (``p = P - 1``), as DGS counts it.
        Once the flag has fallen nothing is given (DGS allows add time only in a running game).
        """
        if carry.fell:
            return carry
        main = carry.main + amount
        periods = carry.periods
        if reset:
            periods = self.periods if main > 0 else self.periods + 1
        return ByoyomiCarry(carry.made, carry.at_zero, carry.overstepped, carry.stage, carry.stage_used,
                            carry.stage_last, main, periods, False)

    def state(self, moves: MoveTimes) -> SystemState:
        gifts = moves.gifts
        if not gifts:
            return replay(self, moves)
        # replay (base.replay) with the time given added at the start of the move it was given in
        carry = self.begin(moves.at_zero)
        extra = moves.extra
        for index, days in enumerate(moves.completed):
            carry = self._given(carry, gifts, index + 1)
            carry = self.fold(carry, days, extra[index] if index < len(extra) else 0)
        carry = self._given(carry, gifts, moves.number)
        return self.view(carry, moves.current, moves.extra_of(moves.number), moves.later)

    def _given(self, carry: "ByoyomiCarry", gifts: tuple[tuple[int, int, bool], ...], number: int) -> "ByoyomiCarry":
        for at_move, amount, reset in gifts:
            if at_move == number:
                carry = self.give(carry, amount, reset)
        return carry


@dataclass(frozen=True, slots=True)
class ByoyomiCarry:
    """After ``made`` moves: the main-time stage of the next move (0 without stages; past the last once they
    are made), its days used and last move; the main time and periods left; whether the last period fell."""

    made: int
    at_zero: int
    overstepped: Overstep | None
    stage: int
    stage_used: int
    stage_last: int
    main: int
    periods: int
    fell: bool
