"""N moves in a period, in stages (FIDE 6.2, draughts 12, LSS, the 50.4 control); sudden death.

``stages`` run in order; ``moves: None`` is the rest of the game. With
``repeat_last`` the last stage repeats for ever (article 50.4.3 is
``[{"moves": 10, "time": 30}]`` repeated). ``cumulative``: unused time carries
over to the next stage (seed 002, 6.2: "Le temps inutilisé lors d'une période
de jeu par un joueur lui est crédité pour la période suivante"; 50.4.3 "с
накоплением времени"); without it (LSS's non-cumulative option) each stage's
unused time is lost.

A stage may also carry an ``increment`` (days added after each of its moves,
FIDE 6.2 "un laps de temps supplémentaire après chaque coup") or a ``delay``
(free days at the start of each of its moves, "temps différé"). What a delay
stage leaves is never carried to the next stage: 6.2 "excepté dans la cadence
temps différé". Such a control is a running clock, checked move by move; plain
stages are checked stage by stage, as the 50.4 control.

Where the flag fell: a stage with a number of moves is exceeded as a whole
(50.4.3, FIDE 6.9 "le nombre de coups prescrits dans le temps imparti"), so the
overstep names the stage, its last move and every day charged through it, as
article 50.4's output always has; in the rest of the game, and on a running
clock, it names the move during which the time ran out (:func:`.base.flag`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..verdicts import ControlWindow, Overstep
from ..errors import ruleset_error
from ..units import Unit
from .base import MoveTimes, Stage, SystemState, after_delay, flag, only_keys, replay, whole

__all__ = ["Periods", "Stage", "sudden_death"]


@dataclass(frozen=True, slots=True)
class Periods:
    stages: tuple[Stage, ...]
    repeat_last: bool = False
    cumulative: bool = True
    name: str = "periods"
    unit: Unit = Unit.DAYS

    @property
    def by_move(self) -> bool:
        """A clock with increments or delays is a per-move mechanism; plain stages count as 50.4 does."""
        return any(s.increment or s.delay for s in self.stages)

    @classmethod
    def parse(cls, data: dict, path: str, unit: Unit = Unit.DAYS) -> "Periods":
        only_keys(data, {"system", "stages", "repeat_last", "cumulative", "double_after", "max_per_move"}, path)
        raw = data.get("stages")
        if not isinstance(raw, list) or not raw:
            raise ruleset_error("stages_not_list", field=f"{path}.stages")
        stages = []
        for i, item in enumerate(raw):
            where = f"{path}.stages[{i}]"
            if not isinstance(item, dict):
                raise ruleset_error("stage_not_object", field=where)
            only_keys(item, {"moves", "time", "increment", "delay"}, where)
            moves = whole(item, "moves", where, minimum=1, required=False)
            if moves is None and i != len(raw) - 1:
                raise ruleset_error("stage_rest_not_last", field=f"{where}.moves")
            increment = unit.read(item, "increment", where, required=False, default=0)
            delay = unit.read(item, "delay", where, required=False, default=0)
            if increment and delay:
                raise ruleset_error("stage_increment_and_delay", field=f"{where}.delay", where=where)
            stages.append(Stage(moves, unit.read(item, "time", where, minimum=1), increment or 0, delay or 0))
        repeat_last = _flag(data, "repeat_last", path, False)
        if repeat_last and stages[-1].moves is None:
            raise ruleset_error("repeat_needs_moves", field=f"{path}.repeat_last")
        if not repeat_last and stages[-1].moves is not None:
            raise ruleset_error("last_stage_open", field=f"{path}.stages")
        return cls(tuple(stages), repeat_last, _flag(data, "cumulative", path, True), unit=unit)

    def as_json(self) -> dict[str, Any]:
        if self.name == "sudden_death":
            return {"system": self.name, "time": self.unit.write(self.stages[0].time)}
        return {"system": self.name, "stages": [_stage_json(s, self.unit) for s in self.stages],
                "repeat_last": self.repeat_last, "cumulative": self.cumulative}

    def stage_at(self, move: int) -> tuple[int, int, int | None, Stage]:
        """(stage number, first move, last move or None, stage) of the stage holding ``move``."""
        first, number = 1, 0
        for number, stage in enumerate(self.stages, start=1):
            if stage.moves is None or move < first + stage.moves:
                return number, first, None if stage.moves is None else first + stage.moves - 1, stage
            first += stage.moves
        last = self.stages[-1]  # parse() guarantees repeat_last here, so a number of moves
        moves = last.moves or 1
        extra = (move - first) // moves
        start = first + extra * moves
        return number + 1 + extra, start, start + moves - 1, last

    def stage_of(self, move: int) -> tuple[int, int, int | None, int]:
        """(stage number, first move, last move or None, time) of the stage holding ``move``."""
        number, first, last, stage = self.stage_at(move)
        return number, first, last, stage.time

    def begin(self, at_zero: int) -> "PeriodsCarry | ClockCarry":
        if self.by_move:
            return ClockCarry(0, at_zero, None, 0, 0, 0)
        _, first, last, time = self.stage_of(1)
        return PeriodsCarry(0, at_zero, None, 1, first, last, time, 0, 0, 0, None)

    def fold(self, carry, days: int, extra: int):
        if isinstance(carry, ClockCarry):
            return self._clock_fold(carry, days, extra)
        c: PeriodsCarry = carry
        number = c.made + 1
        used_stage = c.used_stage + days
        over, crossed = c.overstepped, c.crossed
        before = c.used_before if self.cumulative else 0
        allowed = c.allowed_before + c.time if self.cumulative else c.time
        if c.last is None:  # the rest of the game: the first move that takes the total past the time
            if crossed is None and before + used_stage + c.at_zero > allowed:
                crossed = flag(c.stage, number, allowed)
            return PeriodsCarry(number, c.at_zero, over, c.stage, c.first, None, c.time, c.allowed_before,
                                c.used_before, used_stage, crossed)
        if number < c.last:
            return PeriodsCarry(number, c.at_zero, over, c.stage, c.first, c.last, c.time, c.allowed_before,
                                c.used_before, used_stage, None)
        # The stage's moves are made: it is exceeded as a whole (50.4.3, FIDE 6.9), naming its last move.
        if over is None and before + used_stage + c.at_zero > allowed:
            over = Overstep(control=c.stage, through_move=c.last, allowed_days=allowed, used_days=before + used_stage)
        stage, first, last, time = self.stage_of(number + 1)
        return PeriodsCarry(number, c.at_zero, over, stage, first, last, time, c.allowed_before + c.time,
                            c.used_before + used_stage, 0, None)

    def view(self, carry, current: int, extra: int, later: tuple[int, ...]) -> SystemState:
        if isinstance(carry, ClockCarry):
            return self._clock_view(carry, current)
        c: PeriodsCarry = carry
        number = c.made + 1
        # Days already charged to later moves of this stage count in it (50.4.8), as in the 50.4 formula.
        within = later if c.last is None else later[:max(0, c.last - number)]
        used_stage = c.used_stage + current + sum(within)
        used_total = c.used_before + used_stage
        allowed_total = c.allowed_before + c.time
        stage_allowed = allowed_total if self.cumulative else c.time
        used = used_total if self.cumulative else used_stage
        overstepped = c.overstepped
        if overstepped is None and used + c.at_zero > stage_allowed:
            if c.last is None:  # the move during which the time ran out
                overstepped = c.crossed or _move_over((current, *within), number, used - used_stage + c.used_stage,
                                                      stage_allowed, c.stage, c.at_zero)
            else:
                overstepped = Overstep(control=c.stage, through_move=c.last, allowed_days=stage_allowed,
                                       used_days=used)
        remaining = stage_allowed - used
        window = ControlWindow(number=c.stage, through_move=c.last if c.last is not None else number,
                               allowed_days=stage_allowed, remaining_days=remaining)
        clock = {"stage": c.stage, "stage_first_move": c.first, "stage_last_move": c.last,
                 "allowed_days": stage_allowed, "used_days": used, "remaining_days": remaining,
                 "cumulative": self.cumulative}
        return SystemState(window=window, overstepped=overstepped, current_left=remaining, clock=clock)

    def state(self, moves: MoveTimes) -> SystemState:
        return replay(self, moves)

    # Stages with increments or delays (FIDE 6.2): one clock, checked at every move. Entering a stage adds
    # its time to what is left (``cumulative``, and the previous stage has no delay) or replaces it; days
    # owed once the flag fell are never forgiven.
    def _enter(self, c: "ClockCarry", move: int) -> tuple[int, int, int | None, Stage, int]:
        """(stage number, first move, last move, stage, the clock) of ``move``, the stage entered if new."""
        k, first, last, stage = self.stage_at(move)
        clock = c.clock
        if k != c.stage:
            carries = self.cumulative and c.stage > 0 and not c.previous_delay
            clock = (clock if carries else min(clock, 0)) + stage.time
        return k, first, last, stage, clock

    def _clock_fold(self, c: "ClockCarry", days: int, extra: int) -> "ClockCarry":
        number = c.made + 1
        k, _, _, stage, clock = self._enter(c, number)
        allowed = clock + stage.delay
        over = c.overstepped
        if over is None and days + c.at_zero > allowed:
            over = flag(k, number, allowed)
        clock += stage.increment - after_delay(days, stage.delay, extra)
        return ClockCarry(number, c.at_zero, over, clock, k, stage.delay)

    def _clock_view(self, c: "ClockCarry", current: int) -> SystemState:
        number = c.made + 1
        k, first, last, stage, clock = self._enter(c, number)
        allowed = clock + stage.delay
        overstepped = c.overstepped
        left = allowed - current
        if overstepped is None and left < c.at_zero:
            overstepped = flag(k, number, allowed)
        window = ControlWindow(number=k, through_move=last if last is not None else number, allowed_days=allowed,
                               remaining_days=left)
        clock_json = {"stage": k, "stage_first_move": first, "stage_last_move": last, "allowed_days": allowed,
                      "remaining_days": left, "increment_days": stage.increment, "delay_days": stage.delay,
                      "cumulative": self.cumulative}
        return SystemState(window=window, overstepped=overstepped, current_left=left, clock=clock_json)


@dataclass(frozen=True, slots=True)
class PeriodsCarry:
    """Plain stages after ``made`` moves: the stage of the next move (its number, first and last move, time),
    the days allowed and used in the stages before it, the days used in it so far; in the rest of the game,
    the move that first took the total past the time (``crossed``), kept for the overstep."""

    made: int
    at_zero: int
    overstepped: Overstep | None
    stage: int
    first: int
    last: int | None
    time: int
    allowed_before: int
    used_before: int
    used_stage: int
    crossed: Overstep | None


@dataclass(frozen=True, slots=True)
class ClockCarry:
    """Stages with increments or delays after ``made`` moves: the clock, the stage of the last move made
    (0 before any) and that stage's delay (what a delay stage leaves is not carried, FIDE 6.2)."""

    made: int
    at_zero: int
    overstepped: Overstep | None
    clock: int
    stage: int
    previous_delay: int


