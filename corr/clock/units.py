"""The unit a time control counts in: whole days (correspondence) or integer milliseconds (live play).

Every system of :mod:`corr.clock.systems` folds integers and never asks what they are; the unit is
given to it when the ruleset is read (a parameter, not a copy of the system). In ``seconds`` the JSON
amounts are seconds, fractional to the millisecond (``0.25``), held as integer milliseconds so that
sums never round (issue 16, part 1).
"""

from __future__ import annotations

import re
from functools import lru_cache
from enum import Enum
from typing import Any, Literal, overload

from .errors import ruleset_error

DAY_SECONDS = 86_400
DGS_DAY_SECONDS = 15 * 3600
"""Dragon Go Server's day: 15 counted hours (``DAY_LEN = 24 - NIGHT_LEN``, include/time_functions.php; its
clocks tick only outside each player's 9-hour night, clock_tick.php: "A particular counter is incremented only
15 hours per days", specs/db/DB-Tables.sql; ``time_convert_to_hours`` turns a day into 15 hours)."""


class Unit(str, Enum):
    """What one integer of a system's amounts means."""

    DAYS = "days"
    """Whole days: the correspondence calculator (article 50.4 and the servers' day controls)."""
    SECONDS = "seconds"
    """Seconds in the JSON, integer milliseconds inside: live play (draughts 12, FIDE 6, Go 12-17)."""
    DAYS_AS_SECONDS = "days_as_seconds"
    """Whole days in the JSON, integer seconds inside: a correspondence control counted ``exact``
    (lichess and chess.com, issue 22). Never written as a game file's ``unit``: the count says it."""
    DGS_DAYS_AS_SECONDS = "dgs_days_as_seconds"
    """Whole days in the JSON of 15 counted hours each, integer seconds inside: a control counted ``exact``
    with ``"day_hours": 15`` (Dragon Go Server, whose clock runs 15 hours a day, ``DGS_DAY_SECONDS``)."""

    @property
    def day_seconds(self) -> int:
        """Seconds of one day of the JSON under an ``exact`` count: 86,400, or 54,000 for DGS's day."""
        return DGS_DAY_SECONDS if self is Unit.DGS_DAYS_AS_SECONDS else DAY_SECONDS

    @property
    def days_as_seconds(self) -> bool:
        """True when the JSON's whole days are held as seconds (the ``exact`` count)."""
        return self is Unit.DAYS_AS_SECONDS or self is Unit.DGS_DAYS_AS_SECONDS

    @property
    def suffix(self) -> str:
        """The suffix of the state's field names in this unit: ``days`` or ``ms``."""
        return {"days": "days", "seconds": "ms"}.get(self.value, "seconds")

    @overload
    def read(self, data: dict, key: str, path: str, minimum: int = 0, required: Literal[True] = True,
             default: int | None = None) -> int: ...

    @overload
    def read(self, data: dict, key: str, path: str, minimum: int = 0, *, required: bool,
             default: int | None = None) -> int | None: ...

    def read(self, data: dict, key: str, path: str, minimum: int = 0, required: bool = True,
             default: int | None = None) -> int | None:
        """An amount of time of a system's JSON: whole days, or seconds (to the ms) as integer ms.

        ``minimum`` is in the unit's integers (1 day; 1 ms).
        :raises RulesetError: naming ``path.key`` and the rule broken.
        """
        if key not in data or data[key] is None:
            if required:
                raise ruleset_error("required", field=f"{path}.{key}")
            return default
        value = data[key]
        field = f"{path}.{key}"
        if self is Unit.DAYS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ruleset_error("not_whole", field=field, value=repr(value))
            if value < minimum:
                raise ruleset_error("at_least", field=field, minimum=minimum, value=value)
            return value
        if self.days_as_seconds:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ruleset_error("not_whole_days", field=field, value=repr(value))
            if value * self.day_seconds < minimum:
                raise ruleset_error("at_least", field=field, minimum=1, value=value)
            return value * self.day_seconds
        ms = seconds_to_ms(value, field)
        if ms < minimum:
            least = "more than 0" if minimum == 1 else f"at least {self.write(minimum)}"
            raise ruleset_error("seconds_at_least", field=field, least=least, value=repr(value))
        return ms

    def write(self, amount: int | None) -> Any:
        """An amount as the JSON gives it: days as they are; ms as seconds (whole when they are)."""
        if amount is None or self is Unit.DAYS:
            return amount
        if self.days_as_seconds:
            day = self.day_seconds
            return amount // day if amount % day == 0 else amount / day
        return ms_to_seconds(amount)

    def name_state(self, clock: dict[str, Any]) -> dict[str, Any]:
        """A system's state with its ``days`` fields named in this unit (``period_days`` -> ``period_ms``)."""
        if self is Unit.DAYS:
            return clock
        return {_renamed(k, self.value): v for k, v in clock.items()}


_DAYS_WORD = re.compile(r"(^|_)days(_|$)")  # ``block_days_left`` -> ``block_ms_left``


@lru_cache(maxsize=512)
def _renamed(key: str, unit: str) -> str:
    """``key`` with its word ``days`` in ``unit`` (``ms`` for seconds): the systems' few names, renamed once."""
    return _DAYS_WORD.sub(r"\1ms\2" if unit == Unit.SECONDS.value else r"\1seconds\2", key)

# The largest amount accepted: 10 years in seconds; a longer live clock is a typing mistake.
MAX_SECONDS = 10 * 366 * 24 * 3600


def seconds_to_ms(value: Any, field: str) -> int:
    """``value`` seconds (a JSON number, at most three decimals) as integer milliseconds.

    :raises RulesetError: for a non-number, a negative number, a finer fraction than the millisecond.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ruleset_error("not_seconds", field=field, value=repr(value))
    if value != value or value < 0 or value > MAX_SECONDS:  # NaN compares unequal to itself
        raise ruleset_error("seconds_range", field=field, maximum=MAX_SECONDS, value=repr(value))
    ms = round(value * 1000)
    if abs(value * 1000 - ms) > 1e-6:
        raise ruleset_error("seconds_fraction", field=field, value=repr(value))
    return ms


def ms_to_seconds(ms: int) -> int | float:
    """Integer milliseconds as JSON seconds: an int when whole, else a float to the millisecond."""
    return ms // 1000 if ms % 1000 == 0 else ms / 1000


def read_unit(data: dict, path: str) -> Unit:
    """``time_control.unit``: ``days`` (default) or ``seconds``. :raises RulesetError: for another value."""
    raw = data.get("unit", Unit.DAYS.value)
    if raw not in (Unit.DAYS.value, Unit.SECONDS.value):  # days_as_seconds is the exact count's, never given
        raise ruleset_error("unit_unknown", field=f"{path}.unit", value=repr(raw))
    return Unit(raw)
