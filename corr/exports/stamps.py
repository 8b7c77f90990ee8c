"""Correspondence PGN's sent stamp, ``[%ccsnt]``: the moment a move was sent, as ICCF and SchemingMind write it;
and corr's received date, ``[%ccrd]``, of a move by post or e-mail.

``[%ccsnt 2026.03.01]`` when the clock counts dates (a postcard's or a server game's under article
50.4.4), ``[%ccsnt 2026.03.01,14:05:09]`` when it counts the instant (a server game counting
``whole_days`` or ``exact``, issue 22), the time in the tournament's zone: the form
:mod:`corr.formats.pgn_stamps` reads back (``manage.py clock --pgn``, the tournament import).

``[%ccrd 2026.02.28]`` (issue 37) is the date a player received the move they answer, recorded by them:
by post it is days after the partner's ``[%ccsnt]``, and without it a reader charges those days in transit
as thinking. It stands in the order things happened: before a move's ``[%ccsnt]`` the mover's receipt;
after the last move's (in the pending move's comment) the receipt of the player on move. ICCF's and
SchemingMind's readers do not know it and leave it in the comment (pgn-extract keeps it as written).
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


def ccrd(received_on: date | None) -> str | None:
    """The received date of a postal or e-mail move (or of the pending move's receipt), or None without one."""
    if received_on is None:
        return None
    return "[%ccrd " + received_on.strftime("%Y.%m.%d") + "]"
