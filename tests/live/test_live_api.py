"""A live game driven through the HTTP stack with the server's clock moved by hand (no sleeps)."""

from __future__ import annotations

import pytest

from corr.models import Game, LiveEvent, LiveGame

from .conftest import FISCHER_5_2, MIN, ONE_HOUR, S, START_MS, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def move(client, game_id, number, notation="", **extra):
    return client.post(f"/api/games/{game_id}/moves/", {"number": number, "notation": notation, **extra},
                       format="json")


def live_of(client, game_id):
    r = client.get(f"/api/games/{game_id}/")
    assert r.status_code == 200, r.json()
    return r.json()["live"]


def test_a_live_game_starts_at_its_instant_and_each_press_switches_the_clocks_with_its_increment(
        api, arbiter, anna, boris, clock, create_game):
    tournament = live_tournament(arbiter, FISCHER_5_2)
    game_id = create_game(tournament)
    body = api(anna).get(f"/api/games/{game_id}/").json()
    assert body["mode"] == "live" and body["first"] == "white"
    # A minute before the start nothing runs down: white's clock starts at starts_at (003 12.5-12.6).
    assert body["live"]["players"]["white"]["remaining_ms"] == 300 * S
    clock.advance_to(START_MS + 10 * S)
    live = live_of(api(boris), game_id)
    assert live["running"] == "white" and live["server_ms"] == START_MS + 10 * S
    assert live["players"]["white"]["remaining_ms"] == 290 * S
    # White presses after 10 s: 300 - 10 + 2 = 292 s; black's clock runs.
    r = move(api(anna), game_id, 1, "e4")
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["running"] == "black"
    assert r.json()["live"]["players"]["white"]["remaining_ms"] == 292 * S
    clock.advance(4_500)
    r = move(api(boris), game_id, 1, "e5")
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["black"]["remaining_ms"] == 300 * S - 4_500 + 2 * S
    # Stamped by the server, never by the client: the stored instants are the clock's.
    assert list(LiveEvent.objects.filter(game_id=game_id, kind="move").values_list("at_ms", flat=True)) == [
        START_MS + 10 * S, START_MS + 14_500]