def _move_over(charges: tuple[int, ...], first: int, before: int, allowed: int, stage: int,
               at_zero: int = 0) -> Overstep:
    """The overstep of the first of ``charges`` (moves ``first``, ``first + 1``...) whose days take the total
    from ``before`` past ``allowed`` (or to it, ``at_zero``: see :class:`.base.MoveTimes`)."""
    used = before
    for move, days in enumerate(charges, start=first):
        used += days
        if used + at_zero > allowed:
            return flag(stage, move, allowed)
    raise AssertionError("the stage was exceeded")  # pragma: no cover - the caller checked it


def _stage_json(stage: Stage, unit: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {"moves": stage.moves, "time": unit.write(stage.time)}
    if stage.increment:
        out["increment"] = unit.write(stage.increment)
    if stage.delay:
        out["delay"] = unit.write(stage.delay)
    return out


def sudden_death(data: dict, path: str, unit: Unit = Unit.DAYS) -> Periods:
    """``{"system": "sudden_death", "time": T}``: all moves in one period (FIDE 6.2 "tous les coups")."""
    only_keys(data, {"system", "time", "double_after", "max_per_move"}, path)
    return Periods((Stage(None, unit.read(data, "time", path, minimum=1)),), name="sudden_death", unit=unit)


def _flag(data: dict, key: str, path: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ruleset_error("not_boolean", field=f"{path}.{key}", value=repr(value))
    return value
