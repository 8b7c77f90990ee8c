"""Events a player triggers (issue 24 item 5): the stop of the clocks, and the call of the arbiter.

000 12.11 and 001 1.7.11: stopping the clock is resignation, unless the arbiter finds it a misunderstanding
(a warning); 000 12.11 and 001 1.7.13: in a game to the end, the stronger side's stop in a clearly winning
position is a draw (``stop_claims_draw``, for the arbiter to confirm). 002 6.12 b and 003 12.13: a player may
stop the clocks to call the arbiter, who judges whether the reason was valid and may penalise (17.4).
Through the HTTP stack on the injected clock.
"""

from __future__ import annotations

import pytest

from corr.models import Game, LiveEvent

from .conftest import MIN, ONE_HOUR, S, START_MS, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def post(client, game_id, what, body=None):
    return client.post(f"/api/games/{game_id}/{what}/", body or {}, format="json")


def kinds(game_id):
    return [e.kind for e in LiveEvent.objects.filter(game_id=game_id).order_by("seq")]


def history(client, game_id):
    return client.get(f"/api/games/{game_id}/history/").json()


def test_a_players_stop_of_the_clocks_is_resignation(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS + 10 * S)
    r = post(api(boris), game_id, "live/stop")  # black stops the clocks while white thinks
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["status"], body["result"]) == ("finished", "1-0")
    assert "resignation" in body["termination"] and "12.11" in body["termination"]
    assert body["live"]["running"] is None and body["live"]["ended_at_ms"] == START_MS + 10 * S
    assert body["live"]["player_stop"] == {"kind": "resignation", "player": "black", "at_ms": START_MS + 10 * S,
                                           "rulings": ["warning"]}
    stop, result = history(api(anna), game_id)[-2:]
    assert (stop["kind"], stop["player"], stop["entered_by"]) == ("stop", "black", "boris")
    assert "признание им поражения" in result["reason"]  # the rule quoted in the history
    clock.advance(10 * MIN)
    assert api(anna).get(f"/api/games/{game_id}/").json()["live"]["players"]["white"]["remaining_ms"] == 3590 * S


def test_the_arbiter_turns_a_stop_into_a_warning_and_the_game_goes_on(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS + 10 * S)
    post(api(anna), game_id, "live/stop", {"reason": "pressed the wrong button"})
    clock.advance(2 * MIN)
    assert post(api(anna), game_id, "live/ruling", {"ruling": "warning"}).status_code == 403  # arbiters rule
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "warning", "reason": "a misunderstanding"})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["status"] == "ongoing" and body["result"] in ("", None)
    live = body["live"]
    # The clocks stood from the stop to the ruling: no one's time. White's clock runs again.
    assert live["running"] == "white" and live["players"]["white"]["remaining_ms"] == 3590 * S
    assert live["player_stop"] is None and live["ended_at_ms"] is None
    assert kinds(game_id)[-5:] == ["stop", "result", "reopen", "warning", "resume"]
    warning = history(api(boris), game_id)[-2]
    assert warning["player"] == "white" and "недоразумению" in warning["reason"]
    assert post(api(anna), game_id, "moves", {"number": 1, "notation": "e4"}).status_code == 201


def test_in_a_game_to_the_end_the_stop_is_a_draw_claim_the_arbiter_confirms(api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, {**ONE_HOUR, "stop_claims_draw": True}, kind="draughts"))
    clock.advance_to(START_MS + 10 * S)
    r = post(api(anna), game_id, "live/stop")
    assert r.status_code == 201, r.json()
    live = r.json()["live"]
    assert r.json()["status"] == "ongoing" and live["paused"] is True and "1.7.13" in live["case"]
    assert live["player_stop"]["kind"] == "draw_claim"
    assert live["player_stop"]["rulings"] == ["draw", "resignation", "warning"]
    assert post(api(arbiter), game_id, "resume").status_code == 409  # the claim is ruled on first
    assert post(api(arbiter), game_id, "live/ruling", {"ruling": "justified"}).status_code == 400
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "draw"})
    assert r.status_code == 201, r.json()
    assert (r.json()["status"], r.json()["result"]) == ("finished", "1/2-1/2") and r.json()["live"]["case"] is None


