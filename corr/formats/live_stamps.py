"""corr's commands of a live game's clock in its PGN, PDN and SGF comments, written and read back (Django-free).

A live game's clock is computed from its events alone (:mod:`corr.clock.live`), which the live game file
holds as JSON (:mod:`corr.clock.live.gamefile`). corr's live exports carry the same events as commands in
the comments, beside the PGN supplement's ``[%clk]`` (the clock after the press, which readers such as
python-chess already read), so that ``manage.py clock FILE.pgn --preset NAME_live`` computes the game's own
live clock from the file. Each command is one event of the live game file, its instants ISO 8601 UTC to the
millisecond::

    [%ccbegin 2026-03-01T12:00:00.000Z]              the clocks started ("start")
    [%cchandicap 3]                                  black's free handicap stones, placed on no running clock
                                                     (issue 40, OGS; the start's ``handicap_stones``)
    [%ccpress white 1 2026-03-01T12:00:10.000Z]      white's move 1, pressed then ("move")
    [%ccend black 31 2026-03-01T13:10:02.000Z]       a move that ended the game, complete without the press
                                                     (002 6.7 a: a mate, a stalemate; "move", ends_game)
    [%cclag 250]                                     the lag reported for the press just before, in ms
    [%ccpause 2026-03-01T12:01:14.500Z]              the arbiter stopped both clocks ("pause")
    [%ccstop black 2026-03-01T12:01:14.500Z]         a player stopped both clocks ("pause" with its player)
    [%ccresume 2026-03-01T12:11:14.500Z]             the arbiter restarted them ("resume")
    [%ccadjust black +60 2026-03-01T12:11:14.500Z]   seconds added (+) to or taken (-) from a clock ("adjust")
    [%ccillegal white 2026-03-01T12:05:00.000Z]      an illegal move declared ("illegal")
    [%ccexcuse black 2026-03-01T13:00:00.000Z]       a late arrival excused ("excuse")
    [%ccgap 2026-03-01T12:20:00.000Z 2026-03-01T12:25:00.000Z]  the service was down: no one's time ("gap")
    [%ccnow 2026-03-01T12:12:56.500Z]                the instant the file's clocks are as of ("now")

They stand in the order the events happened, before the words that say the same to a person (programs that
show comments hide ``[%...]`` commands, so the words keep their instants). A reader takes every comment of
the game in order (before the first move, after each move, after the last), and the moves themselves only
from the commands: a live move written without notation (in a comment) counts as any other.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from corr.clock.errors import ClockError
from corr.clock.live.events import (
    LiveAdjust, LiveEvent, LiveExcuse, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart,
)
from corr.clock.live.gamefile import instant_ms, write_live_event

_WORDS = {"ccbegin": ("AT",), "ccpress": ("PLAYER", "NUMBER", "AT"), "ccend": ("PLAYER", "NUMBER", "AT"),
          "cclag": ("MS",), "cchandicap": ("STONES",), "ccpause": ("AT",), "ccstop": ("PLAYER", "AT"),
          "ccresume": ("AT",),
          "ccadjust": ("PLAYER", "SECONDS", "AT"), "ccillegal": ("PLAYER", "AT"), "ccexcuse": ("PLAYER", "AT"),
          "ccgap": ("FROM", "TO"), "ccnow": ("AT",)}
"""Each command and its words."""
_COMMAND = re.compile(r"\[%(" + "|".join(_WORDS) + r")\s+([^\]]*)\]")
_SECONDS = re.compile(r"([+-])(\d+)(?:\.(\d{1,3}))?")
SIDES = ("white", "black")


class LiveStampError(ValueError):
    """A live game's comments that cannot be read; ``str()`` is one line naming the game and the command."""