def test_a_move_out_of_turn_with_a_wrong_number_or_illegal_is_refused_and_stores_nothing(
        api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert move(api(boris), game_id, 1, "e5").status_code == 409
    r = move(api(anna), game_id, 2, "e4")
    assert r.status_code == 409 and r.json()["field"] == "number"
    r = move(api(anna), game_id, 1, "e5")  # not a legal white first move
    assert r.status_code == 400 and r.json()["field"] == "notation"
    r = move(api(anna), game_id, 1, "e4", sent_on="2026-03-01")  # the server stamps; no typed dates
    assert r.status_code == 400 and r.json()["field"] == "sent_on"
    assert not LiveEvent.objects.filter(game_id=game_id, kind="move").exists()
    assert LiveGame.objects.get(pk=game_id).version == 1


def test_a_refused_move_is_named_by_the_move_never_by_the_position(api, arbiter, anna, clock, create_game):
    # What the phone shows under the button: short, the move and its number, no FEN (issue 24 item 8).
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    r = move(api(anna), game_id, 1, "e5")
    assert r.status_code == 400 and r.json()["detail"] == "'e5' is not a legal move for white's move 1"
    ru = api(anna).post(f"/api/games/{game_id}/moves/", {"number": 1, "notation": "e5"}, format="json",
                        HTTP_ACCEPT_LANGUAGE="ru")
    assert "'e5'" in ru.json()["detail"] and "/" not in ru.json()["detail"]
    draughts = create_game(live_tournament(arbiter, FISCHER_5_2, kind="draughts", name="Draughts"))
    r = move(api(anna), draughts, 1, "c3 to d4")
    assert r.status_code == 400 and "/" not in r.json()["detail"] and "c3-d4" in r.json()["detail"]
    r = move(api(anna), draughts, 1, "c3-c4")
    assert r.json()["detail"] == "'c3-c4' is not a legal move for white's move 1"


def test_the_arbiter_pauses_and_resumes_and_the_clocks_stand_still_meanwhile(
        api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + 20 * S)
    r = api(anna).post(f"/api/games/{game_id}/pause/", {"reason": "please"}, format="json")
    assert r.status_code == 403  # players do not stop the clocks
    r = api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": "a spectator fainted"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["paused"] is True and r.json()["live"]["running"] is None
    clock.advance(10 * MIN)
    live = live_of(api(anna), game_id)
    assert live["players"]["white"]["remaining_ms"] == 280 * S and live["next_flag_at_ms"] is None
    assert move(api(anna), game_id, 1, "d4").status_code == 409
    r = api(arbiter).post(f"/api/games/{game_id}/resume/", {"reason": "play on"}, format="json")
    assert r.status_code == 201, r.json()
    clock.advance(5 * S)
    assert live_of(api(anna), game_id)["players"]["white"]["remaining_ms"] == 275 * S
    history = api(arbiter).get(f"/api/games/{game_id}/history/").json()
    assert [(h["kind"], h["reason"], h["entered_by"]) for h in history[1:]] == [
        ("pause", "a spectator fainted", "arbiter"), ("resume", "play on", "arbiter")]
    r = api(arbiter).post(f"/api/games/{game_id}/resume/", {}, format="json")  # not paused
    assert r.status_code == 409 and r.json()["detail"] == "the clocks are not stopped"  # issue 23: 409


def test_in_draughts_an_adjustment_that_would_leave_under_15_minutes_to_the_control_is_refused(
        api, arbiter, anna, clock, create_game):
    # 000 12.5, 001 1.7.8: the draughts presets' min_after_correction_seconds, 900.
    game_id = create_game(live_tournament(arbiter, {**ONE_HOUR, "min_after_correction_seconds": 900},
                                          kind="draughts"))
    clock.advance_to(START_MS + 30 * MIN)  # white has 30 minutes left
    r = api(arbiter).post(f"/api/games/{game_id}/time-adjustments/",
                          {"player": "white", "seconds": -15 * 60 - 0.001, "reason": "clock ran during a break"},
                          format="json")
    assert r.status_code == 400 and r.json()["field"] == "seconds"
    assert "000 12.5" in r.json()["detail"]
    assert not LiveEvent.objects.filter(game_id=game_id, kind="adjust").exists()
    r = api(arbiter).post(f"/api/games/{game_id}/time-adjustments/",
                          {"player": "white", "seconds": -15 * 60, "reason": "clock ran during a break"},
                          format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["white"]["remaining_ms"] == 15 * MIN
    r = api(arbiter).post(f"/api/games/{game_id}/time-adjustments/",
                          {"player": "black", "seconds": 120.25, "reason": "003 17.4 sanction of white"},
                          format="json")
    assert r.status_code == 201
    assert r.json()["live"]["players"]["black"]["remaining_ms"] == 60 * MIN + 120_250
    r = api(anna).post(f"/api/games/{game_id}/time-adjustments/",
                       {"player": "white", "seconds": 60, "reason": "me"}, format="json")
    assert r.status_code == 403


def test_two_illegal_moves_give_the_opponent_two_minutes_each_and_the_third_loses(
        api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS + MIN)
    for count in (1, 2):
        r = api(arbiter).post(f"/api/games/{game_id}/illegal-moves/", {"player": "white"}, format="json")
        assert r.status_code == 201, r.json()
        assert r.json()["live"]["players"]["black"]["remaining_ms"] == 60 * MIN + count * 2 * MIN
        assert r.json()["live"]["illegal_counts"]["white"] == count and r.json()["status"] == "ongoing"
    r = api(arbiter).post(f"/api/games/{game_id}/illegal-moves/", {"player": "white"}, format="json")
    assert r.status_code == 201
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result) == ("finished", "0-1") and "13.4" in game.termination
    assert r.json()["live"]["running"] is None
    assert move(api(anna), game_id, 1, "e4").status_code == 409


def test_a_player_who_never_arrives_loses_at_the_default_time_found_by_the_scheduled_check(
        api, arbiter, anna, clock, create_game):
    tournament = live_tournament(arbiter, {**ONE_HOUR, "late_arrival_seconds": 600})
    game_id = create_game(tournament)
    clock.advance_to(START_MS + 10 * MIN)
    # Exactly 10 minutes late is in time: 002 6.6 loses the player "avec plus d'une heure de retard".
    assert Game.objects.get(pk=game_id).status == "ongoing"
    clock.advance(1)  # nobody reads the game: only the scheduled check runs
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result) == ("finished", "0-1") and "late arrival" in game.termination
    assert "6.6" in game.termination
    assert move(api(anna), game_id, 1, "e4").status_code == 409


