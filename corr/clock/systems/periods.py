"""N moves in a period, in stages (FIDE 6, draughts 12, LSS, the 50.4 control); sudden death.

``stages`` run in order; ``moves: None`` is the rest of the game. With
``repeat_last`` the last stage repeats for ever (article 50.4.3 is
``[{"moves": 10, "time": 30}]`` repeated). ``cumulative``: unused time carries
over to the next stage (FIDE 6.1, 50.4.3 "with accumulation"); without it
(LSS's non-cumulative option) each stage's unused time is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..control import ControlWindow, Overstep
from ..errors import RulesetError
from .base import MoveTimes, SystemState, only_keys, whole


@dataclass(frozen=True, slots=True)
class Stage:
    moves: int | None
    time: int


@dataclass(frozen=True, slots=True)
class Periods:
    stages: tuple[Stage, ...]
    repeat_last: bool = False
    cumulative: bool = True
    name: str = "periods"

    @classmethod
    def parse(cls, data: dict, path: str) -> "Periods":
        only_keys(data, {"system", "stages", "repeat_last", "cumulative", "double_after", "max_per_move"}, path)
        raw = data.get("stages")
        if not isinstance(raw, list) or not raw:
            raise RulesetError(f"{path}.stages must be a non-empty list of {{moves, time}}", field=f"{path}.stages")
        stages = []
        for i, item in enumerate(raw):
            where = f"{path}.stages[{i}]"
            if not isinstance(item, dict):
                raise RulesetError(f"{where} must be an object {{moves, time}}", field=where)
            only_keys(item, {"moves", "time"}, where)
            moves = whole(item, "moves", where, minimum=1, required=False)
            if moves is None and i != len(raw) - 1:
                raise RulesetError(f"{where}.moves may be null (the rest of the game) only in the last stage",
                                   field=f"{where}.moves")
            stages.append(Stage(moves, whole(item, "time", where, minimum=1)))
        repeat_last = _flag(data, "repeat_last", path, False)
        if repeat_last and stages[-1].moves is None:
            raise RulesetError(f"{path}.repeat_last needs a last stage with a number of moves",
                               field=f"{path}.repeat_last")
        if not repeat_last and stages[-1].moves is not None:
            raise RulesetError(f"{path}.stages: the last stage must cover the rest of the game (moves: null)"
                               " or be repeated (repeat_last: true)", field=f"{path}.stages")
        return cls(tuple(stages), repeat_last, _flag(data, "cumulative", path, True))

    def as_json(self) -> dict[str, Any]:
        if self.name == "sudden_death":
            return {"system": self.name, "time": self.stages[0].time}
        return {"system": self.name, "stages": [{"moves": s.moves, "time": s.time} for s in self.stages],
                "repeat_last": self.repeat_last, "cumulative": self.cumulative}

    def stage_of(self, move: int) -> tuple[int, int, int | None, int]:
        """(stage number, first move, last move or None, time) of the stage holding ``move``."""
        first, number = 1, 0
        for number, stage in enumerate(self.stages, start=1):
            if stage.moves is None or move < first + stage.moves:
                return number, first, None if stage.moves is None else first + stage.moves - 1, stage.time
            first += stage.moves
        last = self.stages[-1]  # parse() guarantees repeat_last here
        extra = (move - first) // last.moves
        start = first + extra * last.moves
        return number + 1 + extra, start, start + last.moves - 1, last.time

    def state(self, moves: MoveTimes) -> SystemState:
        charges = moves.completed + (moves.current,) + moves.later
        current_stage, _, current_last, _ = self.stage_of(moves.number)
        overstepped = None
        allowed_total = used_total = 0
        used_stage = 0
        move = 1
        stage_allowed = 0
        stage_first = 1
        # Walk stage by stage up to the current one: linear in the moves.
        for k in range(1, current_stage + 1):
            _, stage_first, stage_last, time = self.stage_of(move)
            upto = len(charges) if stage_last is None else min(stage_last, len(charges))
            used_stage = sum(charges[stage_first - 1:upto])
            used_total += used_stage
            allowed_total += time
            stage_allowed = allowed_total if self.cumulative else time
            stage_used = used_total if self.cumulative else used_stage
            if overstepped is None and stage_used > stage_allowed:
                overstepped = Overstep(control=k, through_move=stage_last if stage_last is not None else moves.number,
                                       allowed_days=stage_allowed, used_days=stage_used)
            if stage_last is None:
                break
            move = stage_last + 1
        used = used_total if self.cumulative else used_stage
        remaining = stage_allowed - used
        window = ControlWindow(number=current_stage, through_move=current_last if current_last is not None
                               else moves.number, allowed_days=stage_allowed, remaining_days=remaining)
        clock = {"stage": current_stage, "stage_first_move": stage_first, "stage_last_move": current_last,
                 "allowed_days": stage_allowed, "used_days": used, "remaining_days": remaining,
                 "cumulative": self.cumulative}
        return SystemState(window=window, overstepped=overstepped, current_left=remaining, clock=clock)


def sudden_death(data: dict, path: str) -> Periods:
    """``{"system": "sudden_death", "time": T}``: all moves in one period (FIDE 6.1 "all the moves")."""
    only_keys(data, {"system", "time", "double_after", "max_per_move"}, path)
    return Periods((Stage(None, whole(data, "time", path, minimum=1)),), name="sudden_death")


def _flag(data: dict, key: str, path: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RulesetError(f"{path}.{key} must be true or false, got {value!r}", field=f"{path}.{key}")
    return value
