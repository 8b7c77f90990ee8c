"""After-commit work that talks to Redis, handed to one thread of this process: no request waits on Redis.

A live move's push (channels-redis) and its flag check (a Celery message with ``eta``), a server
game's flag check: each is sent after the write commits, and with Redis slow or down a send can take
seconds (connection timeouts, the broker's retries). The request thread only puts the send on this
process's queue and answers; one daemon thread sends, in order (pushes of a game arrive in the order
of its changes), each send bounded by ``HANDOFF_SEND_SECONDS``.

Nothing is lost for good when a send fails or the queue is full (``HANDOFF_QUEUE_MAX``, it is then
dropped and logged): a flag check is found by the move-taking process's beat (``corr.live.beat``) and
the sweeps, and a page gets the whole state with the next push or on reconnecting. The sends that do
not touch Redis (the embedded run's in-memory layer and eager tasks) are made inline by their callers.

The queue belongs to the process that made it: a forked child (gunicorn ``--preload``, Celery's pool)
starts its own.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import threading
from collections.abc import Awaitable, Callable

from django.conf import settings

log = logging.getLogger(__name__)

_lock = threading.Lock()
_state: dict = {"pid": None, "queue": None, "thread": None, "loop": None}


def handoff(label: str, send: Callable[[], object]) -> bool:
    """Queue ``send()`` for this process's sender thread; returns False when the queue was full (dropped).

    ``label`` names the send in the log ("push of live game 12"). ``send`` runs on the sender thread and
    may call :func:`run_async` for a coroutine; its exceptions are logged, never raised.
    """
    work = _queue()
    try:
        work.put_nowait((label, send))
        return True
    except queue.Full:
        log.warning("%s dropped: %d sends already waiting for Redis", label, work.qsize())
        return False


def run_async(make: Callable[[], Awaitable[object]]) -> object:
    """On the sender thread: run the coroutine ``make()`` on the thread's own event loop, bounded in time.

    :raises TimeoutError: it took longer than ``HANDOFF_SEND_SECONDS``.
    """
    loop = _state["loop"]
    if loop is None or threading.current_thread() is not _state["thread"]:
        raise RuntimeError("run_async is for sends made by the handoff thread")
    return loop.run_until_complete(asyncio.wait_for(make(), timeout=settings.HANDOFF_SEND_SECONDS))


def drain(timeout_seconds: float) -> bool:
    """Wait until every send queued so far has been made (or failed); False when ``timeout_seconds`` passed.

    For tests and for a clean shutdown; a request never calls it.
    """
    work = _state["queue"] if _state["pid"] == os.getpid() else None
    if work is None:
        return True
    done = threading.Event()
    try:
        work.put((None, done.set), timeout=timeout_seconds)
    except queue.Full:
        return False
    return done.wait(timeout_seconds)


def pending() -> int:
    """How many sends wait in this process's queue (an estimate, as ``Queue.qsize``)."""
    work = _state["queue"] if _state["pid"] == os.getpid() else None
    return 0 if work is None else work.qsize()


def _queue() -> queue.Queue:
    pid = os.getpid()
    if _state["pid"] == pid and _state["thread"].is_alive():
        return _state["queue"]
    with _lock:
        if _state["pid"] != pid or not _state["thread"].is_alive():
            work: queue.Queue = queue.Queue(maxsize=settings.HANDOFF_QUEUE_MAX)
            thread = threading.Thread(target=_send_forever, args=(work,), name="corr-handoff", daemon=True)
            _state.update(pid=pid, queue=work, thread=thread, loop=None)
            thread.start()
        return _state["queue"]


def _send_forever(work: queue.Queue) -> None:
    loop = asyncio.new_event_loop()
    _state["loop"] = loop
    while True:
        label, send = work.get()
        try:
            send()
        except Exception:  # noqa: BLE001 - a failed send is logged; the beat, the sweeps and the next push recover
            log.warning("%s not sent", label or "handoff marker", exc_info=True)
        finally:
            work.task_done()
