"""Every time-control system of the seeds and of the leading servers, behind one interface.

A game file's ``ruleset.time_control`` names a system and its numbers; without
it the 50.4 control (``moves_per_control`` in ``days_per_control``, cumulative)
stands. Two options go with every system: ``double_after`` (ICCF: a move's
days beyond it are charged twice) and ``max_per_move`` (a single move over it
oversteps, as ICCF's 40-day silence rule and FICGS's 60-day rule). Adding a
system is one module and one line in ``SYSTEMS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..errors import RulesetError
from .base import MoveTimes, System, SystemState, whole
from .byoyomi import Byoyomi
from .canadian import Canadian
from .delay import Delay
from .fischer import Fischer
from .per_move import PerMove
from .periods import Periods, Stage, sudden_death

SYSTEMS: dict[str, Callable[[dict, str], System]] = {
    "periods": Periods.parse,
    "sudden_death": sudden_death,
    "fischer": Fischer.parse,
    "delay": Delay.parse,
    "byoyomi": Byoyomi.parse,
    "canadian": Canadian.parse,
    "per_move": PerMove.parse,
}


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A system and the options valid with every system."""

    system: System
    double_after: int | None = None
    """ICCF: the days of a single move beyond this count twice (23 days used cost 26 with 20)."""
    max_per_move: int | None = None
    """A single move longer than this oversteps, whatever the clock says (ICCF 40, FICGS 60)."""

    def as_json(self) -> dict[str, Any]:
        out = self.system.as_json()
        if self.double_after is not None:
            out["double_after"] = self.double_after
        if self.max_per_move is not None:
            out["max_per_move"] = self.max_per_move
        return out


def parse_time_control(data: Any, path: str = "ruleset.time_control") -> TimeControl:
    """Read ``ruleset.time_control``. :raises RulesetError: naming the field and the rule."""
    if not isinstance(data, dict):
        raise RulesetError(f"{path} must be an object with a 'system'", field=path)
    name = data.get("system")
    parse = SYSTEMS.get(name) if isinstance(name, str) else None
    if parse is None:
        raise RulesetError(f"{path}.system must be one of {', '.join(SYSTEMS)}, got {name!r}", field=f"{path}.system")
    return TimeControl(system=parse(data, path), double_after=whole(data, "double_after", path, required=False),
                       max_per_move=whole(data, "max_per_move", path, minimum=1, required=False))


__all__ = ["SYSTEMS", "TimeControl", "parse_time_control", "MoveTimes", "System", "SystemState",
           "Periods", "Stage", "Fischer", "Delay", "Byoyomi", "Canadian", "PerMove"]
