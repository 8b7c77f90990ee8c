"""The bounded thread pool that runs the WebSocket consumers' database work (issue 27).

Channels' ``database_sync_to_async`` runs every consumer's database work on one thread per process (the
thread-sensitive executor), where a press waiting on a game's row lock holds up every other socket's work;
a thread per call (``thread_sensitive=False`` on the default executor) lets waiting work pile up threads and
database connections until the database refuses more. Here the work runs on at most ``SOCKET_DB_THREADS``
threads of one pool per process: waiting messages wait as coroutines on the event loop, holding neither a
thread nor a connection, and the loop that carries the pushes never runs a query. Each call closes the
connections that are too old before and after, as ``database_sync_to_async`` does.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync
from django.conf import settings

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
    """``function`` as a coroutine function run on this process's pool (see the module's docstring).

    The pool is chosen when called, not when decorated: a process forked after the decoration (a test's daphne
    child, after its parent used the pool) would otherwise hand its work to the parent's executor, whose threads
    it does not have, and wait forever."""
    runners: dict[int, DatabaseSyncToAsync] = {}

    @functools.wraps(function)
    async def run(*args, **kwargs):
        pid = os.getpid()
        runner = runners.get(pid)
        if runner is None:
            runners.clear()
            runner = runners[pid] = DatabaseSyncToAsync(function, thread_sensitive=False, executor=pool())
        return await runner(*args, **kwargs)

    return run
