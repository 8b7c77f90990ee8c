"""``read_game`` on PostgreSQL sends ``BEGIN …; SELECT; SELECT; COMMIT`` as one query: a statement that fails
midway (a statement timeout, a cancel) leaves the session in an aborted transaction that Django, in autocommit,
does not know of. The read rolls it back before the error goes on, so the next query on the connection runs."""

from __future__ import annotations

import copy

import psycopg
import pytest
from django.db import connection

from corr.games.services.prepared import Prepared
from corr.live import trips

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_read_that_fails_midway_leaves_no_transaction_open(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the one-query read is PostgreSQL's")
    plan = copy.copy(trips._plan())
    # The window's statement fails once the transaction is open (division by zero), with its placeholders kept.
    plan.window = Prepared("corr_test_window_fails", "SELECT 1 / 0 WHERE " + " AND ".join(
        ["%s::bigint IS NOT NULL"] * trips._WINDOW_PARAMS))
    monkeypatch.setattr(trips, "_plan", lambda: plan)
    with pytest.raises(Exception, match="division by zero"):
        trips.read_game(1)
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    with connection.cursor() as cursor:  # the next query on the same connection runs
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
