"""The beat of a process that takes moves: proof that moves were possible, and the flags due recorded.

Each web process (daphne, gunicorn, ``runserver``: :mod:`corr.asgi` and :mod:`corr.wsgi` start it)
runs one daemon thread that every ``LIVE_BEAT_SECONDS`` beats (:func:`corr.live.gaps.beat`: after a
silence longer than ``LIVE_GAP_MS`` it first gives every running game the outage back) and then
checks the live games whose next instant has passed (:func:`corr.live.sweep.live_sweep`). Nothing of
it goes through Redis or Celery: with Redis down, flags still fall within a beat of their instant,
and the worker's checks, which judge only up to the last beat, never record a flag for an instant at
which no server was up. A forked child (gunicorn ``--preload``) starts its own thread.
"""

from __future__ import annotations

import logging
import os
import threading

from django.conf import settings
from django.db import close_old_connections

from . import timesource

log = logging.getLogger(__name__)
_lock = threading.Lock()
_owner: dict = {"pid": None, "thread": None}


def beat_once(*, now_ms: int) -> dict:
    """One beat at ``now_ms``: the gaps of a silence, the beat, then the flags due.

    :returns: ``{"gaps", "checked", "recorded"}``: games given an outage back, games checked, flags recorded.
    """
    from .gaps import beat
    from .sweep import live_sweep

    gaps = beat(now_ms=now_ms)
    return {"gaps": gaps, **live_sweep(now_ms=now_ms, taking_moves=True)}


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
    stop = threading.Event()
    while True:
        if settings.LIVE_BEAT_SECONDS > 0:  # 0: turned off since (the test suite's settings)
            try:
                beat_once(now_ms=timesource.now_ms())
            except Exception:  # noqa: BLE001 - the database may be down; the next beat retries (a long one is a gap)
                log.exception("live beat failed")
            finally:
                close_old_connections()
        stop.wait(max(settings.LIVE_BEAT_SECONDS, 1))


def _after_fork_in_child() -> None:
    """A forked child (gunicorn ``--preload``) has no thread of its parent's: it starts its own."""
    if _owner["pid"] is not None:
        _owner.update(pid=None, thread=None)
        beating_start()


os.register_at_fork(after_in_child=_after_fork_in_child)
