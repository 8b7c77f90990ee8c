"""A socket's press made on the event loop in one round trip when its process knows the game (issue 42,
corr/live/loopstore.py), and giving way to the database thread whenever the locking path must judge it.

Each press here runs on a real event loop (``asyncio.run``), where Django refuses any query: what the loop's path
does, it does with its own asynchronous session to PostgreSQL, and anything that would have queried through Django
makes it give way (None). "Another process" is played as in tests/live/test_known_press.py, by putting back what
this process knew before a write.
"""

from __future__ import annotations

import asyncio
import threading
import time

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.api.live_socket import socket_move, unavailable_answer
from corr.live import known, loopstore
from corr.live.trips import read_game
from corr.models import LiveEvent, LiveGame

from .conftest import FISCHER_5_2, START_MS, S, live_tournament

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql", reason="the loop's press is PostgreSQL's")]


def message(number: int, notation: str) -> dict:
    return {"type": "move", "id": number, "number": number, "notation": notation}


def press(user, game_id: int, number: int, notation: str = "") -> dict:
    """The press on a database thread (here, the test's thread): the locking path, or the known one."""
    return socket_move(user, game_id, message(number, notation), "en")


def on_loop(user, game_id: int, number: int, notation: str = "", language: str = "en") -> dict | None:
    """The press on an event loop, as the socket makes it first: its answer, or None where it gives way."""
    body = message(number, notation)

    async def run():
        return await loopstore.press_on_loop(game_id, lambda: socket_move(user, game_id, body, language),
                                             lost=lambda: unavailable_answer(body, language))

    return asyncio.run(run())


def moves(game_id: int) -> list[str]:
    return list(LiveEvent.objects.filter(game_id=game_id, kind="move").order_by("seq").values_list("notation",
                                                                                                   flat=True))


def as_read(game_id: int) -> known.Known:
    known.forget(game_id)
    read_game(game_id)
    return known.recall(game_id)


@pytest.fixture
def dsn() -> str:
    """The test database's address, for sessions of the test's own."""
    found = connection.settings_dict
    return psycopg.conninfo.make_conninfo(dbname=found["NAME"], host=found["HOST"] or None, port=found["PORT"] or None,
                                          user=found["USER"] or None)


def game_table() -> str:
    from corr.models import Game

    return Game._meta.db_table


@pytest.fixture
def game(arbiter, anna, boris, clock, create_game):
    """A game whose first move (anna's e4) was made on a thread: this process knows it."""
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert press(anna, game_id, 1, "e4")["status"] == 201
    assert known.recall(game_id) is not None
    return game_id


def test_a_known_game_is_pressed_on_the_loop_with_the_threads_answer_and_leaves_what_a_read_returns(
        game, anna, boris, clock):
    clock.advance(2 * S)
    version = LiveGame.objects.get(pk=game).version
    with CaptureQueriesContext(connection) as ctx:
        answer = on_loop(boris, game, 1, "e5")
    assert ctx.captured_queries == []  # nothing through Django: the loop's own session
    assert answer is not None and answer["status"] == 201 and answer["push"] is True, answer
    assert answer["live"]["version"] == version + 1
    assert moves(game) == ["e4", "e5"]
    left = known.recall(game)
    assert left == as_read(game)  # the rows as written, the window with the new event
    clock.advance(3 * S)
    answer = on_loop(anna, game, 2, "Nf3")
    assert answer["status"] == 201 and moves(game) == ["e4", "e5", "Nf3"]
    assert answer["live"]["version"] == version + 2


def test_the_loop_and_the_threads_play_the_same_game(arbiter, anna, boris, clock, create_game, settings):
    # The same game twice: every press tried on the loop first (then on a thread where it gave way, as the socket
    # does), and every press on a thread. The same answers, events and live row.
    def play(first_on_loop: bool) -> tuple[list, list, dict, int]:
        game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
        clock.advance_to(START_MS + S)
        answers, looped = [], 0
        for delay_s, user, number, notation in ((1, anna, 1, "e4"), (2, boris, 1, "e5"), (3, anna, 2, "Nf3"),
                                                (1, anna, 2, "Nf3"), (4, boris, 2, "Nc6"), (1, boris, 3, "a6"),
                                                (2, anna, 3, "Bb5"), (500, boris, 3, "a6"), (1, anna, 4, "Ba4")):
            clock.advance(delay_s * S)
            answer = on_loop(user, game_id, number, notation) if first_on_loop else None
            looped += answer is not None
            if answer is None:
                answer = press(user, game_id, number, notation)
            answer.pop("push", None)
            answers.append(answer)
        events = list(LiveEvent.objects.filter(game_id=game_id).order_by("seq").values_list(
            "seq", "kind", "player", "number", "notation", "at_ms", "reason"))
        live = LiveGame.objects.filter(pk=game_id).values("version", "snapshot", "snapshot_seq", "ended_at_ms",
                                                          "position", "next_check_at_ms").get()
        clock.timers.clear()
        clock.now = START_MS - 60 * S
        return answers, events, live, looped

    *on_the_loop, looped = play(True)
    assert [a["status"] for a in on_the_loop[0]] == [201, 201, 201, 409, 201, 409, 201, 409, 409], on_the_loop[0]
    # e4, e5, Nf3, Nc6 and Bb5 (the game is known from its creation's read on): the refusals, the flag that fell
    # before a6 and the press after it are the lock's.
    assert looped == 5
    *on_threads, none = play(False)
    assert none == 0
    assert on_threads == on_the_loop


