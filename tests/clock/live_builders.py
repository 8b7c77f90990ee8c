"""Small builders for live-clock tests: rulesets in seconds and games of alternating presses."""

from __future__ import annotations

from corr.clock import Ruleset
from corr.clock.live import LiveMove, LiveStart, live_clock

T0 = 1_796_032_800_000  # 2026-11-30T10:00:00Z in ms since the epoch
S = 1000  # one second in ms


def seconds(spec: dict, **live) -> Ruleset:
    """A ruleset whose time control is ``spec`` in seconds, with live fields ``live``."""
    return Ruleset.from_mapping({"time_control": {**spec, "unit": "seconds", **live}})


def presses(thinking_ms: list[int], first: str = "white", start: int = T0, lag_ms: list[int] | None = None):
    """The start and one press per thinking time, the sides alternating from ``first``.

    :returns: (events, the instant of the last press).
    """
    events, t = [LiveStart(start)], start
    made = {"white": 0, "black": 0}
    side = first
    for i, spent in enumerate(thinking_ms):
        t += spent
        made[side] += 1
        events.append(LiveMove(side, made[side], t, lag_ms[i] if lag_ms else 0))
        side = "black" if side == "white" else "white"
    return events, t


def clock_after(ruleset: Ruleset, thinking_ms: list[int], running_ms: int = 0, **kw):
    """The clock ``running_ms`` after the last of ``thinking_ms``'s presses."""
    events, t = presses(thinking_ms, **kw)
    return live_clock(ruleset, events, t + running_ms)
