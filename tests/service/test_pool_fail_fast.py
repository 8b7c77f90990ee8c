"""A pool waits ``DB_POOL_FAIL_FAST_MS`` for a session once it has failed, ``DB_POOL_TIMEOUT`` while merely busy.

``corr.dbpools.FailFast`` on a real psycopg pool and a PostgreSQL cluster of the test's own, stopped and started as
an operator would: what is checked is the wait each request asks of the pool (its ``getconn`` timeout, recorded),
never a duration. Issue 42: a request that waited the full second for a session just before PostgreSQL came back was
answered after 2 s on a loaded machine; the short wait now starts at the first failure the pool sees.
"""

from __future__ import annotations

import time

import psycopg
import pytest
from django.conf import settings
from psycopg_pool import ConnectionPool, PoolTimeout

from corr.dbpools import FailFast

from ..support.stack import PrivatePostgres

pytestmark = [pytest.mark.postgres]

FULL_WAIT_S = 1.0
FAIL_FAST_S = settings.DB_POOL_FAIL_FAST_MS / 1000


@pytest.fixture
def cluster():
    from ..conftest import needs_server

    needs_server("PostgreSQL's binaries (initdb, pg_ctl)", PrivatePostgres.binaries() is not None)
    postgres = PrivatePostgres()
    try:
        postgres.start()
        yield postgres
    finally:
        postgres.remove()


def failing_fast(url: str, *, up: bool = True) -> tuple[ConnectionPool, FailFast, list]:
    """A pool of one session on ``url`` behind ``FailFast`` (its session open when ``up``), and the list of the
    waits it asks of the pool."""
    pool = ConnectionPool(url, min_size=1, max_size=1, timeout=FULL_WAIT_S, open=True,
                          reconnect_timeout=600, kwargs={"connect_timeout": 2})
    if up:
        pool.wait(timeout=30)
    waits: list = []
    getconn = pool.getconn

    def recorded(timeout=None):
        waits.append(timeout)
        return getconn(timeout)

    fail_fast = FailFast(pool)
    fail_fast.getconn = recorded
    return pool, fail_fast, waits


def test_a_busy_pool_waits_the_full_time_a_failed_one_the_short_time_until_it_lends_again(cluster):
    pool, lend, waits = failing_fast(cluster.url("postgres"))
    try:
        # Healthy and busy: its one session lent, a second request waits the pool's full timeout, and is refused.
        held = lend()
        with pytest.raises(PoolTimeout):
            lend()
        assert waits == [None, None] and not lend.down()
        held.execute("SELECT 1")
        pool.putconn(held)

        # PostgreSQL stopped with the session idle in the pool: nothing has failed yet, so the dead session is lent
        # at once; it fails, comes back broken, and from then on a request waits the short time.
        cluster.stop()
        dead = lend()
        with pytest.raises(psycopg.OperationalError):
            dead.execute("SELECT 1")
        pool.putconn(dead)
        assert lend.down()
        for _ in range(3):
            with pytest.raises(PoolTimeout):
                lend()
        assert waits[2:] == [None, FAIL_FAST_S, FAIL_FAST_S, FAIL_FAST_S]

        # Back: the short waits go on until the pool lends a session again (it reconnects on its own backoff).
        cluster.start()
        deadline = time.monotonic() + 60
        while True:
            try:
                session = lend()
                break
            except PoolTimeout:
                assert time.monotonic() < deadline, "the pool never reconnected"
                time.sleep(0.2)
        assert waits[-1] == FAIL_FAST_S
        assert not lend.down()
        session.execute("SELECT 1")

        # Lent again, and busy again: the full wait once more.
        with pytest.raises(PoolTimeout):
            lend()
        assert waits[-1] is None
        pool.putconn(session)
    finally:
        pool.close()


def test_a_pool_that_cannot_connect_waits_the_short_time_from_its_first_request(cluster):
    """No wait has to time out first: the pool's failed attempts to connect are enough."""
    cluster.stop()
    pool, lend, waits = failing_fast(cluster.url("postgres"), up=False)
    try:
        deadline = time.monotonic() + 30
        while not lend.down():  # the pool's first attempt to connect, refused
            assert time.monotonic() < deadline, pool.get_stats()
            time.sleep(0.05)
        with pytest.raises(PoolTimeout):
            lend()
        assert waits == [FAIL_FAST_S]
    finally:
        pool.close()