def test_a_game_the_process_does_not_know_gives_way(arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    known.forget(game_id)
    assert on_loop(anna, game_id, 1, "e4") is None
    assert moves(game_id) == []


def test_turned_off_gives_way(game, boris, clock, settings):
    settings.LIVE_LOOP_SESSIONS = 0
    clock.advance(S)
    assert on_loop(boris, game, 1, "e5") is None
    assert moves(game) == ["e4"]


def test_a_press_refused_on_what_was_known_gives_way_and_sends_nothing(game, anna, clock):
    clock.advance(S)
    version = LiveGame.objects.get(pk=game).version
    assert on_loop(anna, game, 2, "d4") is None  # "it is black's move" on the rows known: the lock judges it
    assert LiveGame.objects.get(pk=game).version == version


def test_rows_changed_by_another_process_give_way_and_write_nothing(game, anna, boris, clock):
    before = known.recall(game)
    clock.advance(S)
    assert press(boris, game, 1, "e5")["status"] == 201  # on "another process"
    known.remember(game, before)
    version = LiveGame.objects.get(pk=game).version
    clock.advance(S)
    # On the old rows black's first move is still to make: the same move again (a double click on two processes)
    # is computed, sent, and writes nothing.
    assert on_loop(boris, game, 1, "e5") is None
    assert LiveGame.objects.get(pk=game).version == version
    assert moves(game) == ["e4", "e5"]
    assert known.recall(game) is None  # forgotten: the thread's press reads it under the lock
    answer = press(boris, game, 1, "e5")
    assert answer["status"] == 409 and answer["detail"] == "it is white's move", answer


def test_an_illegal_move_gives_way_to_the_thread_which_refuses_it_by_name(game, boris, clock):
    clock.advance(S)
    assert on_loop(boris, game, 1, "Ke7") is None
    answer = press(boris, game, 1, "Ke7")
    assert answer["status"] == 400 and answer["field"] == "notation", answer


def test_a_statement_refused_by_postgresql_is_rolled_back_and_gives_way(game, boris, clock, dsn):
    # The game row held by another session; the loop's sessions wait at most 200 ms for a lock here.
    with psycopg.connect(dsn, autocommit=False) as holder:
        holder.execute(f"SELECT 1 FROM {game_table()} WHERE id = %s FOR UPDATE", [game])
        clock.advance(S)
        with pytest.MonkeyPatch.context() as patch:
            params = loopstore._connect_params
            patch.setattr(loopstore, "_connect_params",
                          lambda: {**params(), "options": "-c lock_timeout=200"})
            assert on_loop(boris, game, 1, "e5") is None
        holder.rollback()
    assert moves(game) == ["e4"]
    assert press(boris, game, 1, "e5")["status"] == 201


def test_a_session_lost_with_the_statement_in_flight_is_answered_503_and_not_made_again(game, boris, clock,
                                                                                        dsn):
    # The statement waits for the game row held by another session; the loop's session is ended meanwhile (a
    # restart, an operator): the move may have committed for all the loop knows, so it answers 503, in the
    # socket's language, and forgets the game.
    with psycopg.connect(dsn, autocommit=False) as holder:
        holder.execute(f"SELECT 1 FROM {game_table()} WHERE id = %s FOR UPDATE", [game])
        ended = []

        def end_the_waiting_session() -> None:
            with psycopg.connect(dsn, autocommit=True) as admin:
                deadline = time.monotonic() + 20
                while not ended and time.monotonic() < deadline:
                    ended.extend(row[0] for row in admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND query LIKE 'BEGIN; %%corr_live_store_%%'"))
                    time.sleep(0.05)

        killer = threading.Thread(target=end_the_waiting_session)
        killer.start()
        clock.advance(S)
        answer = on_loop(boris, game, 1, "e5", language="fr")
        killer.join()
        holder.rollback()
    assert ended == [True]
    assert answer == {"type": "move", "id": 1, "status": 503, "retry_after": answer["retry_after"],
                      "detail": "la base de données est indisponible ; réessayez sous peu"}, answer
    assert known.recall(game) is None
    assert moves(game) == ["e4"]  # here it had not committed: the thread's press makes it
    assert press(boris, game, 1, "e5")["status"] == 201