def instant(ms: int) -> str:
    """Integer ms since the epoch as ISO 8601 UTC to the millisecond: ``2026-03-01T12:00:10.250Z``."""
    return datetime.fromtimestamp(ms // 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"


def _seconds(ms: int) -> str:
    whole, part = divmod(abs(ms), 1000)
    return ("-" if ms < 0 else "+") + str(whole) + (f".{part:03d}".rstrip("0") if part else "")


def live_command(event: LiveEvent) -> str:
    """The command of one engine event (a press's lag follows it as ``[%cclag MS]``)."""
    if isinstance(event, LiveStart):
        stones = f" [%cchandicap {event.handicap_stones}]" if event.handicap_stones else ""
        return f"[%ccbegin {instant(event.at_ms)}]{stones}"
    if isinstance(event, LiveMove):
        name = "ccend" if event.ends_game else "ccpress"
        lag = f" [%cclag {event.lag_ms}]" if event.lag_ms else ""
        return f"[%{name} {event.player} {event.number} {instant(event.at_ms)}]{lag}"
    if isinstance(event, LivePause):
        if event.player is None:
            return f"[%ccpause {instant(event.at_ms)}]"
        return f"[%ccstop {event.player} {instant(event.at_ms)}]"
    if isinstance(event, LiveResume):
        return f"[%ccresume {instant(event.at_ms)}]"
    if isinstance(event, LiveAdjust):
        return f"[%ccadjust {event.player} {_seconds(event.delta_ms)} {instant(event.at_ms)}]"
    if isinstance(event, LiveIllegal):
        return f"[%ccillegal {event.player} {instant(event.at_ms)}]"
    if isinstance(event, LiveExcuse):
        return f"[%ccexcuse {event.player} {instant(event.at_ms)}]"
    return f"[%ccgap {instant(event.from_ms)} {instant(event.to_ms)}]"


def now_command(now_ms: int) -> str:
    """The command of the instant the file's clocks are as of."""
    return f"[%ccnow {instant(now_ms)}]"


def has_live_commands(text: str) -> bool:
    """True when ``text`` (a file's content) holds a live game's commands."""
    return _COMMAND.search(text) is not None


def live_game_file(comments: list[str], *, ruleset: dict, label: str, meta: dict[str, Any]) -> dict:
    """The live game file (:mod:`corr.clock.live.gamefile`) of a game whose comments, in order, are ``comments``.

    ``ruleset`` (a live one: ``"unit": "seconds"``) is copied in as given; ``now`` is the last ``[%ccnow]``'s
    instant when there is one; ``meta`` is kept as the file's ``meta``.
    :raises LiveStampError: for a game without ``[%ccbegin]``, a command whose words cannot be read
        (``label`` and the command named), a ``[%cclag]`` that follows no press.
    """
    events: list[dict[str, Any]] = []
    now: int | None = None
    for comment in comments:
        for name, text in _COMMAND.findall(comment):
            words = text.split()
            where = f"{label}: [%{name} {text.strip()}]"
            if len(words) != len(_WORDS[name]) or ("PLAYER" in _WORDS[name] and words[0] not in SIDES):
                raise LiveStampError(f"{where} is not [%{name} {' '.join(_WORDS[name])}]")
            if name == "ccnow":
                now = _at(words[0], where)
            elif name == "cclag":
                if not events or events[-1]["type"] != "move" or "lag_ms" in events[-1]:
                    raise LiveStampError(f"{where} follows no press ([%ccpress] or [%ccend])")
                if not words[0].isdigit():
                    raise LiveStampError(f"{where}: {words[0]!r} is not a whole number of milliseconds")
                if int(words[0]):
                    events[-1]["lag_ms"] = int(words[0])
            elif name == "cchandicap":
                if not events or events[-1]["type"] != "start" or "handicap_stones" in events[-1]:
                    raise LiveStampError(f"{where} follows no [%ccbegin]")
                if not words[0].isdigit():
                    raise LiveStampError(f"{where}: {words[0]!r} is not a whole number of stones")
                if int(words[0]):
                    events[-1]["handicap_stones"] = int(words[0])
            else:
                events.append(write_live_event(_event(name, words, where)))
    if not any(e["type"] == "start" for e in events):
        raise LiveStampError(f"{label}: no [%ccbegin] command: a live game's file from corr says when its clocks"
                             " started (and every press, pause and adjustment after it)")
    data: dict[str, Any] = {"ruleset": ruleset}
    if now is not None:
        data["now"] = instant(now)
    data["events"] = events
    data["meta"] = meta
    return data


def _event(name: str, words: list[str], where: str) -> LiveEvent:
    if name == "ccbegin":
        return LiveStart(_at(words[0], where))
    if name in ("ccpress", "ccend"):
        if not words[1].isdigit() or int(words[1]) < 1:
            raise LiveStampError(f"{where}: {words[1]!r} is not a move number (1, 2 ...)")
        return LiveMove(words[0], int(words[1]), _at(words[2], where), ends_game=name == "ccend")
    if name == "ccpause":
        return LivePause(_at(words[0], where))
    if name == "ccstop":
        return LivePause(_at(words[1], where), words[0])
    if name == "ccresume":
        return LiveResume(_at(words[0], where))
    if name == "ccadjust":
        if (match := _SECONDS.fullmatch(words[1])) is None:
            raise LiveStampError(f"{where}: {words[1]!r} is not signed seconds (+60, -30, +0.5)")
        sign, whole, part = match.groups()
        ms = int(whole) * 1000 + int((part or "0").ljust(3, "0"))
        return LiveAdjust(words[0], -ms if sign == "-" else ms, _at(words[2], where))
    if name == "ccillegal":
        return LiveIllegal(words[0], _at(words[1], where))
    if name == "ccexcuse":
        return LiveExcuse(words[0], _at(words[1], where))
    return LiveGap(_at(words[0], where), _at(words[1], where))


def _at(text: str, where: str) -> int:
    try:
        return instant_ms(text, "instant")
    except ClockError:
        raise LiveStampError(f"{where}: {text!r} is not an instant (2026-03-01T12:00:10.250Z)") from None
