"""What every time-control system sees and returns: the second layer's common interface.

A system folds the days charged to a player's moves, in order, into its own
state. It knows nothing of dates, events or article 50.4's charging rules;
those are the first layer's (:mod:`corr.clock.charging`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..control import ControlWindow, Overstep
from ..errors import RulesetError


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

    def state(self, moves: MoveTimes) -> SystemState:  # pragma: no cover - protocol
        ...

    def as_json(self) -> dict[str, Any]:  # pragma: no cover - protocol
        ...


def whole(data: dict, key: str, path: str, minimum: int = 0, required: bool = True, default: int | None = None):
    """A whole-number field of a system's JSON, checked. :raises RulesetError: naming the path."""
    if key not in data or data[key] is None:
        if required:
            raise RulesetError(f"{path}.{key} is required", field=f"{path}.{key}")
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f"{path}.{key} must be a whole number, got {value!r}", field=f"{path}.{key}")
    if value < minimum:
        raise RulesetError(f"{path}.{key} must be at least {minimum}, got {value}", field=f"{path}.{key}")
    return value


def only_keys(data: dict, allowed: set[str], path: str) -> None:
    for key in data:
        if key not in allowed:
            raise RulesetError(f"{path}.{key} is not a field of this system (known: {', '.join(sorted(allowed))})",
                               field=f"{path}.{key}")
