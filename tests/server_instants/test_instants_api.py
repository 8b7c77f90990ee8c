"""What the client receives of a server game under an instant count (issue 22): instants, flag_at, seconds left.

lichess_days_1 (exact count, 1 day per move): white sends 1. e4 at 10:00:00Z on
2 March; black receives it at that instant and must answer within 86,400 s, so
black's flag falls at 10:00:00Z on 3 March.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from corr.models import GameEvent, PlayerClock

from .conftest import BLACK_FLAG, WHITE_SENT, move_at, read_at, z

pytestmark = pytest.mark.django_db


def test_a_server_move_stores_its_instant_and_the_partners_receipt_is_that_instant(api, exact_game, boris):
    sent = WHITE_SENT + timedelta(hours=5, minutes=7, seconds=9)
    assert move_at(api(boris), exact_game, 1, "e5", sent).status_code == 201
    history = api(boris).get(f"/api/games/{exact_game.pk}/history/").json()
    moves = [line for line in history if line["kind"] == "move"]
    assert [(m["player"], m["received_at"], m["sent_at"]) for m in moves] == [
        ("white", None, "2026-03-02T10:00:00Z"),
        ("black", "2026-03-02T10:00:00Z", "2026-03-02T15:07:09Z"),
    ]
    # The dates beside them are the instants' dates in the tournament's zone (Moscow, UTC+3).
    assert [(m["received_on"], m["sent_on"]) for m in moves] == [(None, "2026-03-02"), ("2026-03-02", "2026-03-02")]


def test_the_pending_move_says_its_received_date_as_a_date_and_its_instant_beside_it(api, exact_game, boris):
    # As the history's lines: received_on the instant's date in the tournament's zone, received_at the
    # instant. It was the instant in received_on ("2026-03-02T10:00:00+00:00"), which the schema
    # documents as a date: schemathesis's stateful phase found it in the move's 201 (issue 23).
    late = WHITE_SENT.replace(hour=22)  # 01:00 on 3 March in Moscow
    white_sends = move_at(api(boris), exact_game, 1, "e5", WHITE_SENT + timedelta(hours=1))
    assert white_sends.status_code == 201
    answer = move_at(api(exact_game.white), exact_game, 2, "Nf3", late)
    assert answer.json()["pending"] == {"player": "black", "number": 2, "received_on": "2026-03-03",
                                        "received_at": "2026-03-02T22:00:00Z", "presumed": False}
    read = api(boris).get(f"/api/games/{exact_game.pk}/").json()["pending"]
    assert read == answer.json()["pending"]


def test_a_dates_games_pending_move_has_no_instant(api, postal_game, anna):
    pending = api(anna).get(f"/api/games/{postal_game.pk}/").json()["pending"]
    assert pending == {"player": "white", "number": 1, "received_on": None, "received_at": None, "presumed": False}


def test_the_clock_carries_flag_at_and_the_seconds_left(api, exact_game, boris):
    body = read_at(api(boris), f"/api/games/{exact_game.pk}/", WHITE_SENT + timedelta(hours=2)).json()
    assert body["clock"]["as_of"] == "2026-03-02T12:00:00Z"  # the second of the request
    black = body["clock"]["players"]["black"]
    assert black["flag_at"] == z(BLACK_FLAG)
    assert black["remaining_seconds"] == 22 * 3600  # 2 of the 24 hours used
    assert black["overstepped"] is None
    assert body["clock"]["players"]["white"]["flag_at"] is None  # not on move
    stored = PlayerClock.objects.get(game=exact_game, player="black")
    assert z(stored.flag_at) == z(BLACK_FLAG)  # the sweep's column


def test_one_second_before_the_flag_one_second_is_left_and_at_the_flag_it_has_fallen(api, exact_game, boris):
    before = read_at(api(boris), f"/api/games/{exact_game.pk}/", BLACK_FLAG - timedelta(seconds=1)).json()
    assert before["clock"]["players"]["black"]["remaining_seconds"] == 1
    assert before["clock"]["players"]["black"]["overstepped"] is None
    at = read_at(api(boris), f"/api/games/{exact_game.pk}/", BLACK_FLAG).json()
    over = at["clock"]["players"]["black"]["overstepped"]
    assert over is not None and over["at"] == z(BLACK_FLAG)


def test_a_reply_clears_the_flag_and_sets_the_partners(api, exact_game, anna, boris):
    assert move_at(api(boris), exact_game, 1, "e5", WHITE_SENT + timedelta(hours=20)).status_code == 201
    clocks = {c.player: c.flag_at for c in PlayerClock.objects.filter(game=exact_game)}
    assert clocks["black"] is None
    assert z(clocks["white"]) == z(WHITE_SENT + timedelta(hours=20) + timedelta(days=1))


def test_the_moves_answer_carries_the_clock_of_the_instant(api, exact_game, boris):
    response = move_at(api(boris), exact_game, 1, "e5", WHITE_SENT + timedelta(hours=3))
    white = response.json()["clock"]["players"]["white"]
    assert white["flag_at"] == z(WHITE_SENT + timedelta(hours=3, days=1))
    assert white["remaining_seconds"] == 24 * 3600
    assert GameEvent.objects.filter(game=exact_game, kind="move").count() == 2


def test_a_dates_games_flag_at_is_midnight_after_its_deadline_in_the_tournaments_zone(api, postal_game, anna):
    """Under dates a deadline is a day: its flag falls at 00:00 of the next day in Moscow (21:00 UTC)."""
    body = api(anna).get(f"/api/games/{postal_game.pk}/").json()
    white = body["clock"]["players"]["white"]
    assert white["deadline"] == "2026-02-09"
    assert white["flag_at"] == "2026-02-09T21:00:00Z"  # 2026-02-10T00:00 Europe/Moscow


def test_the_game_file_of_an_instant_game_computes_as_the_service_does(api, exact_game, boris):
    """GET /events/ gives a game file with the instants; ``manage.py clock``'s computation agrees with the API."""
    from corr.clock.batch import compute_file

    at = WHITE_SENT + timedelta(hours=2)
    data = read_at(api(boris), f"/api/games/{exact_game.pk}/events/", at).json()
    assert data["events"][0]["sent_at"] == z(WHITE_SENT)
    served = read_at(api(boris), f"/api/games/{exact_game.pk}/", at).json()["clock"]["players"]
    computed = compute_file(data, as_of=None, today=at.date()).as_json()["players"]
    assert computed["black"]["flag_at"] == served["black"]["flag_at"] == z(BLACK_FLAG)
    assert computed["black"]["remaining_seconds"] == served["black"]["remaining_seconds"]


def test_an_instant_is_kept_to_the_second(api, exact_game, boris):
    """A move 0.7 s into a second is stored at that second, the second its clock is computed as of."""
    response = move_at(api(boris), exact_game, 1, "e5", WHITE_SENT + timedelta(hours=1, microseconds=700_000))
    assert response.status_code == 201, response.content
    row = GameEvent.objects.get(game=exact_game, player="black", kind="move")
    assert z(row.sent_at) == "2026-03-02T11:00:00Z" and row.sent_at.microsecond == 0
    assert response.json()["clock"]["as_of"] == "2026-03-02T11:00:00Z"
