"""The arbiter decides otherwise on a late arrival (002 6.6, 003 12.7) after the forfeit was recorded, and
why two flags can never fall with their order unknown under a server clock (002 6.11)."""

from __future__ import annotations

import pytest

from corr.clock import Ruleset
from corr.clock.live import LiveMove, LiveStart, live_clock
from corr.models import Game, LiveEvent, LiveGame

from .conftest import MIN, ONE_HOUR, S, START_MS, SUDDEN_DEATH_60, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

LATE_10_MIN = {**ONE_HOUR, "late_arrival_seconds": 600}


def excuse(client, game_id, player="white", reason="train stopped by a storm, arbiter informed"):
    return client.post(f"/api/games/{game_id}/late-arrival-excuses/", {"player": player, "reason": reason},
                       format="json")


def kinds(game_id):
    return [e.kind for e in LiveEvent.objects.filter(game_id=game_id).order_by("seq")]


def move(client, game_id, number, notation=""):
    return client.post(f"/api/games/{game_id}/moves/", {"number": number, "notation": notation}, format="json")


def forfeited_game(arbiter, clock, create_game):
    """A game white never arrived at: the scheduled check records the forfeit at the 10th minute."""
    game_id = create_game(live_tournament(arbiter, LATE_10_MIN))
    clock.advance_to(START_MS + 10 * MIN + 5 * S)  # nobody reads the game: only the scheduled check runs
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result) == ("finished", "0-1") and "late arrival" in game.termination
    return game_id


def test_the_arbiter_excuses_a_recorded_late_arrival_and_the_game_goes_on_with_the_clock_run_on(
        api, arbiter, anna, clock, create_game):
    game_id = forfeited_game(arbiter, clock, create_game)
    clock.advance_to(START_MS + 20 * MIN)
    r = excuse(api(arbiter), game_id)
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["status"] == "ongoing" and body["result"] in ("", None)
    live = body["live"]
    # White's hour ran on from the start, through the forfeit, to now: 40 minutes are left.
    assert live["running"] == "white" and live["players"]["white"]["remaining_ms"] == 40 * MIN
    assert live["late_arrival_deadline_ms"] is None  # excused: no second forfeit
    assert live["next_flag_at_ms"] == START_MS + 60 * MIN
    assert LiveGame.objects.get(pk=game_id).ended_at_ms is None
    # The history keeps the forfeit's result, then the excuse with its reason, then the reopening.
    assert kinds(game_id)[-3:] == ["result", "excuse", "reopen"]
    history = api(arbiter).get(f"/api/games/{game_id}/history/").json()
    result, excused, reopened = history[-3:]
    assert "late arrival" in result["reason"]
    assert excused["player"] == "white" and "train stopped by a storm" in excused["reason"]
    assert "002 6.6" in excused["reason"] and excused["entered_by"] == "arbiter"
    assert "was 0-1" in reopened["reason"] and reopened["at_ms"] == START_MS + 20 * MIN
    # The late player plays on, and the clock keeps running on the flag check scheduled anew.
    clock.advance(MIN)
    assert move(api(anna), game_id, 1, "e4").status_code == 201
    game = Game.objects.get(pk=game_id)
    assert game.status == "ongoing"
    clock.advance_to(START_MS + 31 * MIN)  # the excuse was white's: black, who never moves, is late in turn
    assert Game.objects.get(pk=game_id).status == "ongoing"  # exactly 10 minutes late: in time (002 6.6)
    clock.advance(1)
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result) == ("finished", "1-0") and "black lost by late arrival" in game.termination


def test_a_flag_that_fell_while_the_game_stood_forfeited_is_recorded_when_it_is_excused(
        api, arbiter, clock, create_game):
    game_id = forfeited_game(arbiter, clock, create_game)
    clock.advance_to(START_MS + 65 * MIN)  # the hour of white's clock ran out meanwhile
    r = excuse(api(arbiter), game_id)
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "finished" and r.json()["result"] == "0-1"
    assert "on time" in r.json()["termination"]
    assert kinds(game_id)[-5:] == ["result", "excuse", "reopen", "flag", "result"]


def test_only_an_arbiter_of_the_game_excuses(api, arbiter, anna, boris, eve, clock, create_game):
    game_id = forfeited_game(arbiter, clock, create_game)
    before = kinds(game_id)
    for user in (anna, boris, eve):
        assert excuse(api(user), game_id).status_code == 403, user
    assert kinds(game_id) == before and Game.objects.get(pk=game_id).status == "finished"


