"""An arbiter reopens a finished live game (``POST /api/games/{id}/reopen/ {"note"}``): a result recorded by mistake.

It answered 400 "A time control in seconds is a live clock: correspondence games count days." (the
correspondence service's recomputation), so a live game's result could not be undone. Now: the game is ongoing
again, its clocks stand from the instant it ended until the arbiter resumes them (002 6.13), and the result stays
in the history with a ``reopen`` line after it. Through the HTTP stack on the injected clock.
"""

from __future__ import annotations

import pytest

from corr.models import LiveEvent

from .conftest import MIN, ONE_HOUR, S, START_MS, SUDDEN_DEATH_60, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def post(client, game_id, what, body=None):
    return client.post(f"/api/games/{game_id}/{what}/", body or {}, format="json")


def kinds(game_id):
    return [e.kind for e in LiveEvent.objects.filter(game_id=game_id).order_by("seq")]


def test_a_result_recorded_by_mistake_is_reopened_and_the_clocks_stand_until_the_arbiter_resumes(
        api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS + 10 * S)
    assert post(api(anna), game_id, "moves", {"number": 1, "notation": "e4"}).status_code == 201
    clock.advance(20 * S)  # black thinks 20 s
    assert post(api(arbiter), game_id, "result", {"result": "1-0", "termination": "wrong board"}).status_code == 201
    clock.advance(5 * MIN)
    r = post(api(arbiter), game_id, "reopen", {"note": "the result was entered on the wrong board"})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["status"], body["result"], body["termination"]) == ("ongoing", "", "")
    live = body["live"]
    assert (live["status"], live["paused"], live["running"], live["ended_at_ms"]) == ("ongoing", True, None, None)
    assert live["players"]["black"]["remaining_ms"] == 3600 * S - 20 * S  # the 5 minutes finished are no one's
    assert kinds(game_id)[-3:] == ["result", "pause", "reopen"]
    pause, reopen = api(boris).get(f"/api/games/{game_id}/history/").json()[-2:]
    assert pause["at_ms"] == START_MS + 30 * S and pause["entered_by"] == "arbiter"
    assert reopen["reason"] == "reopened (was 1-0, wrong board): the result was entered on the wrong board"
    # Black cannot move on stopped clocks; the arbiter restarts them and black's clock runs from where it stood.
    assert post(api(boris), game_id, "moves", {"number": 1, "notation": "e5"}).status_code == 409
    assert post(api(arbiter), game_id, "resume", {}).status_code == 201
    clock.advance(3 * S)
    r = post(api(boris), game_id, "moves", {"number": 1, "notation": "e5"})
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["black"]["remaining_ms"] == 3600 * S - 23 * S


def test_a_result_recorded_on_stopped_clocks_is_reopened_on_them(api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS + 10 * S)
    assert post(api(arbiter), game_id, "pause", {}).status_code == 201
    assert post(api(arbiter), game_id, "result", {"result": "0-1"}).status_code == 201
    clock.advance(MIN)
    r = post(api(arbiter), game_id, "reopen", {"note": "a mistake"})
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["paused"] is True and r.json()["live"]["players"]["white"]["remaining_ms"] == 3590 * S
    assert kinds(game_id)[-3:] == ["pause", "result", "reopen"]  # no second pause


def test_a_reopening_is_the_arbiters_with_a_note_of_a_finished_game(api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + 10 * S)
    r = post(api(arbiter), game_id, "reopen", {"note": "why"})
    assert (r.status_code, r.json()["field"]) == (409, "game")  # not finished
    assert post(api(arbiter), game_id, "result", {"result": "1-0"}).status_code == 201
    assert post(api(anna), game_id, "reopen", {"note": "please"}).status_code == 403
    r = post(api(arbiter), game_id, "reopen", {"note": "  "})
    assert (r.status_code, r.json()["field"]) == (400, "note")
    assert api(anna).get(f"/api/games/{game_id}/").json()["status"] == "finished"


def test_a_game_lost_on_time_is_reopened_with_the_flag_still_fallen_and_not_decided_again(
        api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert post(api(anna), game_id, "moves", {"number": 1, "notation": "e4"}).status_code == 201
    flag_at = START_MS + S + 60 * S
    clock.advance_to(flag_at + MIN)  # the scheduled check records black's flag
    assert api(anna).get(f"/api/games/{game_id}/").json()["result"] == "1-0"
    r = post(api(arbiter), game_id, "reopen", {"note": "the clock was set wrong"})
    assert r.status_code == 201, r.json()
    live = r.json()["live"]
    assert (live["status"], live["paused"]) == ("ongoing", True)
    assert live["players"]["black"]["flag_fallen"] is True and live["players"]["black"]["flag_at_ms"] == flag_at
    # The arbiter gives black time and restarts the clocks: the game goes on, the recorded flag not decided again.
    assert post(api(arbiter), game_id, "time-adjustments",
                {"player": "black", "seconds": 120, "reason": "the clock was set wrong"}).status_code == 201
    assert post(api(arbiter), game_id, "resume", {}).status_code == 201
    clock.advance(10 * S)
    body = api(boris).get(f"/api/games/{game_id}/").json()
    assert body["status"] == "ongoing", body["live"]
    assert kinds(game_id).count("result") == 1


def test_a_forfeit_the_clock_counts_and_a_stop_that_resigned_are_not_reopened_here(
        api, arbiter, anna, clock, create_game):
    late = create_game(live_tournament(arbiter, {**ONE_HOUR, "late_arrival_seconds": 600}))
    stopped = create_game(live_tournament(arbiter, ONE_HOUR, name="Live cup 2"))
    clock.advance_to(START_MS + 10 * MIN + 5 * S)  # white never arrived: the scheduled check records the forfeit
    assert api(arbiter).get(f"/api/games/{late}/").json()["status"] == "finished"
    r = post(api(arbiter), late, "reopen", {"note": "a mistake"})
    assert (r.status_code, r.json()["field"]) == (409, "game")
    assert "late arrival" in r.json()["detail"] and "002 6.6" in r.json()["detail"]
    assert api(arbiter).get(f"/api/games/{late}/").json()["status"] == "finished"

    assert post(api(anna), stopped, "live/stop").status_code == 201
    r = post(api(arbiter), stopped, "reopen", {"note": "a mistake"})
    assert (r.status_code, r.json()["field"]) == (409, "game")
    assert "rule on it first" in r.json()["detail"]
