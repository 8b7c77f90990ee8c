"""A move outside any atomic block on PostgreSQL: BEGIN and COMMIT ride with its two statements (issue 13).

These tests run without the test transaction (``transaction=True``), as a
request in production does, so the views take the ``trips`` path:
``BEGIN; EXECUTE <locking read, the caller's token with it>`` and ``EXECUTE <store>; COMMIT`` (the token's own
lookup joined the locking read in issue 42; ``test_move_token.py`` checks every way of being refused). Whatever a
request does, it leaves no transaction open on its connection: a refused move
rolls back, a move that opens a case commits the case with it, and a failing
statement in the middle of a trip stores nothing.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext
from psycopg.pq import TransactionStatus

from corr.games import services
from corr.games.services.trips import trip, usable
from corr.models import CaseKind, GameEvent, OverstepCase, PlayerClock

from ..conftest import TODAY
from ..support.legal_moves import dance

pytestmark = pytest.mark.django_db(transaction=True)

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="trips are PostgreSQL's path")


def idle() -> bool:
    """No transaction is open on the test's connection (the server's view, not Django's)."""
    connection.ensure_connection()
    return connection.connection.info.transaction_status == TransactionStatus.IDLE


def move(client, game, number: int, colour: str = "white", **query):
    suffix = "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    return client.post(f"/api/games/{game.pk}/moves/{suffix}", {"number": number, "notation": dance(colour, number)},
                       format="json")


@pytest.fixture
def fresh_game(arbiter, anna, boris, frozen):
    league = services.tournament_create(by=arbiter, name="Fresh league", official_start=TODAY, mode="server")
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)


@postgres_only
def test_an_ordinary_move_is_two_round_trips_and_leaves_no_transaction_open(api, fresh_game, anna, boris):
    assert usable()
    white, black = api(anna), api(boris)
    assert move(white, fresh_game, 1).status_code == 201  # prepares the session's statements
    with CaptureQueriesContext(connection) as ctx:
        r = move(black, fresh_game, 1, "black")
    assert r.status_code == 201, r.json()
    sql = [q["sql"] for q in ctx.captured_queries]
    assert len(sql) == 2, sql
    assert sql[0].startswith("BEGIN; EXECUTE corr_game_lock_read_token(") and sql[1].endswith("; COMMIT"), sql
    assert idle()
    assert GameEvent.objects.filter(game=fresh_game, kind="move").count() == 2
    clocks = {c.player: c for c in PlayerClock.objects.filter(game=fresh_game)}
    assert clocks["white"].on_move and clocks["black"].made == 1


@postgres_only
def test_a_refused_move_rolls_back_and_stores_nothing(api, fresh_game, anna, boris):
    white = api(anna)
    assert move(white, fresh_game, 1).status_code == 201
    r = move(white, fresh_game, 2)  # not white's turn
    assert r.status_code == 409 and r.json()["field"] == "number", r.json()
    assert idle()
    r = white.post(f"/api/games/{fresh_game.pk}/moves/", {"number": 1, "notation": ""}, format="json")
    assert r.status_code in (400, 409)
    assert idle()
    assert move(api(boris), fresh_game, 1, ledger="maybe").status_code == 400
    assert idle()
    assert GameEvent.objects.filter(game=fresh_game, kind="move").count() == 1


@postgres_only
def test_a_move_that_opens_a_case_stores_both_and_commits(api, server_game, anna):
    # The server league began on 2026-01-10: by TODAY white is over control 1, so the move opens a case,
    # written after the move's statement and committed with it.
    r = move(api(anna), server_game, 1)
    assert r.status_code == 201, r.json()
    assert idle()
    assert OverstepCase.objects.filter(game=server_game, kind=CaseKind.OVERSTEP, player="white").count() == 1
    assert any("overstep case is open" in w for w in r.json()["warnings"]), r.json()["warnings"]
    assert GameEvent.objects.filter(game=server_game, kind="move").count() == 1


def pooled() -> bool:
    return bool(connection.settings_dict["OPTIONS"].get("pool"))


