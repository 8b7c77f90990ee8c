"""The bounded thread pool that runs the WebSocket consumers' database work (issue 27).

Channels' ``database_sync_to_async`` runs every consumer's database work on one thread per process (the
thread-sensitive executor), where a press waiting on a game's row lock holds up every other socket's work;
a thread per call (``thread_sensitive=False`` on the default executor) lets waiting work pile up threads and
database connections until the database refuses more. Here the work runs on at most ``SOCKET_DB_THREADS``
threads of one pool per process: waiting messages wait as coroutines on the event loop, holding neither a
thread nor a connection, and the loop that carries the pushes never runs a query.

Each thread keeps its database session from one call to the next (issue 42). ``database_sync_to_async`` closes
the connections before and after every call, which with the pool (``DB_POOL``, ``CONN_MAX_AGE`` 0) gave the session
back and took one again for every press: under the 500-game bench that, with asgiref's hand-off around it, was a
third of the CPU of a press on its thread. A session is given back only when it is no longer usable: an error
occurred on it and it does not answer, or a transaction was left open (Django's ``close_if_unusable_or_obsolete``,
its age not counted). So the pool lends at most ``SOCKET_DB_THREADS`` sessions a process to these threads, for as
long as they run, beside what it lends to the process's HTTP requests (``DB_POOL_MAX_SIZE``): only when it has more
(:func:`keeps_sessions`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connections

_pool: dict[int, ThreadPoolExecutor] = {}
"""The pool of this process (by pid: a forked child makes its own)."""


def pool() -> ThreadPoolExecutor:
    """This process's pool, made on first use with ``SOCKET_DB_THREADS`` threads."""
    pid = os.getpid()
    if pid not in _pool:
        _pool.clear()
        _pool[pid] = ThreadPoolExecutor(max_workers=settings.SOCKET_DB_THREADS, thread_name_prefix="corr-socket-db")
    return _pool[pid]


def in_db_thread(function):
    """``function`` as a coroutine function run on this process's pool (see the module's docstring), in a copy of
    the caller's context (its context variables), as asgiref's ``SyncToAsync`` runs it.

    The pool is chosen when called, not when decorated: a process forked after the decoration (a test's daphne
    child, after its parent used the pool) would otherwise hand its work to the parent's executor, whose threads
    it does not have, and wait forever."""

    @functools.wraps(function)
    async def run(*args, **kwargs):
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(
            pool(), functools.partial(context.run, _keeping_session, function, args, kwargs))

    return run


_keeping: set[int] = set()
"""The threads of this process's pool that have run a call (and may keep sessions); a forked child has none."""
os.register_at_fork(after_in_child=_keeping.clear)


def keeps_sessions() -> bool:
    """Whether the threads keep their sessions: from the pool (``DB_POOL``), and only while it has more sessions than
    the threads (``DB_POOL_MAX_SIZE`` > ``SOCKET_DB_THREADS``), so that the process's HTTP requests are always lent
    one. Otherwise each call gives its sessions back as ``database_sync_to_async`` does: with 3 sessions and 4
    threads the sockets' threads held them all and every request was answered 503; without the pool each thread
    kept a session of its own beyond the requests in flight."""
    return bool(settings.DB_POOL) and settings.DB_POOL_MAX_SIZE > settings.SOCKET_DB_THREADS


def _keeping_session(function, args, kwargs):
    """``function(*args, **kwargs)`` on this thread, whose database sessions are kept for its next call unless they
    are no longer usable, or unless the threads may not keep them (:func:`keeps_sessions`)."""
    keep = keeps_sessions()
    if keep:
        _keeping.add(threading.get_ident())
    try:
        return function(*args, **kwargs)
    finally:
        for wrapper in connections.all(initialized_only=True):
            if wrapper.connection is not None:
                if keep and wrapper.vendor == "postgresql":
                    wrapper.close_at = None  # not its age (CONN_MAX_AGE): the thread keeps it
                wrapper.close_if_unusable_or_obsolete()


def release_sessions(timeout_s: float = 10) -> None:
    """Every thread of this process's pool gives back the sessions it keeps (a Django connection is closed by its
    own thread only): for the end of a test run, whose databases are then dropped. Waits for busy threads up to
    ``timeout_s``; what is in flight then keeps its session."""
    executor = _pool.get(os.getpid())
    if executor is None or not _keeping:
        return
    # One task per thread that has kept a session: each waits at the barrier, so no thread takes two.
    barrier = threading.Barrier(len(_keeping))

    def release() -> None:
        try:
            barrier.wait(timeout_s)
        except threading.BrokenBarrierError:
            pass
        connections.close_all()

    for future in [executor.submit(release) for _ in range(len(_keeping))]:
        future.result(timeout_s * 2)
    _keeping.clear()
