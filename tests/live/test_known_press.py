"""A press on the rows this process knows of its game (issue 42, corr/live/known.py): one round trip when they are
still the rows, and the same answers as the locking path whatever changed since, by whichever writer.

Run without the test transaction, as a request in production is (the one-trip path is PostgreSQL's, outside any
``atomic`` block). "Another process" is played by putting back what this process knew before a write: exactly what
a process that did not make that write knows.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.api.live_socket import socket_move
from corr.live import known
from corr.live.services import live_check
from corr.live.trips import read_game
from corr.models import LiveEvent, LiveGame, Tournament

from .conftest import FISCHER_5_2, START_MS, S, live_tournament

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-trip press is PostgreSQL's")]


def press(user, game_id: int, number: int, notation: str = "") -> dict:
    return socket_move(user, game_id, {"type": "move", "id": number, "number": number, "notation": notation}, "en")


def moves(game_id: int) -> list[str]:
    return list(LiveEvent.objects.filter(game_id=game_id, kind="move").order_by("seq").values_list("notation",
                                                                                                   flat=True))


def sent(ctx) -> list[str]:
    """The statements of a press, without the PREPAREs a session sends once per statement."""
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith("PREPARE ")]


def as_read(game_id: int) -> known.Known:
    """What the locking read returns of the game now, in the known state's form (a fresh read)."""
    known.forget(game_id)
    read_game(game_id)
    return known.recall(game_id)


def test_what_every_write_leaves_known_is_what_a_fresh_read_returns(api, arbiter, anna, boris, clock, create_game):
    # The rows, their versions and the window a write leaves are the database's own: checked after presses, a
    # pause and a resume (the arbiter's, in their own transactions), and a flag recorded by the check.
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    writes = [lambda: press(anna, game_id, 1, "e4"), lambda: press(boris, game_id, 1, "e5"),
              lambda: api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": "noise"}, format="json"),
              lambda: api(arbiter).post(f"/api/games/{game_id}/resume/", {"reason": "quiet"}, format="json"),
              lambda: press(anna, game_id, 2, "Nf3"), lambda: press(boris, game_id, 2, "Nc6"),
              lambda: press(anna, game_id, 3, "Bb5")]
    for write in writes:
        clock.advance(3 * S)
        answer = write()
        status = answer["status"] if isinstance(answer, dict) else answer.status_code
        assert status == 201, answer
        left = known.recall(game_id)
        assert left is not None
        assert left == as_read(game_id)
    clock.advance(400 * S)  # black's flag falls: recorded by its timer (the check at its instant)
    live_check(game_id=game_id, now_ms=clock.now)
    assert LiveEvent.objects.filter(game_id=game_id, kind="flag").exists()
    assert known.recall(game_id) == as_read(game_id)
    assert moves(game_id) == ["e4", "e5", "Nf3", "Nc6", "Bb5"]


def test_a_press_on_the_rows_it_knows_answers_as_the_locking_path(arbiter, anna, boris, clock, create_game, settings):
    # The same game played twice, presses, a refused one and a flag that fell before a press: once with what each
    # write leaves known, once with nothing known (LIVE_KNOWN_GAMES=0, every press under the lock). Every answer, the
    # events and the live row are the same.
    def play() -> tuple[list, list, dict]:
        game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
        clock.advance_to(START_MS + S)
        answers = []
        for delay_s, user, number, notation in ((1, anna, 1, "e4"), (2, boris, 1, "e5"), (3, anna, 2, "Nf3"),
                                                (1, anna, 2, "Nf3"), (4, boris, 2, "Nc6"), (1, boris, 3, "a6"),
                                                (2, anna, 3, "Bb5"), (500, boris, 3, "a6"), (1, anna, 4, "Ba4")):
            clock.advance(delay_s * S)
            answers.append(press(user, game_id, number, notation))
        events = list(LiveEvent.objects.filter(game_id=game_id).order_by("seq").values_list(
            "seq", "kind", "player", "number", "notation", "at_ms", "reason"))
        live = LiveGame.objects.filter(pk=game_id).values("version", "snapshot", "snapshot_seq", "ended_at_ms",
                                                          "position", "next_check_at_ms").get()
        clock.timers.clear()
        clock.now = START_MS - 60 * S  # the second game starts as the first did
        return answers, events, live

    with_known = play()
    assert [a["status"] for a in with_known[0]] == [201, 201, 201, 409, 201, 409, 201, 409, 409], with_known[0]
    assert "lost on time" in with_known[0][7]["detail"]
    settings.LIVE_KNOWN_GAMES = 0
    assert play() == with_known