@postgres_only
def test_a_new_session_prepares_again_and_the_switch_turns_preparing_off(api, fresh_game, anna, boris, settings):
    assert move(api(anna), fresh_game, 1).status_code == 201
    connection.close()  # the next request opens a new session, which has prepared nothing
    if pooled():
        connection.close_pool()  # every session of the pool ends; the next request's is new
    with CaptureQueriesContext(connection) as ctx:
        assert move(api(boris), fresh_game, 1, "black").status_code == 201
    assert any(q["sql"].startswith("PREPARE corr_game_lock_read_token AS") for q in ctx.captured_queries)
    settings.DB_PREPARED_STATEMENTS = False
    with CaptureQueriesContext(connection) as ctx:
        assert move(api(anna), fresh_game, 2).status_code == 201
    assert not any("EXECUTE" in q["sql"] for q in ctx.captured_queries), ctx.captured_queries
    assert idle()
    assert GameEvent.objects.filter(game=fresh_game, kind="move").count() == 3


@postgres_only
@pytest.mark.skipif(not pooled(), reason="DB_POOL is off: Django opens a new session per connection")
def test_a_session_lent_again_by_the_pool_keeps_its_statements_and_a_new_one_prepares_them(api, fresh_game, anna,
                                                                                        boris):
    # The pool lends its idle sessions in turn (FIFO), each time through a Django connection that starts
    # afresh: each session prepares each statement once, the first time it runs it, and never again.
    connection.close()  # the session an earlier test left on the connection (it may have prepared) goes too
    connection.close_pool()
    connection.pool.open(wait=True, timeout=10)  # DB_POOL_MIN_SIZE sessions that have prepared nothing
    prepares: list[tuple[int, str]] = []
    sessions: list[int] = []

    def watch(execute, sql, params, many, context):
        pid = context["connection"].connection.info.backend_pid
        if sql.startswith("PREPARE "):
            prepares.append((pid, sql.split()[1]))
        elif sql.startswith("BEGIN; EXECUTE corr_game_lock_read"):
            sessions.append(pid)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        for number in range(1, 5):
            for player, colour in ((anna, "white"), (boris, "black")):
                assert move(api(player), fresh_game, number, colour).status_code == 201
                connection.close()  # as the end of a request does (the test client keeps its connection)
    assert len(sessions) == 8 and len(set(sessions)) >= 2, sessions  # lent again, and more than one session
    assert any(sessions.count(pid) > 1 for pid in sessions), sessions
    names = {name for _, name in prepares}
    assert names == {"corr_game_lock_read_token", "corr_events_store_1_2"}, prepares
    assert sorted(prepares) == sorted({(pid, name) for pid in set(sessions) for name in names}), prepares
    assert GameEvent.objects.filter(game=fresh_game, kind="move").count() == 8


@postgres_only
def test_a_failing_statement_in_a_trip_rolls_back_what_it_wrote(anna):
    with pytest.raises(DatabaseError):
        with trip() as current, connection.cursor() as cursor:
            current.execute(cursor, "UPDATE accounts_user SET email = 'changed@example.org' WHERE id = %s",
                            [anna.pk])
            current.execute(cursor, "SELECT 1 / 0", [], last=True)  # fails: COMMIT is not reached
    assert idle()
    anna.refresh_from_db()
    assert anna.email == "anna@example.org"


@postgres_only
def test_an_exception_in_the_block_rolls_back_and_a_finished_block_commits(anna):
    with pytest.raises(ValueError):
        with trip() as current, connection.cursor() as cursor:
            current.execute(cursor, "UPDATE accounts_user SET email = 'lost@example.org' WHERE id = %s", [anna.pk])
            raise ValueError("the caller's own error")
    assert idle()
    anna.refresh_from_db()
    assert anna.email == "anna@example.org"
    with trip() as current, connection.cursor() as cursor:
        current.execute(cursor, "UPDATE accounts_user SET email = 'kept@example.org' WHERE id = %s", [anna.pk])
    assert idle()
    anna.refresh_from_db()
    assert anna.email == "kept@example.org"


@postgres_only
def test_nothing_joins_a_trip_after_its_last_statement(anna):
    with trip() as current, connection.cursor() as cursor:
        current.execute(cursor, "SELECT 1", [], last=True)
        with pytest.raises(RuntimeError, match="has ended"):
            current.execute(cursor, "SELECT 2", [])
    assert idle()


def test_no_trip_inside_an_atomic_block(db):
    from django.db import transaction

    with transaction.atomic():
        assert not usable()
        with pytest.raises(RuntimeError, match="outside any atomic block"):
            with trip():
                pass