def test_an_excuse_without_a_late_arrival_forfeit_is_refused_naming_the_rule(
        api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, LATE_10_MIN))
    clock.advance_to(START_MS + 5 * MIN)
    r = excuse(api(arbiter), game_id)  # ongoing, the deadline not reached: no forfeit to lift
    assert r.status_code == 409 and "002 6.6" in r.json()["detail"] and r.json()["field"] == "player"
    clock.advance_to(START_MS + 11 * MIN)
    r = excuse(api(arbiter), game_id, player="black")  # white's forfeit, not black's
    assert r.status_code == 409 and "002 6.6" in r.json()["detail"]
    r = excuse(api(arbiter), game_id, reason="  ")
    assert r.status_code == 400 and r.json()["field"] == "reason"
    assert "excuse" not in kinds(game_id) and Game.objects.get(pk=game_id).status == "finished"


def test_a_game_ended_on_time_is_not_reopened_by_a_late_arrival_excuse(api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, {**SUDDEN_DEATH_60, "late_arrival_seconds": 600}))
    clock.advance_to(START_MS + 2 * MIN)  # white's minute ran out before the late-arrival time: a flag
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished" and "on time" in game.termination
    r = excuse(api(arbiter), game_id)
    assert r.status_code == 409 and "002 6.6" in r.json()["detail"]


def test_go_names_its_own_late_arrival_rule(api, arbiter, clock, create_game):
    go = live_tournament(arbiter, {"system": "periods", "stages": [{"moves": None, "time": 1200}],
                                   "first": "black", "late_arrival_seconds": 600}, kind="go", name="Go cup")
    game_id = create_game(go)
    clock.advance_to(START_MS + 10 * MIN + S)  # half the main time (003 12.7); black moves first
    assert "12.7" in Game.objects.get(pk=game_id).termination
    r = excuse(api(arbiter), game_id, player="black")
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["running"] == "black"
    assert "003 12.7" in LiveEvent.objects.get(game_id=game_id, kind="excuse").reason


# --- 002 6.11: both flags fallen, the order unknown --------------------------------------------------

def test_under_the_server_clock_the_first_flag_decides_and_no_second_flag_can_fall(
        api, arbiter, anna, boris, clock, create_game):
    """6.11 presumes two clocks whose flags are seen late; the server stamps each fall to the millisecond,
    and only the side to move's clock runs, so the order is always known: the first flag decides."""
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "").status_code == 201  # unread notation: the flag opens a case
    clock.advance(61 * S)  # black's minute is gone
    game = api(arbiter).get(f"/api/games/{game_id}/").json()
    assert game["status"] == "ongoing" and game["live"]["case"]
    # The flagged player cannot press after the flag, so the partner's clock never restarts.
    assert move(api(boris), game_id, 1, "").status_code == 409
    clock.advance(10 * MIN)
    game = api(arbiter).get(f"/api/games/{game_id}/").json()
    assert game["clock"]["both_fallen_order_unknown"] is False
    assert game["live"]["players"]["white"]["flag_fallen"] is False
    assert game["live"]["players"]["white"]["remaining_ms"] == 59 * S  # stood still since white's press
    assert [e.player for e in LiveEvent.objects.filter(game_id=game_id, kind="flag")] == ["black"]


def test_even_a_press_after_the_flag_leaves_the_two_falls_at_distinct_instants():
    """The engine's own replay: a move pressed after its flag is accepted as a flag, then the partner's
    clock runs from that press; with time left on it (a flag at a press is an overstep, 000 12.9), the
    second fall is strictly later, so ``both_fallen_order_unknown`` is never true."""
    ruleset = Ruleset.from_mapping({"time_control": {"unit": "seconds", **SUDDEN_DEATH_60}})
    events = [LiveStart(START_MS), LiveMove("white", 1, START_MS + 59_999),
              LiveMove("black", 1, START_MS + 59_999 + 60_000)]  # black presses exactly at the fall
    clock = live_clock(ruleset, events, START_MS + 10 * MIN)
    (first, at1, *_), (second, at2, *_) = clock.flags
    assert (first, second) == ("black", "white") and at1 < at2 == START_MS + 59_999 + 60_000 + 1
    assert clock.both_fallen_order_unknown is False


def test_the_openapi_schema_describes_the_excuse(api, arbiter):
    schema = api(arbiter).get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/games/{game_id}/late-arrival-excuses/"]["post"]
    assert "002 6.6" in operation["description"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][body]["required"]) == {"player", "reason"}
