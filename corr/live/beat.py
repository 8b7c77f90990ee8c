"""The beat of a process that takes moves: proof that moves were possible, and the flags due recorded.

Each web process (daphne, gunicorn, ``runserver``: :mod:`corr.asgi` and :mod:`corr.wsgi` start it)
runs one daemon thread that every ``LIVE_BEAT_SECONDS`` beats (:func:`corr.live.gaps.beat`: after a
silence longer than ``LIVE_GAP_MS`` it first gives every running game the outage back) and then
checks the live games whose next instant has passed (:func:`corr.live.sweep.live_sweep`). The same
thread is the process's timer for the flags of the games it changed (:func:`check_at`): at a flag's
instant it checks the game as a process that takes moves, which is the proof that the service was up
then, so the flag is recorded at once. Nothing of it goes through Redis or Celery: with Redis down,
flags still fall at their instant, and the worker's checks, which judge only up to the last beat,
never record a flag for an instant at which no server was up. A forked child (gunicorn
``--preload``) starts its own thread.
"""

from __future__ import annotations

import heapq
import logging
import os
import threading
import time

from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections

from . import timesource
from .gaps import beat
from .services import live_check
from .sweep import live_sweep

log = logging.getLogger(__name__)
_lock = threading.Lock()
_owner: dict = {"pid": None, "thread": None}
_wake = threading.Condition()
_timers: list[tuple[int, int, int]] = []
"""The heap of this process's flag checks: ``(at_ms, game_id, version)``."""
_latest: dict[int, tuple[int, int]] = {}
"""Per game, the check that counts: ``(at_ms, version)`` of its last change (older entries of the heap are skipped)."""


def beat_once(*, now_ms: int) -> dict:
    """One beat at ``now_ms``: the gaps of a silence, the beat, then the flags due.

    :returns: ``{"gaps", "checked", "recorded"}``: games given an outage back (live games' gaps and server games'
        credits), games checked, flags recorded.
    """
    gaps = beat(now_ms=now_ms)
    return {"gaps": gaps, **live_sweep(now_ms=now_ms, taking_moves=True)}


def check_at(*, game_id: int, version: int, at_ms: int) -> bool:
    """Check game ``game_id`` (as of ``version``) at ``at_ms`` on this process's beat thread.

    Returns False when this process does not beat (then only Celery's check and the sweeps find it).
    A later call for the same game replaces the earlier one.
    """
    if not _running():
        return False
    with _wake:
        _latest[game_id] = (at_ms, version)
        heapq.heappush(_timers, (at_ms, game_id, version))
        _wake.notify()
    return True


def _running() -> bool:
    thread = _owner["thread"]
    return _owner["pid"] == os.getpid() and thread is not None and thread.is_alive() \
        and settings.LIVE_BEAT_SECONDS > 0


def _due_checks(now_ms: int) -> list[tuple[int, int]]:
    """Pop the checks due by ``now_ms`` that are still the latest of their game: ``[(game_id, version)]``."""
    due = []
    with _wake:
        while _timers and _timers[0][0] <= now_ms:
            at_ms, game_id, version = heapq.heappop(_timers)
            if _latest.get(game_id) == (at_ms, version):
                del _latest[game_id]
                due.append((game_id, version))
    return due


def beating_start() -> bool:
    """Start this process's beat thread once (a no-op when ``LIVE_BEAT_SECONDS`` is 0); returns whether it runs."""
    if settings.LIVE_BEAT_SECONDS <= 0:
        return False
    with _lock:
        thread = _owner["thread"]
        if _owner["pid"] == os.getpid() and thread is not None and thread.is_alive():
            return True
        thread = threading.Thread(target=_beat_forever, name="corr-live-beat", daemon=True)
        _owner.update(pid=os.getpid(), thread=thread)
        thread.start()
        return True


def _beat_forever() -> None:
    # The first beat at once: a server restarted after an outage gives the time back before any flag.
    next_beat = 0.0
    while True:
        interval = max(settings.LIVE_BEAT_SECONDS, 1)
        try:
            if settings.LIVE_BEAT_SECONDS > 0:  # 0: turned off since (the test suite's settings)
                for game_id, version in _due_checks(timesource.now_ms()):
                    live_check(game_id=game_id, version=version, now_ms=timesource.now_ms(), taking_moves=True)
                if time.monotonic() >= next_beat:
                    beat_once(now_ms=timesource.now_ms())
                    next_beat = time.monotonic() + interval
        except (OperationalError, InterfaceError) as error:
            # The database is down or unreachable (issue 42): not a bug, no traceback; the next beat retries
            # (a long silence is a gap).
            first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
            log.warning("live beat failed: the database is unavailable (%s)", first_line)
            next_beat = time.monotonic() + interval
        except Exception:  # noqa: BLE001 - the next beat retries
            log.exception("live beat failed")
            next_beat = time.monotonic() + interval
        finally:
            close_old_connections()
        with _wake:
            wait = next_beat - time.monotonic()
            if _timers:
                wait = min(wait, (_timers[0][0] - timesource.now_ms()) / 1000)
            if wait > 0:
                _wake.wait(wait)


def _after_fork_in_child() -> None:
    """A forked child (gunicorn ``--preload``) has no thread of its parent's: it starts its own."""
    if _owner["pid"] is not None:
        _owner.update(pid=None, thread=None)
        beating_start()


os.register_at_fork(after_in_child=_after_fork_in_child)
