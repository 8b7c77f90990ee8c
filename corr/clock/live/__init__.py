"""Live games: the clock in integer milliseconds, server-authoritative, from timestamped events.

Issue 16, part 1. The same systems as the correspondence calculator (:mod:`corr.clock.systems`, in
``"unit": "seconds"``) fold the milliseconds charged to each move; this package turns the events of
a live game (starts, presses, pauses, arbiter actions, service gaps) into those charges, and keeps the
over-the-board rules of the seeds: flags at the instant they fall (000 12.9, 001 1.7.9, 002 6.9),
pauses (002 6.12-6.13), corrections (000 12.5, 001 1.7.8), illegal moves (003 13.4), late arrival
(002 6.6, 003 12.7), both flags fallen (002 6.11). Pure and deterministic: time is the ``now_ms``
parameter.
"""

from .clock import LiveClock, LiveLedgerLine, LivePlayer, SnapshotMismatch, live_clock
from .events import (
    LiveAdjust, LiveEvent, LiveExcuse, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart,
)
from .rules import LIVE_KEYS, SIDES, LiveRules

__all__ = [
    "LiveClock", "LiveLedgerLine", "LivePlayer", "SnapshotMismatch", "live_clock",
    "LiveAdjust", "LiveEvent", "LiveExcuse", "LiveGap", "LiveIllegal", "LiveMove", "LivePause", "LiveResume",
    "LiveStart",
    "LIVE_KEYS", "SIDES", "LiveRules",
]
