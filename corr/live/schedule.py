"""The scheduled flag check: a Celery task at the computed instant, or an in-process timer when tasks run eagerly.

Celery's ``eta`` keeps the task in the worker's memory until the instant; with
Redis' visibility timeout (1 h) a task due later may be delivered twice, which is
harmless (the check carries the game's version and settles under the row lock).
A message lost with Redis or a restarted worker is caught by the sweep
(``LIVE_SWEEP_SECONDS``). Eager tasks (the embedded run, no ``REDIS_URL``) would run
at once and ignore ``eta``: there a daemon timer of this process calls the check at
the instant, and the sweep runs in a daemon thread of the process too
(``LIVE_INPROCESS_SWEEP``).

The checks are announced by the writes (:mod:`corr.live.timers`, connected in ``CorrConfig.ready``)
and queued by the task's name, routed to the flags' own queue (``FLAG_QUEUE``, ``CELERY_TASK_ROUTES``):
behind no sweep, nightly chunk or e-mail (issue 27). A worker started without ``-Q`` consumes every
queue of ``CELERY_TASK_QUEUES``, this one included; production gives it a worker of its own
(``celery -A corr worker -Q flags``, docs/live.md).
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime

from django.conf import settings
from django.db import close_old_connections

from corr.handoff import handoff

from . import beat, timers, timesource
from .services import live_check
from .sweep import live_sweep

FLAG_CHECK_TASK = "corr.live_flag_check"
"""The task's name (:func:`corr.live.tasks.live_flag_check`), queued by name: this module sits below the tasks."""

log = logging.getLogger(__name__)
_sweeper_lock = threading.Lock()
_sweeper: threading.Thread | None = None


def eager() -> bool:
    from corr.celery import app

    return bool(app.conf.task_always_eager)


def check_at(*, game_id: int, version: int, at_ms: int, **_signal) -> None:
    """Check game ``game_id`` (as of ``version``) for a flag at ``at_ms``; never raises (the sweep is the backstop)."""
    if eager():
        timesource.call_at(at_ms, lambda: _run_check(game_id, version))
        sweeper_ensure()
        return
    from corr.celery import app

    # This process's beat thread checks at the instant (it takes moves: its check is the proof that
    # the service was up then). Queued to Celery only when this process has no beat thread (a server run
    # with LIVE_BEAT_SECONDS=0, a management command): should this process die first, the flag waits for
    # the next beat of any process that takes moves (its sweep, within LIVE_BEAT_SECONDS), and with no such
    # process up no flag may fall anyway (corr.live.gaps). Issue 27: the queued task cost every press a
    # publish to Redis for a timer that the beat thread kept already.
    if beat.check_at(game_id=game_id, version=version, at_ms=at_ms):
        return
    # On the handoff thread: a stopped Redis delays no answer (issue 23). No retries: a check not
    # queued is found by the move-taking process's beat (corr.live.beat) within LIVE_BEAT_SECONDS.
    eta = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    handoff(f"live flag check of game {game_id}",
            lambda: app.send_task(FLAG_CHECK_TASK, args=(game_id, version), eta=eta, retry=False))


timers.check_due.connect(check_at, dispatch_uid="corr.live.schedule.check_at")


def _run_check(game_id: int, version: int) -> None:
    in_thread = threading.current_thread() is not threading.main_thread()
    try:
        # The embedded run's timer runs in the web process, which takes moves.
        live_check(game_id=game_id, version=version, now_ms=timesource.now_ms(), taking_moves=True)
    except Exception:  # noqa: BLE001 - a timer thread has no one to report to; the sweep retries
        log.exception("in-process live flag check of game %s failed", game_id)
    finally:
        if in_thread:
            close_old_connections()


def sweeper_ensure() -> None:
    """Start this process's sweep thread once, when tasks run eagerly and ``LIVE_INPROCESS_SWEEP`` is on."""
    global _sweeper
    if not settings.LIVE_INPROCESS_SWEEP or not eager():
        return
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="corr-live-sweep", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    stop = threading.Event()
    while not stop.wait(settings.LIVE_SWEEP_SECONDS):
        try:
            live_sweep(now_ms=timesource.now_ms())
        except Exception:  # noqa: BLE001 - keep sweeping; the next round retries
            log.exception("in-process live sweep failed")
        finally:
            close_old_connections()
