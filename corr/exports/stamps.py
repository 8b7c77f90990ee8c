"""Correspondence PGN's sent stamp, ``[%ccsnt]``: the moment a move was sent, as ICCF and SchemingMind write it.

``[%ccsnt 2026.03.01]`` when the clock counts dates (a postcard's or a server game's under article
50.4.4), ``[%ccsnt 2026.03.01,14:05:09]`` when it counts the instant (a server game counting
``whole_days`` or ``exact``, issue 22), the time in the tournament's zone: the form
:mod:`corr.formats.pgn_stamps` reads back (``manage.py clock --pgn``, the tournament import).
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo


def ccsnt(*, sent_on: date | None, sent_at: datetime | None, zone: str, instants: bool) -> str | None:
    """The stamp of a move sent on ``sent_on`` (at ``sent_at``, aware), or None for a move not sent."""
    if instants and sent_at is not None:
        return "[%ccsnt " + sent_at.astimezone(ZoneInfo(zone)).strftime("%Y.%m.%d,%H:%M:%S") + "]"
    if sent_on is None:
        return None
    return "[%ccsnt " + sent_on.strftime("%Y.%m.%d") + "]"
