"""The live service's only clock: integer milliseconds since the Unix epoch (UTC).

Every event of a live game is stamped with ``now_ms()`` and every in-process
timer goes through ``call_at``, so tests replace both with a clock they move by
hand (no sleeps) and production uses the system clock. Call them through the
module (``timesource.now_ms()``) so that the replacement is seen.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


def now_ms() -> int:
    """The server's instant in ms since the epoch."""
    return time.time_ns() // 1_000_000


def call_at(at_ms: int, callback: Callable[[], object]) -> threading.Timer:
    """Run ``callback()`` once at ``at_ms`` in this process, on a daemon timer thread (at once if past).

    The embedded run's stand-in for Celery's ``eta``: eager tasks ignore ``eta``,
    and a flag must still be found at its instant with nobody reading the game.
    Returns the timer: its ``cancel()`` drops a call not yet made.
    """
    timer = threading.Timer(max(0.0, (at_ms - now_ms()) / 1000), callback)
    timer.daemon = True
    timer.start()
    return timer
