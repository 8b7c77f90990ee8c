"""How a move's time is counted (``time_control.count``), and the instants that the finer counts read.

Three counts, one per way servers and rulebooks measure a move (issue 22):

- ``dates`` (article 50.4.4, seed 004): a move costs the number of dates from the day its partner's
  move arrived to the day it was sent; a postcard carries nothing finer. The default.
- ``whole_days`` (ICCF Playing Rules 2.4.2, "Playing time is accounted for in whole days (24-hour
  periods)"): a move costs the whole 24-hour periods it took, the rest of a day is not charged.
- ``exact`` (lichess, chess.com): a move costs its exact duration, to the second; a day of a time
  control is 86,400 s, and the flag falls at the instant the time left reaches zero.

Under ``whole_days`` and ``exact`` every dated fact of the game is an instant: an aware
:class:`datetime` in UTC (a subclass of :class:`date`, so the calculator's fields keep their names).
A date given where an instant is read means 00:00 of that date in the game's ``time_zone`` (an IANA
name, default ``UTC``); an ``as_of`` date means the end of that date.

This module is at the bottom of the calculator with :mod:`.units` and :mod:`.errors`: it imports
nothing else of it.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from enum import Enum
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import clock_error, ruleset_error

DAY_SECONDS = 86_400
"""A day of a time control under ``exact``, and the 24-hour period of ``whole_days``."""

DEFAULT_TIME_ZONE = "UTC"


class Count(str, Enum):
    """How a move's time is counted."""

    DATES = "dates"
    """Article 50.4.4: the difference of two calendar dates (postal and e-mail play)."""
    WHOLE_DAYS = "whole_days"
    """ICCF Playing Rules 2.4.2: the whole 24-hour periods a move took; the rest is not charged."""
    EXACT = "exact"
    """lichess and chess.com: the move's exact duration in seconds; the flag falls at zero."""

    @property
    def instants(self) -> bool:
        """True when every dated event needs instants (``received_at`` / ``sent_at``)."""
        return self is not Count.DATES

    @property
    def unit_seconds(self) -> int:
        """Seconds of one of the count's integers: a day (dates, whole days) or a second (exact)."""
        return 1 if self is Count.EXACT else DAY_SECONDS


def read_count(data: dict, path: str) -> Count:
    """``time_control.count``: dates (default), whole_days or exact. :raises RulesetError: naming it."""
    raw = data.get("count", Count.DATES.value)
    try:
        return Count(raw)
    except ValueError:
        known = ", ".join(c.value for c in Count)
        raise ruleset_error("one_of", field=f"{path}.count", known=known, value=repr(raw)) from None


_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})\Z")


def parse_instant(value: Any, field: str) -> datetime:
    """An RFC 3339 date-time with an offset, to the second (``2019-04-11T19:29:00Z``, ``...T22:29:00+03:00``).

    :returns: the same instant as an aware datetime in UTC.
    :raises ClockError: naming ``field``, for anything else: no offset (an instant without one is no
        instant), a fraction of a second (corr keeps instants to the second and would change it).
    """
    if not isinstance(value, str) or not _RFC3339.match(value):
        raise clock_error("instant_format", field=field, value=repr(value))
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise clock_error("instant_unreal", field=field, value=repr(value)) from None
    return parsed.astimezone(UTC)


def moment_text(value: date) -> str:
    """A date as ``2026-01-12``, an instant as ``2026-01-12T10:00:00Z`` (every datetime is also a date)."""
    if isinstance(value, datetime):
        return rfc3339(value) or ""
    return value.isoformat()


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    """The IANA zone ``name``. :raises ClockError: naming ``time_zone`` for an unknown name."""
    if not isinstance(name, str) or not name or name.startswith(("/", ".")) or ".." in name:
        raise clock_error("zone_format", field="time_zone", value=repr(name))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise clock_error("zone_unknown", field="time_zone", value=repr(name)) from None


def start_of(day: date, time_zone: str) -> datetime:
    """00:00 of ``day`` in ``time_zone``, in UTC (what a date means where an instant is read)."""
    return datetime(day.year, day.month, day.day, tzinfo=zone(time_zone)).astimezone(UTC)


def end_of(day: date, time_zone: str) -> datetime:
    """The end of ``day`` in ``time_zone`` (00:00 of the next day), in UTC: what an ``as_of`` date means."""
    return start_of(day + timedelta(days=1), time_zone)


def local_date(instant: datetime, time_zone: str) -> date:
    """The calendar date of ``instant`` in ``time_zone`` (how ``dates`` reads an instant)."""
    return instant.astimezone(zone(time_zone)).date()


def rfc3339(instant: datetime | None) -> str | None:
    """``2024-06-01T18:00:36Z``: an instant as the output writes it (UTC, to the second); None stays None."""
    if instant is None:
        return None
    if instant.tzinfo is not UTC:
        instant = instant.astimezone(UTC)
    # isoformat, not strftime: a few times faster, and every overstepped account writes one
    return f"{instant.replace(microsecond=0).isoformat()[:19]}Z"


def duration_text(seconds: int) -> str:
    """``25 d 11 h 01 min`` (seconds shown only when there are some): how the ledger says a move's time."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    days, rest = divmod(seconds, DAY_SECONDS)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{sign}{days} d {hours:02d} h {minutes:02d} min"
    return text + (f" {secs:02d} s" if secs else "")
