"""What every time-control system sees and returns: the second layer's common interface.

A system folds the days charged to a player's moves, in order, into its own
state. It knows nothing of dates, events or article 50.4's charging rules;
those are the first layer's (:mod:`corr.clock.charging`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
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

    gifts: tuple[tuple[int, int, bool], ...] = ()
    """Time the opponent gave (issue 40), for a system that keeps it as main time (byo-yomi): (the move at
    whose start it was given, the amount, whether byo-yomi was reset), in order. Its amount is then not in
    ``completed`` / ``current``; empty for every other system, which sees a gift as a negative charge."""

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
    """A time-control system: a pure, immutable fold of per-move charges.

    A system is three steps (issue 27): :meth:`begin` the carry before move 1, :meth:`fold` one
    completed move onto a carry, :meth:`view` the state of the move in hand from the carry of the
    moves before it. ``state(moves)`` is :func:`replay`: those three over every completed move, the
    definition that the live engine's incremental clock (one fold per press) is checked against.
    A carry is an immutable value: a snapshot may keep it, and folding returns a new one.
    """

    @property
    def name(self) -> str:  # pragma: no cover - protocol
        ...

    @property
    def by_move(self) -> bool:  # pragma: no cover - protocol
        """True for a per-move mechanism (increments, byo-yomi periods and blocks, per-move allowances): it
        sees moves as they were made, an accepted variant move being a completed move (see ``SystemControl``);
        False for plain periods, which count days by the numbers 50.4.8 charges them to, as article 50.4."""
        ...

    def begin(self, at_zero: int) -> Any:  # pragma: no cover - protocol
        """The carry before any move (``at_zero``: see :class:`MoveTimes`)."""
        ...

    def fold(self, carry: Any, days: int, extra: int) -> Any:  # pragma: no cover - protocol
        """The carry after one more completed move charged ``days`` (``extra`` of them not thinking time)."""
        ...

    def view(self, carry: Any, current: int, extra: int, later: tuple[int, ...]) -> SystemState:  # pragma: no cover
        """The state of the move in hand (number ``carry.made + 1``), charged ``current`` so far."""
        ...

    def state(self, moves: MoveTimes) -> SystemState:  # pragma: no cover - protocol
        ...

    def as_json(self) -> dict[str, Any]:  # pragma: no cover - protocol
        ...


def replay(system: "System", moves: MoveTimes) -> SystemState:
    """A system's state from every move: :meth:`System.begin`, a :meth:`System.fold` per completed move,
    :meth:`System.view` of the move in hand. ``moves.number`` is ``len(moves.completed) + 1``."""
    carry = system.begin(moves.at_zero)
    extra = moves.extra
    for index, days in enumerate(moves.completed):
        carry = system.fold(carry, days, extra[index] if index < len(extra) else 0)
    return system.view(carry, moves.current, moves.extra_of(moves.number), moves.later)


_FIELD_NAMES: dict[str, tuple[str, ...]] = {}


def _field_names(kind: Any) -> tuple[str, ...]:
    """A carry class's field names, in order (read once per class)."""
    names = _FIELD_NAMES.get(kind.__name__)
    if names is None:
        names = _FIELD_NAMES[kind.__name__] = tuple(f.name for f in fields(kind))
    return names


def carry_json(carry: Any) -> list:
    """A system's carry as JSON, for a snapshot kept beside a live game's events: its class's name, then its
    fields in order (an :class:`Overstep` as ``[control, through_move, allowed_days, used_days, reason]``)."""
    values: list = [type(carry).__name__]
    for name in _field_names(type(carry)):
        value = getattr(carry, name)
        if isinstance(value, Overstep):
            value = [value.control, value.through_move, value.allowed_days, value.used_days, value.reason]
        values.append(value)
    return values


def carry_from_json(system: "System", data: list) -> Any:
    """The carry :func:`carry_json` wrote for ``system``. :raises ValueError: when it is another system's."""
    kind = type(system.begin(0))
    if not isinstance(data, list) or not data or data[0] != kind.__name__ or len(data) != len(_field_names(kind)) + 1:
        raise ValueError(f"not a carry of {kind.__name__}: {data!r}")
    return kind(*(Overstep(*v) if isinstance(v, list) else v for v in data[1:]))


def after_delay(charged: int, delay: int, extra: int = 0) -> int:
    """What a move charged ``charged`` costs the main time under a ``delay`` (FIDE 6.2 "temps différé"):
    its thinking time beyond the delay, plus its ``extra`` (an arbiter's adjustment, never discounted)."""
    return max(0, charged - extra - delay) + extra


def flag(control: int, move: int, allowed: int) -> Overstep:
    """The overstep of ``move`` in ``control`` when it had ``allowed`` days: the flag fell on the first day
    over, so ``used_days`` is ``allowed + 1`` whatever the move went on to take (later moves and later
    dates leave it as it is)."""
    return Overstep(control=control, through_move=move, allowed_days=allowed, used_days=allowed + 1)


def main_stage_fold(stages: tuple[Stage, ...], stage: int, used: int, last: int, number: int, days: int,
                    at_zero: int, over: Overstep | None) -> tuple[int, int, int, Overstep | None]:
    """Go 12.2's main time given as move-count stages, before byo-yomi, one move at a time: move ``number``
    of ``days`` made in stage ``stage`` (its ``used`` days so far, its ``last`` move). Each stage's moves
    must be made within its time (12.10: otherwise the game is lost); time saved in a stage is not added
    to the next (12.2), nor to byo-yomi. Stage k is control k.

    :returns: (the stage of the next move, its days used, its last move, where the flag fell or None); a
        stage past the last is the overtime's."""
    time = stages[stage - 1].time
    if over is None and used + days + at_zero > time:
        over = flag(stage, number, time - used)
    used += days
    if number == last:  # the stage's moves are made: what it saved is lost (12.2)
        stage, used = stage + 1, 0
        if stage <= len(stages):
            last += stages[stage - 1].moves or 0  # main-time stages always have a number of moves
    return stage, used, last, over


def main_stage_view(stages: tuple[Stage, ...], stage: int, used: int, last: int, number: int, current: int,
                    at_zero: int, over: Overstep | None) -> tuple[Overstep | None, ControlWindow, int]:
    """The move in hand, ``number``, in main-time stage ``stage``: (where the flag fell or None, the window,
    the days left)."""
    left_in_stage = stages[stage - 1].time - used
    left = left_in_stage - current
    if over is None and left < at_zero:
        over = flag(stage, number, left_in_stage)
    return over, ControlWindow(number=stage, through_move=last, allowed_days=left_in_stage, remaining_days=left), left


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
