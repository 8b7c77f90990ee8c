"""Days that do not count: a player's leave, the tournament's holidays and weekend days.

The pinned definition (the docs and the tests say it the same way): a move received on ``r``
and sent on ``s`` is charged the number of dates ``d`` with ``r < d <= s`` (and after the
player's start) that are not excluded for that player; a running move likewise up to the
as-of date; the deadline is the last date on which the move can be sent without exceeding the
control, skipping excluded dates.

Counting is arithmetic over a few date ranges and a set of weekdays, never a walk over every
day, so a range of centuries costs what a range of a week does. A date excluded for several
reasons is counted once, under the first of leave, holiday, weekend.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum
from typing import Any

from .errors import clock_error

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


class MoveOnLeave(str, Enum):
    """What a move sent on one of the player's own leave days does (the federations differ)."""

    ALLOWED = "allowed"
    """The move is accepted and the leave stays as booked (SchemingMind): the default."""
    ENDS_LEAVE = "ends_leave"
    """The move ends the leave (myChess): the day before the move is the leave's last day."""
    REFUSED = "refused"
    """No move can be made on a leave day (ICCF): such a move is an error."""


class ExcludedReason(str, Enum):
    """Why a date does not count (the order is the order of precedence)."""

    LEAVE = "leave"
    """The player's own leave (``players.<id>.leave``)."""
    HOLIDAY = "holiday"
    """The tournament's holidays, for both players (``ruleset.holidays``)."""
    WEEKEND = "weekend"
    """The tournament's weekend days, for both players (``ruleset.weekend_days``)."""


@dataclass(frozen=True, slots=True)
class DateRange:
    """Calendar dates ``first`` to ``last``, both included (a game file's ``{"from", "to"}``)."""

    first: date
    last: date

    def as_json(self) -> dict:
        return {"from": self.first.isoformat(), "to": self.last.isoformat()}


def parse_date(value: Any, field: str) -> date:
    """A calendar date written exactly ``YYYY-MM-DD``.

    :raises ClockError: naming ``field`` for anything else.
    """
    if not isinstance(value, str) or len(value) != 10 or value[4] != "-" or value[7] != "-":
        raise clock_error("date_format", field=field, value=repr(value))
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise clock_error("date_unreal", field=field, value=repr(value)) from None


def read_ranges(data: Any, field: str) -> tuple[DateRange, ...]:
    """A list of ``{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}`` objects, both ends included.

    :raises ClockError: naming ``field[i]`` (and the key) for anything malformed or reversed.
    """
    if data is None:
        return ()
    if isinstance(data, tuple) and all(isinstance(r, DateRange) and r.first <= r.last for r in data):
        return data
    if not isinstance(data, (list, tuple)):
        raise clock_error("ranges_not_list", field=field)
    out = []
    for i, item in enumerate(data):
        where = f"{field}[{i}]"
        if isinstance(item, DateRange):
            first, last = item.first, item.last
        else:
            if not isinstance(item, dict) or set(item) != {"from", "to"}:
                raise clock_error("range_not_object", field=where, value=repr(item))
            first, last = parse_date(item["from"], f"{where}.from"), parse_date(item["to"], f"{where}.to")
        if last < first:
            raise clock_error("range_reversed", field=f"{where}.to", where=where, first=first, last=last)
        out.append(DateRange(first, last))
    return tuple(out)


def read_weekend_days(data: Any, field: str = "ruleset.weekend_days") -> tuple[str, ...]:
    """Weekday names (``["saturday", "sunday"]``), in week order, without repeats.

    :raises ClockError: for an unknown name or a week with no day left to count.
    """
    if data is None:
        return ()
    if not isinstance(data, (list, tuple)):
        raise clock_error("weekdays_not_list", field=field, known=", ".join(WEEKDAYS))
    for name in data:
        if name not in WEEKDAYS:
            raise clock_error("weekday_unknown", field=field, value=repr(name), known=", ".join(WEEKDAYS))
    days = tuple(d for d in WEEKDAYS if d in data)
    if len(days) == 7:
        raise clock_error("weekdays_all", field=field)
    return days


def _merge(ranges) -> list[tuple[int, int]]:
    """Ordinal intervals (inclusive), sorted and merged."""
    out: list[list[int]] = []
    for first, last in sorted((r.first.toordinal(), r.last.toordinal()) for r in ranges):
        if out and first <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], last)
        else:
            out.append([first, last])
    return [(a, b) for a, b in out]