def test_the_partners_move_made_by_another_process_is_seen_before_answering(arbiter, anna, boris, clock,
                                                                             create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert press(anna, game_id, 1, "e4")["status"] == 201
    before = known.recall(game_id)
    clock.advance(2 * S)
    assert press(boris, game_id, 1, "e5")["status"] == 201  # on "another process": this one still knows `before`
    known.remember(game_id, before)
    clock.advance(2 * S)
    with CaptureQueriesContext(connection) as ctx:
        answer = press(anna, game_id, 2, "Nf3")  # refused on what was known ("black's move"): judged again
    assert answer["status"] == 201, answer
    assert len(sent(ctx)) == 2  # nothing sent on the old rows: the locking read and the store
    assert moves(game_id) == ["e4", "e5", "Nf3"]


def test_a_double_click_on_two_processes_stores_one_move_and_tells_the_second_what_it_lost_to(
        arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    read_game(game_id)
    before = known.recall(game_id)
    assert before is not None
    assert press(anna, game_id, 1, "e4")["status"] == 201
    version = LiveGame.objects.get(pk=game_id).version
    known.remember(game_id, before)  # the other process knows the game as it was before that move
    clock.advance(S)
    with CaptureQueriesContext(connection) as ctx:
        second = press(anna, game_id, 1, "e4")
    assert second["status"] == 409 and second["detail"] == "it is black's move", second
    sql = sent(ctx)
    assert "corr_live_store_" in sql[0] and sql[0].endswith("; COMMIT"), sql  # sent on the old rows, wrote nothing
    assert any("corr_live_lock(" in q for q in sql[1:]), sql  # then judged under the lock
    assert moves(game_id) == ["e4"]
    assert LiveGame.objects.get(pk=game_id).version == version


@pytest.mark.parametrize("change", ["live row", "tournament", "event"])
def test_a_row_changed_by_any_other_writer_makes_the_press_read_again(arbiter, anna, boris, clock, create_game,
                                                                      change):
    # Whatever wrote, and whether or not it bumped a version: each row's own version (xmin) changed.
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert press(anna, game_id, 1, "e4")["status"] == 201
    assert press(boris, game_id, 1, "e5")["status"] == 201
    if change == "live row":
        LiveGame.objects.filter(pk=game_id).update(next_check_at_ms=None)
    elif change == "tournament":
        Tournament.objects.filter(games__pk=game_id).update(name="Live cup, renamed")
    else:
        LiveEvent.objects.create(game_id=game_id, seq=LiveEvent.objects.filter(game_id=game_id).latest("seq").seq + 1,
                                 kind="case", at_ms=clock.now, reason="a record written by another program")
    version = LiveGame.objects.get(pk=game_id).version
    clock.advance(2 * S)
    with CaptureQueriesContext(connection) as ctx:
        answer = press(anna, game_id, 2, "Nf3")
    assert answer["status"] == 201, answer
    assert len(sent(ctx)) == 3  # the one-trip store wrote nothing; the locking read and the store
    assert moves(game_id) == ["e4", "e5", "Nf3"]
    assert LiveGame.objects.get(pk=game_id).version == version + 1
    assert known.recall(game_id) == as_read(game_id)


def test_with_no_game_known_every_press_takes_the_lock(arbiter, anna, boris, clock, create_game, settings):
    settings.LIVE_KNOWN_GAMES = 0
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert press(anna, game_id, 1, "e4")["status"] == 201
    with CaptureQueriesContext(connection) as ctx:
        assert press(boris, game_id, 1, "e5")["status"] == 201
    assert len(sent(ctx)) == 2
    assert known.recall(game_id) is None


def test_a_write_inside_a_transaction_leaves_nothing_known(arbiter, anna, clock, create_game):
    # In ``atomic`` (an arbiter's action) a later statement of the same transaction could change a row the write
    # returned, whose version (the transaction's) would still match: such a write forgets the game instead.
    from corr.live import services

    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert press(anna, game_id, 1, "e4")["status"] == 201
    assert known.recall(game_id) is not None
    clock.advance(S)
    services.live_pause(game_id=game_id, by=arbiter, reason="a light went out")
    assert known.recall(game_id) is None
