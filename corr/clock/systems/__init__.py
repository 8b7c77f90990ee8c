"""Every time-control system of the seeds and of the leading servers, behind one interface.

A game file's ``ruleset.time_control`` names a system and its numbers; without
it the 50.4 control (``moves_per_control`` in ``days_per_control``, cumulative)
stands. Two options go with every system: ``double_after`` (ICCF: a move's
days beyond it are charged twice) and ``max_per_move`` (a single move over it
oversteps, as ICCF's 40-day silence rule and FICGS's 60-day rule). Adding a
system is one module and one line in ``SYSTEMS``.

``"unit": "seconds"`` (issue 16) reads every amount of the same systems as
seconds, to the millisecond, held as integer milliseconds: the systems fold
integers and never ask which. Live play's own fields (who moves first, illegal
moves, late arrival, corrections) go beside them in seconds only
(:class:`corr.clock.live.LiveRules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..counts import Count, read_count
from ..errors import ruleset_error
from ..units import Unit, read_unit
from .base import MoveTimes, System, SystemState, whole
from .byoyomi import Byoyomi
from .canadian import Canadian
from .delay import Delay
from .fischer import Fischer
from .per_move import PerMove
from .periods import Periods, Stage, sudden_death

if TYPE_CHECKING:
    from ..live.rules import LiveRules

DGS_DAY_HOURS = 15
"""``time_control.day_hours`` of Dragon Go Server: "15h = 1d incl. 9h sleeping-time" (DGS specs/db/table-Games.txt;
``DAY_LEN = 24 - NIGHT_LEN``, include/time_functions.php)."""

SYSTEMS: dict[str, Callable[[dict, str, Unit], System]] = {
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
    unit: Unit = Unit.DAYS
    """What the system's integers are: days, or milliseconds (``"unit": "seconds"`` in the JSON)."""
    live: "LiveRules | None" = None
    """Live play's own rules (seconds only): who moves first, illegal moves, late arrival, corrections."""
    count: Count = Count.DATES
    """How a move's time is counted (:mod:`corr.clock.counts`); under ``exact`` the system's integers,
    ``double_after`` and ``max_per_move`` are seconds (``unit`` ``days_as_seconds``, or
    ``dgs_days_as_seconds`` with ``"day_hours": 15``: a day of the control is then 15 counted hours)."""

    @property
    def day_seconds(self) -> int:
        """Counted seconds in one day of the rules of this control under ``exact``: 86,400, or 54,000 (DGS)."""
        return self.unit.day_seconds

    def as_json(self) -> dict[str, Any]:
        out = self.system.as_json()
        if self.double_after is not None:
            out["double_after"] = self.unit.write(self.double_after)
        if self.max_per_move is not None:
            out["max_per_move"] = self.unit.write(self.max_per_move)
        if self.unit is Unit.SECONDS:  # a days control's JSON stays as it always was
            out["unit"] = self.unit.value
        if self.count is not Count.DATES:
            out["count"] = self.count.value
        if self.unit is Unit.DGS_DAYS_AS_SECONDS:
            out["day_hours"] = DGS_DAY_HOURS
        if self.live is not None:
            out.update(self.live.as_json())
        return out


def parse_time_control(data: Any, path: str = "ruleset.time_control") -> TimeControl:
    """Read ``ruleset.time_control``. :raises RulesetError: naming the field and the rule."""
    if not isinstance(data, dict):
        raise ruleset_error("system_missing", field=path)
    name = data.get("system")
    parse = SYSTEMS.get(name) if isinstance(name, str) else None
    if parse is None:
        raise ruleset_error("one_of", field=f"{path}.system", known=", ".join(SYSTEMS), value=repr(name))
    unit = read_unit(data, path)
    count = read_count(data, path)
    live = None
    if count is not Count.DATES and unit is Unit.SECONDS:
        raise ruleset_error("count_with_seconds", field=f"{path}.count")
    if unit is Unit.SECONDS:
        from ..live.rules import LIVE_KEYS, LiveRules

        live = LiveRules.parse(data, path)
        data = {k: v for k, v in data.items() if k not in LIVE_KEYS}
        if "double_after" in data:
            raise ruleset_error("double_after_with_seconds", field=f"{path}.double_after")
    else:
        from ..live.rules import LIVE_KEYS

        for key in LIVE_KEYS:
            if key in data:
                raise ruleset_error("live_rule_needs_seconds", field=f"{path}.{key}")
    day_hours = data.get("day_hours", 24)
    if day_hours not in (24, DGS_DAY_HOURS) or isinstance(day_hours, bool) or (
            day_hours != 24 and count is not Count.EXACT):
        # DGS's day of 15 counted hours is a length of counted time: it needs the exact count.
        known = "24, 15 (Dragon Go Server's day)" if count is Count.EXACT else "24 (15 needs count exact)"
        raise ruleset_error("one_of", field=f"{path}.day_hours", known=known, value=repr(day_hours))
    data = {k: v for k, v in data.items() if k not in ("unit", "count", "day_hours")}
    if count is Count.EXACT:  # the same whole days in the JSON, counted in seconds
        unit = Unit.DAYS_AS_SECONDS if day_hours == 24 else Unit.DGS_DAYS_AS_SECONDS
    double_after = whole(data, "double_after", path, required=False)
    if double_after is not None and unit.days_as_seconds:
        double_after *= unit.day_seconds
    return TimeControl(system=parse(data, path, unit), double_after=double_after,
                       max_per_move=unit.read(data, "max_per_move", path, minimum=1, required=False),
                       unit=unit, live=live, count=count)


__all__ = ["SYSTEMS", "TimeControl", "parse_time_control", "MoveTimes", "System", "SystemState",
           "Periods", "Stage", "Fischer", "Delay", "Byoyomi", "Canadian", "PerMove"]
