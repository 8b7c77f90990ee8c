"""A press in two round trips on PostgreSQL (issue 27: "a press in few statements"): BEGIN rides with the locking
read of the game and its events, COMMIT with the one statement that stores the move, the versions and the
snapshot (corr/live/trips.py on corr/games/services/trips.py). Run without the test transaction, as a request in
production is; whatever the press does, it leaves no transaction open."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from psycopg.pq import TransactionStatus

from corr.api.live_socket import socket_move
from corr.live import known
from corr.live.services import live_check
from corr.models import LiveEvent, LiveGame

from .conftest import FISCHER_5_2, START_MS, S, live_tournament

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql", reason="trips are PostgreSQL's path")]


def idle() -> bool:
    """No transaction is open on the test's connection (the server's view, not Django's)."""
    connection.ensure_connection()
    return connection.connection.info.transaction_status == TransactionStatus.IDLE


def press(user, game_id: int, number: int, notation: str = "") -> dict:
    return socket_move(user, game_id, {"type": "move", "id": number, "number": number, "notation": notation}, "en")


def counted_press(user, game_id: int, number: int, notation: str) -> tuple[dict, list[str]]:
    """The press's answer (a 201, checked) and the statements it sent."""
    with CaptureQueriesContext(connection) as ctx:
        answer = press(user, game_id, number, notation)
    assert answer["status"] == 201, answer
    return answer, [q["sql"] for q in ctx.captured_queries]


@pytest.mark.parametrize("prepared", [True, False], ids=["prepared", "sent-whole"])
def test_a_press_is_two_round_trips_and_leaves_no_transaction_open(arbiter, anna, boris, clock, create_game, settings,
                                                                    prepared):
    # Prepared (issue 42): the locking read, the window and the store are planned once per session, then run by
    # name; DB_PREPARED_STATEMENTS=0 (a pooler sharing sessions) sends them whole, in as many round trips.
    # A press on a game this process knows nothing of (corr.live.known): the locking read, then the store.
    settings.DB_PREPARED_STATEMENTS = prepared
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    known.forget()
    assert press(anna, game_id, 1, "e4")["status"] == 201  # the beat's first write and the plan of the session
    clock.advance(2 * S)
    known.forget()
    answer, sql = counted_press(boris, game_id, 1, "e5")
    assert len(sql) == 2, sql
    if prepared:
        assert sql[0].startswith("BEGIN; EXECUTE corr_live_lock(") and "; EXECUTE corr_live_window(" in sql[0], sql[0]
        assert sql[1].startswith("EXECUTE corr_live_store_") and sql[1].endswith("; COMMIT"), sql[1]
    else:
        assert sql[0].startswith("BEGIN; SELECT") and "FOR UPDATE OF g" in sql[0], sql[0]
        assert sql[1].startswith("WITH wl AS (UPDATE") and sql[1].endswith("; COMMIT"), sql[1]
    assert idle()
    # What the socket answered is what was stored: the move, the version, the snapshot after it.
    stored = LiveGame.objects.get(pk=game_id)
    assert answer["live"]["version"] == stored.version
    assert stored.snapshot_seq == LiveEvent.objects.filter(game_id=game_id).latest("seq").seq
    assert list(LiveEvent.objects.filter(game_id=game_id, kind="move").values_list("notation", flat=True)) == [
        "e4", "e5"]
    assert answer["live"]["players"]["black"]["remaining_ms"] == 300 * S - 2 * S + 2 * S


@pytest.mark.parametrize("prepared", [True, False], ids=["prepared", "sent-whole"])
def test_a_press_on_the_rows_this_process_wrote_is_one_round_trip(arbiter, anna, boris, clock, create_game, settings,
                                                                  prepared):
    # Issue 42: the rows the last write returned are known; the next press is computed on them and stored by one
    # statement conditional on their versions, BEGIN and COMMIT with it.
    settings.DB_PREPARED_STATEMENTS = prepared
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert press(anna, game_id, 1, "e4")["status"] == 201
    assert press(boris, game_id, 1, "e5")["status"] == 201  # each statement's shape prepared in this session
    clock.advance(2 * S)
    answer, sql = counted_press(anna, game_id, 2, "Nf3")
    assert len(sql) == 1, sql
    if prepared:
        assert sql[0].startswith("BEGIN; EXECUTE corr_live_store_") and "; EXECUTE corr_live_added(" in sql[0], sql[0]
    else:
        assert sql[0].startswith("BEGIN; WITH ok AS (SELECT") and "FOR UPDATE" in sql[0], sql[0]
    assert sql[0].endswith("; COMMIT"), sql[0]
    assert idle()
    stored = LiveGame.objects.get(pk=game_id)
    assert answer["live"]["version"] == stored.version
    assert list(LiveEvent.objects.filter(game_id=game_id, kind="move").values_list("notation", flat=True)) == [
        "e4", "e5", "Nf3"]


def test_a_refused_press_rolls_back_and_stores_nothing(arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    version = LiveGame.objects.get(pk=game_id).version
    for refused, status in ((press(anna, game_id, 2, "e4"), 409), (press(anna, game_id, 1, "e5"), 400),
                            (press(boris, game_id, 1, "e5"), 409)):
        assert refused["status"] == status, refused
        assert idle()
    assert not LiveEvent.objects.filter(game_id=game_id, kind="move").exists()
    assert LiveGame.objects.get(pk=game_id).version == version


def test_a_press_after_the_flag_fell_records_the_flag_and_not_the_move(arbiter, anna, clock, create_game):
    # The press's trip is rolled back (the flag fell before it), the flag recorded in its own transaction, and the
    # press refused on the game it ended.
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + 301 * S)
    refused = press(anna, game_id, 1, "e4")
    assert refused["status"] == 409 and "lost on time" in refused["detail"], refused
    assert idle()
    kinds = list(LiveEvent.objects.filter(game_id=game_id).values_list("kind", flat=True))
    assert "flag" in kinds and "move" not in kinds, kinds


def test_a_check_of_an_older_version_reads_one_row_and_takes_no_lock(arbiter, anna, boris, clock, create_game):
    # The stale checks of a game's presses fall due together near its flag: each is told by the live row's
    # version alone (issue 27), not by the lock and every event.
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    stale = LiveGame.objects.get(pk=game_id).version
    assert press(anna, game_id, 1, "e4")["status"] == 201
    clock.timers.clear()  # no timer records the flag meanwhile
    clock.advance_to(START_MS + 400 * S)  # black's flag has fallen: a current check would record it
    with CaptureQueriesContext(connection) as ctx:
        assert live_check(game_id=game_id, version=stale, now_ms=clock.now) is False
    sql = [q["sql"] for q in ctx.captured_queries]
    assert not any("FOR UPDATE" in q or "corr_liveevent" in q for q in sql), sql
    assert len(sql) <= 2, sql  # the version, and the last beat when the beat is on
    assert not LiveEvent.objects.filter(game_id=game_id, kind="flag").exists()
    current = LiveGame.objects.get(pk=game_id).version
    assert live_check(game_id=game_id, version=current, now_ms=clock.now) is True
    assert LiveEvent.objects.filter(game_id=game_id, kind="flag").exists()