@pytest.mark.parametrize("kind, control, late_ms, who, notation", [
    # 002 6.6: "avec plus d'une heure de retard"; white's clock starts the game.
    ("chess", {**ONE_HOUR, "late_arrival_seconds": 600}, 10 * MIN, "white", "e4"),
    # 003 12.7: "более чем на половину основного контроля"; black's clock starts (12.5), 30 of 60 minutes.
    ("go", {"system": "byoyomi", "main": 3600, "periods": 5, "period_time": 30, "first": "black",
            "late_arrival_seconds": 1800}, 30 * MIN, "black", ""),
])
def test_a_first_move_at_exactly_the_allowed_lateness_is_in_time(
        api, arbiter, anna, boris, clock, create_game, kind, control, late_ms, who, notation):
    tournament = live_tournament(arbiter, control, kind=kind, name=f"Late {kind}")
    game_id = create_game(tournament)
    clock.advance_to(START_MS + late_ms)  # the scheduled check runs at its instant first: nothing is due
    assert Game.objects.get(pk=game_id).status == "ongoing"
    r = move(api(anna if who == "white" else boris), game_id, 1, notation)
    assert r.status_code == 201, r.json()
    clock.advance(MIN)
    assert Game.objects.get(pk=game_id).status == "ongoing"
    assert r.json()["live"]["players"][who]["used_ms"] == late_ms


def test_the_arbiter_decides_otherwise_by_stopping_the_clocks_before_the_default_time(
        api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, {**ONE_HOUR, "late_arrival_seconds": 600}))
    clock.advance_to(START_MS + 9 * MIN)
    api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": "train late, 002 6.6"}, format="json")
    clock.advance(30 * MIN)
    assert Game.objects.get(pk=game_id).status == "ongoing"
    api(arbiter).post(f"/api/games/{game_id}/resume/", {}, format="json")
    assert move(api(anna), game_id, 1, "e4").status_code == 201


def test_a_live_tournament_needs_a_clock_in_seconds_and_its_rules_change_without_breaking_its_games(
        api, arbiter, anna, clock, create_game):
    r = api(arbiter).post("/api/tournaments/", {"name": "Live days", "official_start": "2026-03-01", "mode": "live"},
                          format="json")
    assert r.status_code == 400 and r.json()["field"] == "ruleset.time_control.unit"
    tournament = live_tournament(arbiter, FISCHER_5_2)
    game_id = create_game(tournament)
    r = api(arbiter).patch(f"/api/tournaments/{tournament.pk}/", {"name": "Live cup, renamed"}, format="json")
    assert r.status_code == 200, r.json()
    assert live_of(api(anna), game_id)["players"]["white"]["remaining_ms"] == 300 * S


def test_a_live_control_takes_hours_in_seconds_and_refuses_more_than_a_week_naming_the_field(api, arbiter, clock):
    # 10,800 s (3 hours of main time) is beyond the days controls' bound of 10,000 and valid in seconds.
    three_hours = {"unit": "seconds", "system": "periods", "stages": [{"moves": None, "time": 10_800}]}
    r = api(arbiter).post("/api/tournaments/", {"name": "Title match", "official_start": "2026-03-01", "mode": "live",
                                                "ruleset": {"time_control": three_hours}}, format="json")
    assert r.status_code == 201, r.json()
    too_long = {**three_hours, "stages": [{"moves": None, "time": 604_800.5}]}
    r = api(arbiter).post("/api/tournaments/", {"name": "Too long", "official_start": "2026-03-01", "mode": "live",
                                                "ruleset": {"time_control": too_long}}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "ruleset.time_control.stages[0].time" and "604800" in r.json()["detail"]


def test_an_arbiters_live_action_on_a_correspondence_game_is_refused_and_stores_nothing(api, arbiter, server_game):
    from corr.models import GameEvent

    before = GameEvent.objects.filter(game=server_game).count()
    r = api(arbiter).post(f"/api/games/{server_game.pk}/pause/", {"reason": "a phone rang"}, format="json")
    assert r.status_code == 400 and "not a live game" in r.json()["detail"]
    assert GameEvent.objects.filter(game=server_game).count() == before
    assert not LiveEvent.objects.filter(game=server_game).exists()
