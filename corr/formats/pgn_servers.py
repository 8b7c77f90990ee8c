"""What lichess and chess.com write beside the moves: the start's tags and the daily clocks (Django-free).

- **The start.** ``[UTCDate "2026.03.02"]`` with ``[UTCTime "15:02:11"]`` (lichess, chess.com and corr's
  own live exports) is the instant the game started, in UTC; chess.com also writes ``[StartTime
  "15:02:11"]`` in its ``[Timezone]`` (always ``UTC`` in its exports), read with ``UTCDate`` when
  ``UTCTime`` is missing. ``Date`` alone says a day, not when in it: read as 00:00, it charges an
  afternoon start's first move the whole morning (issue 37).
- **The daily clocks.** chess.com's daily games (``[TimeControl "1/259200"]``: one move in 3 days, the
  clock set back to 3 days after every move) carry no sent stamps but the mover's clock after each
  move, ``{[%clk 71:58:43]}``. The move's thinking time is the allowance less that clock, so from the
  start instant every move's sent instant follows: the server's own times, to the second.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta, timezone

UTC_ZONE_NAMES = frozenset({"UTC", "GMT", "Etc/UTC", "Z"})
_DATE = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})")
_TIME = re.compile(r"(\d{1,2}):(\d{2}):(\d{2})")
_CLK = re.compile(r"\[%clk\s+(\d+):(\d{2}):(\d{2}(?:\.\d+)?)\]")
_PER_MOVE = re.compile(r"1/(\d+)")


class ServerTagError(ValueError):
    """A start tag or a daily clock that cannot be read; ``str()`` says which, without the game's name."""


def start_instant(headers) -> tuple[datetime, str] | None:
    """The game's start in UTC and the tags that said it (``UTCDate/UTCTime``), or None when none do.

    :raises ServerTagError: for a tag that is there but is no date or time.
    """
    day_text = headers.get("UTCDate", "").strip()
    if not day_text or "?" in day_text:
        return None
    for tag in ("UTCTime", "StartTime"):
        clock_text = headers.get(tag, "").strip()
        if not clock_text or "?" in clock_text:
            continue
        if tag == "StartTime" and headers.get("Timezone", "UTC").strip() not in UTC_ZONE_NAMES:
            continue  # chess.com's StartTime in another zone would not go with UTCDate
        day, clock = _DATE.fullmatch(day_text), _TIME.fullmatch(clock_text)
        try:
            if day is None or clock is None:
                raise ValueError
            moment = datetime(*map(int, day.groups()), tzinfo=timezone.utc)
            moment = datetime.combine(moment.date(), time(*map(int, clock.groups())), tzinfo=timezone.utc)
        except ValueError:
            raise ServerTagError(f'[UTCDate "{day_text}"] [{tag} "{clock_text}"] is no instant'
                                 " (YYYY.MM.DD and HH:MM:SS, in UTC)") from None
        return moment, f"UTCDate/{tag}"
    return None


def daily_allowance(time_control: str) -> timedelta | None:
    """The time a move of ``TimeControl`` ``1/N`` (N seconds a move, chess.com's daily games); else None."""
    match = _PER_MOVE.fullmatch(time_control.strip())
    return timedelta(seconds=int(match.group(1))) if match else None


def clock_left(comment: str) -> tuple[timedelta, str] | None:
    """The ``[%clk H:MM:SS]`` of a move's comment (the mover's time left after it), with its text; else None."""
    match = _CLK.search(comment)
    if match is None:
        return None
    hours, minutes, seconds = match.groups()
    return timedelta(hours=int(hours), minutes=int(minutes), seconds=float(seconds)), match.group(0)


def daily_sent_instants(clocks: list[timedelta], *, start: datetime, allowance: timedelta) -> list[datetime]:
    """Each move's sent instant, from the start and the clock after each move (each move's thinking is
    ``allowance - clock``; the next move's time runs from the previous one's instant, as on a server).

    Whole seconds: chess.com writes them so, and a fraction (lichess) is rounded, never summed.
    :raises ServerTagError: naming the ply (1-based) of a clock above the allowance.
    """
    out, at = [], start
    for ply, left in enumerate(clocks, start=1):
        if left > allowance:
            raise ServerTagError(f"ply {ply}: the clock after the move is more than the {allowance} a move")
        at = at + timedelta(seconds=round((allowance - left).total_seconds()))
        out.append(at)
    return out
