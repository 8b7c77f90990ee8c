"""A server game's next flag, queued at its instant when the clocks that carry it are stored (issue 22).

Under an instant count (``whole_days``, ``exact``) a server game's flag falls
between two nights; ``PlayerClock.flag_at`` says when. Every store of a game's
clocks queues one check at the earliest ``flag_at``, carrying the version the
clocks are of, once the transaction commits: a later event raises the version,
so the check it made stale does nothing and the new one takes over. The task
is named, not imported: the check belongs to the layer above (``corr.timeouts``),
which this one never calls. A lost message is caught by that layer's sweep.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from django.db import transaction

from corr.handoff import handoff

log = logging.getLogger(__name__)

FLAG_CHECK_TASK = "corr.server_flag_check"
"""The task of ``corr.timeouts.tasks``: ``(game_id, version)``, run at the flag's instant."""
FLAG_SWEEP_TASK = "corr.server_flag_sweep"
"""The sweep of ``corr.timeouts.tasks`` (no arguments)."""


def flag_next(fields: dict[str, dict]) -> tuple[datetime, int] | None:
    """The earliest ``flag_at`` among a game's stored clock fields (``clock_fields``), with their version."""
    due = [(f["flag_at"], f["events_version"]) for f in fields.values() if f.get("flag_at") is not None]
    return min(due) if due else None


def flag_schedule_on_commit(*, game_id: int, fields: dict[str, dict], now: datetime | None = None) -> None:
    """Queue the check of the game's next flag after commit (nothing when no clock has one).

    ``now``: check at this instant instead (a late move just stored opened an
    overstep case, which the check announces at once, not at the next night).
    """
    due = flag_next(fields)
    if now is not None:
        version = next(iter(fields.values()))["events_version"]
        due = (now, version)
    if due is not None:
        at, version = due
        transaction.on_commit(lambda: flag_check_at(game_id=game_id, version=version, at=at))


def flag_check_at(*, game_id: int, version: int, at: datetime) -> None:
    """Check game ``game_id`` (as of ``version``) at ``at``; never raises (the sweep is the backstop).

    Queued with Celery's ``eta``; when tasks run eagerly (the embedded run), an
    in-process timer runs the task at the instant instead, as live games' checks do
    (``corr.live.schedule``), when ``SERVER_FLAG_INPROCESS`` is on.
    """
    from django.conf import settings

    from corr.celery import app
    from corr.live import timesource

    try:
        if app.conf.task_always_eager:
            if settings.SERVER_FLAG_INPROCESS:
                timesource.call_at(int(at.timestamp() * 1000),
                                   lambda: _run_eagerly(FLAG_CHECK_TASK, game_id, version))
                _sweeper_ensure()
            return
    except Exception:  # noqa: BLE001 - a timer that cannot start: the sweep finds the flag
        log.warning("flag check of server game %s not scheduled; the sweep will find it", game_id, exc_info=True)
        return
    # On the handoff thread, without retries: a stopped Redis delays no move's answer (issue 23); a
    # check not queued is found by the sweep within SERVER_FLAG_SWEEP_SECONDS.
    handoff(f"flag check of server game {game_id}",
            lambda: app.send_task(FLAG_CHECK_TASK, args=(game_id, version), eta=at, retry=False))


def _run_eagerly(task: str, *args) -> None:
    from django.db import close_old_connections

    from corr.celery import app

    try:
        app.tasks[task].apply(args=args)
    except Exception:  # noqa: BLE001 - a timer thread has no one to report to; the sweep retries
        log.exception("in-process %s%s failed", task, args)
    finally:
        if threading.current_thread() is not threading.main_thread():
            close_old_connections()


_sweeper_lock = threading.Lock()
_sweeper: threading.Thread | None = None


def _sweeper_ensure() -> None:
    """Start this process's sweep thread once (eager tasks: the embedded run has no beat)."""
    global _sweeper
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="corr-server-flag-sweep", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    from django.conf import settings

    while not threading.Event().wait(settings.SERVER_FLAG_SWEEP_SECONDS):
        _run_eagerly(FLAG_SWEEP_TASK)
