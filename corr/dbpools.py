"""A forked process opens its own database pool (``DB_POOL``): psycopg_pool is not fork-safe.

A child of a process that has used its pool (a Celery prefork child, ``daphne.testing.DaphneProcess``,
any ``multiprocessing`` fork) inherits the pool object with its idle sessions, whose sockets the
parent still uses, and without the pool's worker threads, which do not survive a fork: the child's
first query would run on the parent's session. After a fork the child forgets the inherited pools
without closing them (closing would end the parent's sessions on the server; psycopg only lets go of
their sockets in the child) and opens a pool of its own on first use. Imported by the app's
``ready()`` when a database is PostgreSQL.
"""

from __future__ import annotations

import os

from django.db.backends.postgresql.base import DatabaseWrapper

# Django's registry of the process's pools, one per alias: a private attribute, but no public call
# drops a pool without closing its sessions. Bound here, not looked up in the child: a fork handler
# must not import (another thread may have held the import lock at the fork).
os.register_at_fork(after_in_child=DatabaseWrapper._connection_pools.clear)