def _subtract(ranges: list[tuple[int, int]], minus: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``ranges`` outside ``minus`` (both merged ordinal intervals)."""
    out = []
    for a, b in ranges:
        pieces = [(a, b)]
        for c, d in minus:
            nxt = []
            for x, y in pieces:
                if d < x or c > y:
                    nxt.append((x, y))
                    continue
                if x < c:
                    nxt.append((x, c - 1))
                if d < y:
                    nxt.append((d + 1, y))
            pieces = nxt
        out.extend(pieces)
    return out


def _weekdays_in(first: int, last: int, weekdays: frozenset[int]) -> int:
    """How many ordinals ``first..last`` fall on ``weekdays`` (0 Monday .. 6 Sunday)."""
    if not weekdays or last < first:
        return 0
    n = last - first + 1
    full, rest = divmod(n, 7)
    start = first + full * 7
    return full * len(weekdays) + sum(1 for k in range(rest) if (start + k - 1) % 7 in weekdays)


class Exclusions:
    """One player's excluded dates within one calculation (internal, mutable: a move may end a leave)."""

    __slots__ = ("leave", "holidays", "weekdays", "option")

    def __init__(self, leave, holidays, weekend_days, option: MoveOnLeave) -> None:
        self.leave = _merge(leave)
        self.holidays = _subtract(_merge(holidays), self.leave)  # leave comes first
        self.weekdays = frozenset(WEEKDAYS.index(d) for d in weekend_days)
        self.option = option

    @classmethod
    def of(cls, leave, ruleset) -> "Exclusions | None":
        """The exclusions of a player with ``leave`` under ``ruleset``; None when no day is excluded."""
        if not leave and not ruleset.holidays and not ruleset.weekend_days:
            return None
        return cls(leave, ruleset.holidays, ruleset.weekend_days, ruleset.move_on_leave)

    def counts(self, after: date, through: date) -> tuple[int, ...]:
        """Excluded dates ``d`` with ``after < d <= through``: (leave, holiday, weekend)."""
        lo, hi = after.toordinal() + 1, through.toordinal()
        if hi < lo:
            return 0, 0, 0
        weekdays = self.weekdays
        weekend = _weekdays_in(lo, hi, weekdays)
        counted = []
        for ranges in (self.leave, self.holidays):
            total = 0
            for a, b in ranges:
                x, y = max(a, lo), min(b, hi)
                if x <= y:
                    total += y - x + 1
                    weekend -= _weekdays_in(x, y, weekdays)
            counted.append(total)
        return counted[0], counted[1], weekend

    def reason(self, day: date) -> ExcludedReason | None:
        """Why ``day`` does not count, or None when it does."""
        o = day.toordinal()
        if any(a <= o <= b for a, b in self.leave):
            return ExcludedReason.LEAVE
        if any(a <= o <= b for a, b in self.holidays):
            return ExcludedReason.HOLIDAY
        if (o - 1) % 7 in self.weekdays:
            return ExcludedReason.WEEKEND
        return None

    def leave_on(self, day: date) -> tuple[int, int] | None:
        """The player's leave interval holding ``day`` (ordinals), if any."""
        o = day.toordinal()
        return next(((a, b) for a, b in self.leave if a <= o <= b), None)

    def end_leave(self, day: date) -> None:
        """A move sent on ``day`` ends the leave holding it: the day before is its last day."""
        span = self.leave_on(day)
        if span is None:
            return
        a, _b = span
        i = self.leave.index(span)
        if day.toordinal() > a:
            self.leave[i] = (a, day.toordinal() - 1)
        else:
            del self.leave[i]

    def date_after(self, first: date, counted: int, *, stop_at_leave: bool = False) -> date:
        """The last date reached after ``counted`` counted days from ``first`` (exclusive).

        The date of the ``counted``-th counted day after ``first`` (``first`` itself for 0), then
        every excluded date right after it: sending on them costs nothing more. With
        ``stop_at_leave`` the player's own leave days are not added (moves are refused on them).
        """
        day = first + timedelta(days=counted)
        while True:  # each round adds the days excluded since the last; at most a few rounds
            short = counted - ((day - first).days - sum(self.counts(first, day)))
            if short <= 0:
                break
            day += timedelta(days=short)
        while day > first and self.reason(day) is not None:  # back to the counted-th counted day
            day -= timedelta(days=1)
        while True:
            nxt = day + timedelta(days=1)
            why = self.reason(nxt)
            if why is None or (stop_at_leave and why is ExcludedReason.LEAVE):
                return day
            day = nxt


REASONS = ("leave", "holiday", "weekend", "night", "vacation", "pause")
"""Why time does not count, in the order of precedence of :mod:`corr.clock.personal`'s slots (the first
three are the tournament's calendar and the player's leave; the others a player's own, issue 40)."""


def excluded_note(*amounts: int) -> str:
    """``"3 day(s) not counted: 2 leave, 1 weekend"`` from whole days by reason (``REASONS``' order); empty
    when nothing was excluded."""
    parts = [f"{n} {why}" for n, why in zip(amounts, REASONS, strict=False) if n]
    if not parts:
        return ""
    return f"{sum(amounts)} day(s) not counted: {', '.join(parts)}"
