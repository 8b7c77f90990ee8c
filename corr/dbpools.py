"""A forked process opens its own database pool (``DB_POOL``): psycopg_pool is not fork-safe.

A child of a process that has used its pool (a Celery prefork child, ``daphne.testing.DaphneProcess``,
any ``multiprocessing`` fork) inherits the pool object with its idle sessions, whose sockets the
parent still uses, and without the pool's worker threads, which do not survive a fork: the child's
first query would run on the parent's session. After a fork the child forgets the inherited pools
without closing them (closing would end the parent's sessions on the server; psycopg only lets go of
their sockets in the child) and opens a pool of its own on first use. Imported by the app's
``ready()`` when a database is PostgreSQL.

While the database is known to be unreachable, a request waits for a session ``DB_POOL_FAIL_FAST_MS`` rather than
``DB_POOL_TIMEOUT`` (issue 42): a gunicorn sync worker is held for the whole wait, so a request queued behind one that
waited the full second waited it again, and answered its 503 after 2 s under load (:class:`FailFast`).
"""

from __future__ import annotations

import os
import threading

from django.conf import settings
from django.db.backends.postgresql.base import DatabaseWrapper
from psycopg_pool import PoolTimeout

# Django's registry of the process's pools, one per alias: a private attribute, but no public call
# drops a pool without closing its sessions. Bound here, not looked up in the child: a fork handler
# must not import (another thread may have held the import lock at the fork).
os.register_at_fork(after_in_child=DatabaseWrapper._connection_pools.clear)


class FailFast:
    """A pool's ``getconn`` that waits ``DB_POOL_FAIL_FAST_MS`` while the database is known to be unreachable.

    Known unreachable: the last wait for a session timed out, and an attempt of the pool to connect has failed since
    the last session was lent (the pool's own counters: a pool merely busy, all its sessions lent to a healthy
    database, is not down, and its requests keep waiting ``DB_POOL_TIMEOUT``). The pool keeps reconnecting in the
    background as before; the first session lent again ends the short waits.
    """

    def __init__(self, pool) -> None:
        self.pool = pool
        self.getconn = pool.getconn
        self.lock = threading.Lock()
        self.errors_at_lent = 0
        self.down = False

    def _errors(self) -> int:
        return self.pool.get_stats().get("connections_errors", 0)

    def __call__(self, timeout: float | None = None):
        if timeout is None and self.down:
            timeout = settings.DB_POOL_FAIL_FAST_MS / 1000
        try:
            connection = self.getconn(timeout)
        except PoolTimeout:
            with self.lock:
                self.down = self._errors() > self.errors_at_lent
            raise
        with self.lock:
            self.down = False
            self.errors_at_lent = self._errors()
        return connection


_pool_of = DatabaseWrapper.pool.fget


def _pool_failing_fast(self):
    pool = _pool_of(self)
    if pool is not None and not isinstance(vars(pool).get("getconn"), FailFast):
        pool.getconn = FailFast(pool)  # Django lends sessions with pool.getconn() (get_new_connection)
    return pool


DatabaseWrapper.pool = property(_pool_failing_fast)
