"""Go on equal terms in live games (issue 40), through the HTTP stack on the injected clock: free handicap
placement is not charged (OGS), and a byo-yomi period overrun by at most the tournament's grace is kept."""

from __future__ import annotations

import pytest

from .conftest import START, START_MS, S, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

# Fischer 10 min + 10 s, black first; late arrival after 5 minutes of black's own clock.
GO_FISCHER = {"system": "fischer", "initial": 600, "increment": 10, "first": "black", "late_arrival_seconds": 300}


def create(api, arbiter, tournament, **extra):
    return api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": "anna", "black": "boris",
                                             "starts_at": START.isoformat(), **extra}, format="json")


def move(api, user, game_id, number, notation, **headers):
    return api(user).post(f"/api/games/{game_id}/moves/", {"number": number, "notation": notation}, format="json",
                          **headers)


def test_black_places_three_free_handicap_stones_on_a_clock_that_does_not_run(api, arbiter, anna, boris, clock):
    r = create(api, arbiter, live_tournament(arbiter, GO_FISCHER, kind="go"), handicap_stones=3)
    assert r.status_code == 201, r.json()
    game_id = r.json()["id"]
    clock.advance_to(START_MS + 40 * S)
    assert move(api, boris, game_id, 1, "D4").status_code == 201
    clock.advance_to(START_MS + 100 * S)
    assert move(api, boris, game_id, 2, "Q16").status_code == 201
    # 400 s after the start: more than the 300 s of late arrival, had black's clock run.
    clock.advance_to(START_MS + 400 * S)
    live = api(anna).get(f"/api/games/{game_id}/").json()["live"]
    assert live["handicap_stones_left"] == 1 and live["running"] is None and live["late_arrival_deadline_ms"] is None
    assert live["players"]["black"]["remaining_ms"] == 600 * S
    assert move(api, anna, game_id, 1, "D16").status_code == 409  # black is still placing
    r = move(api, boris, game_id, 3, "Q4")
    assert r.status_code == 201, r.json()
    live = r.json()["live"]
    assert live["running"] == "white" and live["handicap_stones_left"] == 0
    assert live["players"]["black"]["remaining_ms"] == 600 * S and live["players"]["black"]["used_ms"] == 0
    clock.advance(30 * S)
    r = move(api, anna, game_id, 1, "D16")  # white's first move, on the board after the three stones
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["white"]["remaining_ms"] == 580 * S  # 600 - 30 + 10
    clock.advance(20 * S)
    r = move(api, boris, game_id, 4, "D16")  # the point white took: refused on the board
    assert r.status_code == 400 and r.json()["field"] == "notation"
    r = move(api, boris, game_id, 4, "C3")
    assert r.status_code == 201 and r.json()["live"]["players"]["black"]["remaining_ms"] == 590 * S


@pytest.mark.parametrize("language, words", [("en", "not a Go game"), ("ru", "не партия в го")])
def test_a_handicap_in_a_chess_game_is_refused_naming_the_field(api, arbiter, anna, boris, clock, language, words):
    chess = live_tournament(arbiter, {"system": "fischer", "initial": 600, "increment": 10})
    r = api(arbiter).post("/api/games/", {"tournament": chess.pk, "white": "anna", "black": "boris",
                                          "starts_at": START.isoformat(), "handicap_stones": 3}, format="json",
                          HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400 and r.json()["field"] == "handicap_stones"
    assert words in r.json()["detail"]


@pytest.mark.parametrize("language, words", [("en", "0 or 2 to 9"), ("ru", "0 или от 2 до 9")])
def test_one_handicap_stone_is_refused_in_the_reader_s_language(api, arbiter, anna, boris, clock, language, words):
    r = api(arbiter).post("/api/games/", {"tournament": live_tournament(arbiter, GO_FISCHER, kind="go").pk,
                                          "white": "anna", "black": "boris", "starts_at": START.isoformat(),
                                          "handicap_stones": 1}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400 and r.json()["field"] == "handicap_stones" and words in r.json()["detail"]


@pytest.mark.parametrize("thinking_ms, periods_left", [(30_900, 5), (31_100, 4)])
def test_a_period_overrun_within_the_ogs_grace_is_kept(api, arbiter, anna, boris, clock, thinking_ms, periods_left):
    # ogs_byoyomi_live's periods without main time: 5 x 30 s, a grace of 1 s. A move of 30.9 s passed period
    # 1's end by 0.9 s: kept; one of 31.1 s by 1.1 s: period 1 used up.
    tc = {"system": "byoyomi", "main": 0, "periods": 5, "period_time": 30, "first": "black",
          "period_grace_seconds": 1}
    r = create(api, arbiter, live_tournament(arbiter, tc, kind="go"))
    game_id = r.json()["id"]
    clock.advance_to(START_MS + thinking_ms)
    r = move(api, boris, game_id, 1, "D4")
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["black"]["periods_left"] == periods_left
