"""What every time-control system sees and returns: the second layer's common interface.

A system folds the days charged to a player's moves, in order, into its own
state. It knows nothing of dates, events or article 50.4's charging rules;
those are the first layer's (:mod:`corr.clock.charging`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..verdicts import ControlWindow, Overstep
from ..errors import ruleset_error
from ..units import Unit


@dataclass(frozen=True, slots=True)
class Stage:
    """``moves`` moves (None: the rest of the game) in ``time`` days; optionally a Fischer ``increment``
    after each of its moves or a ``delay`` of free days at the start of each (FIDE 6.2)."""

    moves: int | None
    time: int
    increment: int = 0
    delay: int = 0


@dataclass(frozen=True, slots=True)
class MoveTimes:
    """A player's per-move charges as a system sees them.

    ``completed`` holds the days charged to moves 1..number-1; ``current`` the
    days charged so far to the move being played (``number``), its running
    days included when it is pending.
    """

    completed: tuple[int, ...]
    current: int
    number: int
    later: tuple[int, ...] = ()
    """Days already charged to numbers after ``number`` (a penalty on the next move while an accepted
    variant move is still being charged, 50.4.8). Periods count them in their stage, as the 50.4
    formula does; the per-move systems count them when the player reaches those moves."""
    extra: tuple[int, ...] = ()
    """Of each move's charge (``completed`` then ``current``), the part that is not thinking time: an
    arbiter's adjustment in a live game (negative when time was added). No delay discounts it; empty
    means none (correspondence games)."""

    at_zero: int = 0
    """1 when the flag falls the instant the time left reaches zero (the ``exact`` count: lichess and
    chess.com flag a clock showing 0), 0 where the last unit allowed may still be used whole (a date
    of article 50.4, a 24-hour period of ICCF 2.4.2). Every check of a system is ``used + at_zero >
    allowed``: with whole seconds, that is ``used >= allowed`` under ``exact``."""

    def extra_of(self, number: int) -> int:
        """The non-thinking part of move ``number``'s charge (0 when none)."""
        return self.extra[number - 1] if number <= len(self.extra) else 0


@dataclass(frozen=True, slots=True)
class SystemState:
    """A system's verdict on one player."""

    window: ControlWindow
    """The current period or clock, in the fields of the 50.4 control."""
    overstepped: Overstep | None
    """Where the flag fell: the first exceeded period, or the move that exceeded its clock."""
    current_left: int
    """Days the current move may still be charged before the flag falls (negative once it fell)."""
    clock: dict[str, Any]
    """The system's own state, named as its rule text names it."""


class System(Protocol):
    """A time-control system: a pure, immutable fold of per-move charges."""

    name: str
    by_move: bool
    """True for a per-move mechanism (increments, byo-yomi periods and blocks, per-move allowances): it
    sees moves as they were made, an accepted variant move being a completed move (see ``SystemControl``);
    False for plain periods, which count days by the numbers 50.4.8 charges them to, as article 50.4."""

    def state(self, moves: MoveTimes) -> SystemState:  # pragma: no cover - protocol
        ...

    def as_json(self) -> dict[str, Any]:  # pragma: no cover - protocol
        ...


def after_delay(charged: int, delay: int, extra: int = 0) -> int:
    """What a move charged ``charged`` costs the main time under a ``delay`` (FIDE 6.2 "temps différé"):
    its thinking time beyond the delay, plus its ``extra`` (an arbiter's adjustment, never discounted)."""
    return max(0, charged - extra - delay) + extra


def flag(control: int, move: int, allowed: int) -> Overstep:
    """The overstep of ``move`` in ``control`` when it had ``allowed`` days: the flag fell on the first day
    over, so ``used_days`` is ``allowed + 1`` whatever the move went on to take (later moves and later
    dates leave it as it is)."""
    return Overstep(control=control, through_move=move, allowed_days=allowed, used_days=allowed + 1)


def main_stages(stages: tuple[Stage, ...], moves: MoveTimes) -> tuple[int, Overstep | None, tuple | None]:
    """Go 12.2's main time given as move-count stages, before byo-yomi.

    Each stage's moves must be made within its time (12.10: otherwise the game is lost); time saved in a
    stage is not added to the next (12.2), nor to byo-yomi. Stage k is control k.

    :returns: (moves made in main time, where the flag fell or None, and when the current move is still
        in main time (its stage number, the stage's last move, the days the stage has left for it),
        else None).
    """
    completed = moves.completed
    made = len(completed)
    over = None
    m = 0
    for k, stage in enumerate(stages, start=1):
        used, last = 0, m + stage.moves
        while m < last and m < made:
            days = completed[m]
            m += 1
            if over is None and used + days + moves.at_zero > stage.time:
                over = flag(k, m, stage.time - used)
            used += days
        if m < last:
            return m, over, (k, last, stage.time - used)
    return m, over, None


def main_stage_window(stages: tuple[Stage, ...], moves: MoveTimes):
    """:func:`main_stages` with the running move counted: what byo-yomi and Canadian share.

    :returns: (moves made in main time, controls before the overtime, where the flag fell or None, and
        while the current move is in main time ``(window, days left, the stage's last move)``, else None).
    """
    start, overstepped, in_main = main_stages(stages, moves)
    if in_main is None:
        return start, len(stages), overstepped, None
    k, last, left_in_stage = in_main
    left = left_in_stage - moves.current
    if overstepped is None and left < moves.at_zero:
        overstepped = flag(k, moves.number, left_in_stage)
    window = ControlWindow(number=k, through_move=last, allowed_days=left_in_stage, remaining_days=left)
    return start, len(stages), overstepped, (window, left, last)


def parse_main(data: dict, path: str, unit: Unit = Unit.DAYS) -> tuple[int, tuple[Stage, ...]]:
    """``main`` of a byo-yomi system: whole days, or move-count stages ``[{"moves", "time"}, ...]`` (Go 12.2
    "какое-то количество ходов ... в заданный период основного времени"). :raises RulesetError: naming it."""
    raw = data.get("main")
    if not isinstance(raw, list):
        return unit.read(data, "main", path), ()
    if not raw:
        raise ruleset_error("main_not_stages", field=f"{path}.main")
    stages = []
    for i, item in enumerate(raw):
        where = f"{path}.main[{i}]"
        if not isinstance(item, dict):
            raise ruleset_error("stage_not_object", field=where)
        only_keys(item, {"moves", "time"}, where)
        stages.append(Stage(whole(item, "moves", where, minimum=1), unit.read(item, "time", where, minimum=1)))
    return 0, tuple(stages)


def main_json(main: int, stages: tuple[Stage, ...], unit: Unit = Unit.DAYS) -> Any:
    return [{"moves": s.moves, "time": unit.write(s.time)} for s in stages] if stages else unit.write(main)


def whole(data: dict, key: str, path: str, minimum: int = 0, required: bool = True, default: int | None = None):
    """A whole-number field of a system's JSON, checked. :raises RulesetError: naming the path."""
    if key not in data or data[key] is None:
        if required:
            raise ruleset_error("required", field=f"{path}.{key}")
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ruleset_error("not_whole", field=f"{path}.{key}", value=repr(value))
    if value < minimum:
        raise ruleset_error("at_least", field=f"{path}.{key}", minimum=minimum, value=value)
    return value


def only_keys(data: dict, allowed: set[str], path: str) -> None:
    for key in data:
        if key not in allowed:
            raise ruleset_error("unknown_system_field", field=f"{path}.{key}", known=", ".join(sorted(allowed)))
