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
waited the full second waited it again, and answered its 503 after 2 s under load (:class:`FailFast`). Known from
the first failure the pool sees, not from a wait that timed out: a request that waited the full second just before
PostgreSQL came back was answered 201 after 2.16-2.26 s on CI's loaded machine.
"""

from __future__ import annotations

import os
import threading

from django.conf import settings
from django.db.backends.postgresql.base import DatabaseWrapper

# Django's registry of the process's pools, one per alias: a private attribute, but no public call
# drops a pool without closing its sessions. Bound here, not looked up in the child: a fork handler
# must not import (another thread may have held the import lock at the fork).
os.register_at_fork(after_in_child=DatabaseWrapper._connection_pools.clear)


class FailFast:
    """A pool's ``getconn`` that waits ``DB_POOL_FAIL_FAST_MS`` while the database is known to be unreachable.

    Known unreachable: since the last session was lent, the pool has failed to connect, or a session has come back
    broken (lent, or found so before lending) - the pool's own counters. A pool merely busy, all its sessions lent to a
    healthy database, is not down, and its requests keep waiting ``DB_POOL_TIMEOUT``. The pool keeps reconnecting in
    the background as before; the first session lent again ends the short waits. A session lost on a healthy server
    (a backend ended by an operator) makes at most the requests that find no idle session before the next lend wait
    the short time: the price of never waiting a second on a server that is gone.
    """

    FAILURES = ("connections_errors", "connections_lost", "returns_bad")
    """psycopg_pool's counters of a failure to connect, a session found broken in the pool, one returned broken."""

    def __init__(self, pool) -> None:
        self.pool = pool
        self.getconn = pool.getconn
        self.lock = threading.Lock()
        self.failures_at_lent = 0

    def failures(self) -> int:
        """The pool's failures since it opened (``get_stats`` reads them without resetting them)."""
        stats = self.pool.get_stats()
        return sum(stats.get(name, 0) for name in self.FAILURES)

    def down(self) -> bool:
        """Whether the pool has failed since it last lent a session."""
        with self.lock:
            return self.failures() > self.failures_at_lent

    def __call__(self, timeout: float | None = None):
        if timeout is None and self.down():
            timeout = settings.DB_POOL_FAIL_FAST_MS / 1000
        connection = self.getconn(timeout)
        with self.lock:
            self.failures_at_lent = self.failures()
        return connection


_pool_of = DatabaseWrapper.pool.fget


def _pool_failing_fast(self):
    pool = _pool_of(self)
    if pool is not None and not isinstance(vars(pool).get("getconn"), FailFast):
        pool.getconn = FailFast(pool)  # Django lends sessions with pool.getconn() (get_new_connection)
    return pool


DatabaseWrapper.pool = property(_pool_failing_fast)