def test_a_draw_claim_refused_is_a_resignation(api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, {**ONE_HOUR, "stop_claims_draw": True}, kind="draughts"))
    clock.advance_to(START_MS + 10 * S)
    post(api(anna), game_id, "live/stop")
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "resignation", "reason": "not clearly winning"})
    assert (r.json()["status"], r.json()["result"]) == ("finished", "0-1")


def test_a_call_of_the_arbiter_stops_both_clocks_until_the_ruling(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR, kind="go", name="Go"))
    clock.advance_to(START_MS + 10 * S)
    r = post(api(boris), game_id, "live/call-arbiter", {"reason": "no stones left in the bowl"})
    assert r.status_code == 201, r.json()
    live = r.json()["live"]
    assert live["paused"] is True and live["running"] is None and "12.13" in live["case"]
    assert live["player_stop"] == {"kind": "call", "player": "black", "at_ms": START_MS + 10 * S,
                                   "rulings": ["justified", "warning", "penalty"]}
    assert "chercher l'assistance de l'arbitre" in history(api(anna), game_id)[-1]["reason"]
    assert post(api(anna), game_id, "live/call-arbiter").status_code == 409  # stopped already
    assert post(api(anna), game_id, "moves", {"number": 1}).status_code == 409
    clock.advance(3 * MIN)
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "justified"})
    assert r.status_code == 201, r.json()
    live = r.json()["live"]
    assert live["running"] == "white" and live["case"] is None and live["player_stop"] is None
    assert live["players"]["white"]["remaining_ms"] == 3590 * S
    assert kinds(game_id)[-4:] == ["call", "case", "ruling", "resume"]


def test_a_call_without_a_valid_reason_is_penalised_with_time_or_a_warning(api, arbiter, anna, boris, clock,
                                                                           create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR, kind="go", name="Go"))
    clock.advance_to(START_MS + 10 * S)
    post(api(boris), game_id, "live/call-arbiter")
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "penalty"})
    assert r.status_code == 400 and r.json()["field"] == "seconds"
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "penalty", "seconds": -60, "reason": "no reason"})
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["black"]["remaining_ms"] == 3540 * S  # 17.4 c: taken from the caller
    clock.advance(5 * S)
    post(api(anna), game_id, "live/call-arbiter")
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "penalty", "seconds": 30})
    assert r.json()["live"]["players"]["black"]["remaining_ms"] == 3570 * S  # 17.4 b: given to the partner
    post(api(anna), game_id, "live/call-arbiter")
    r = post(api(arbiter), game_id, "live/ruling", {"ruling": "warning"})
    assert r.status_code == 201 and kinds(game_id)[-2:] == ["warning", "resume"]
    assert post(api(arbiter), game_id, "live/ruling", {"ruling": "warning"}).status_code == 409  # nothing pending


def test_only_the_players_stop_and_call(api, arbiter, eve, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS + S)
    assert post(api(arbiter), game_id, "live/stop").status_code == 403
    assert post(api(arbiter), game_id, "live/call-arbiter").status_code == 403
    assert post(api(eve), game_id, "live/stop").status_code in (403, 404)
    assert Game.objects.get(pk=game_id).status == "ongoing" and kinds(game_id) == ["start"]


def test_a_stop_waits_while_the_arbiter_has_a_flag_to_judge(api, arbiter, anna, boris, clock, create_game):
    # Go: a flag opens a case (003 12.10); neither player's stop nor call may replace it.
    game_id = create_game(live_tournament(arbiter, {"system": "sudden_death", "time": 60}, kind="go", name="Go"))
    clock.advance_to(START_MS + 61 * S)
    assert api(arbiter).get(f"/api/games/{game_id}/").json()["live"]["case"].startswith("003 12.10")
    for user, what in ((anna, "live/stop"), (boris, "live/call-arbiter")):
        r = post(api(user), game_id, what)
        assert r.status_code == 409 and "case" in r.json()["detail"], what
