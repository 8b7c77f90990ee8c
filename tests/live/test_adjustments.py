"""The arbiter's time adjustments (issue 24 item 3): the correction floor is draughts' rule and a ruleset
number, and in byo-yomi the time goes to or from the current period (Canadian: block), in main time to
or from the main time (003 12.14, 17.4 б/в). Through the HTTP stack on the injected clock."""

from __future__ import annotations

import pytest

from corr.clock import Ruleset
from corr.clock.presets import PRESETS

from .conftest import MIN, S, START_MS, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

GO_BYOYOMI = {"system": "byoyomi", "main": 10, "periods": 3, "period_time": 30, "first": "black"}
GO_CANADIAN = {"system": "canadian", "main": 10, "moves": 2, "period_time": 20, "first": "black"}


def adjust(client, game_id, player, seconds, reason="003 17.4 sanction"):
    return client.post(f"/api/games/{game_id}/time-adjustments/", {"player": player, "seconds": seconds,
                                                                   "reason": reason}, format="json")


def move(client, game_id, number):
    r = client.post(f"/api/games/{game_id}/moves/", {"number": number, "notation": ""}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()["live"]["players"]


def players(client, game_id):
    return client.get(f"/api/games/{game_id}/").json()["live"]["players"]


def test_the_draughts_preset_keeps_15_minutes_and_every_other_preset_has_no_floor(api, arbiter, clock):
    for name, preset in PRESETS.items():
        control = Ruleset.from_mapping(preset).time_control
        if control is not None and control.live is not None:
            assert control.live.min_after_correction_ms == (900 * S if name.startswith("draughts") else 0), name
    r = api(arbiter).post("/api/tournaments/", {"name": "FIDE open", "official_start": "2026-03-01", "mode": "live",
                                                "preset": "fide_classical_live"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["ruleset"]["time_control"]["min_after_correction_seconds"] == 0


def test_a_fide_correction_in_a_five_minute_game_takes_time_off(api, arbiter, clock, create_game):
    # FIDE 6.10, 6.13: the arbiter uses best judgement for the times on the clock; no 15-minute floor.
    game_id = create_game(live_tournament(arbiter, {"system": "fischer", "initial": 300, "increment": 0}))
    clock.advance_to(START_MS + MIN)
    r = adjust(api(arbiter), game_id, "white", -120, "the clock ran during a break (6.13)")
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["white"]["remaining_ms"] == 2 * MIN


def test_a_go_sanction_of_a_minute_on_a_player_with_750_seconds_left(api, arbiter, clock, create_game):
    # 003 17.4 в: "уменьшение времени, оставшегося у игрока"; 600 s of main time and 5 periods of 30 s.
    go = {"system": "byoyomi", "main": 600, "periods": 5, "period_time": 30, "first": "black"}
    game_id = create_game(live_tournament(arbiter, go, kind="go"))
    clock.advance_to(START_MS)
    assert players(api(arbiter), game_id)["black"]["remaining_ms"] == 750 * S
    r = adjust(api(arbiter), game_id, "black", -60)
    assert r.status_code == 201, r.json()
    black = r.json()["live"]["players"]["black"]
    assert (black["remaining_ms"], black["main_ms"], black["periods_left"]) == (690 * S, 540 * S, 5)


def test_a_go_player_in_byoyomi_is_sanctioned_with_time_from_the_current_period(api, arbiter, clock, create_game):
    game_id = create_game(live_tournament(arbiter, GO_BYOYOMI, kind="go"))
    clock.advance_to(START_MS + 15 * S)  # black: 10 s of main time, then 5 s into the first period
    black = players(api(arbiter), game_id)["black"]
    assert (black["period_left_ms"], black["periods_left"], black["remaining_ms"]) == (25 * S, 3, 85 * S)
    r = adjust(api(arbiter), game_id, "black", -10)  # from the current period: 15 s of it left
    black = r.json()["live"]["players"]["black"]
    assert (black["period_left_ms"], black["periods_left"], black["remaining_ms"]) == (15 * S, 3, 75 * S)
    r = adjust(api(arbiter), game_id, "black", -20)  # more than the period has: it is used up, 25 s of the next
    black = r.json()["live"]["players"]["black"]
    assert (black["period_left_ms"], black["periods_left"], black["remaining_ms"]) == (25 * S, 2, 55 * S)


def test_a_taking_that_would_leave_no_time_is_refused(api, arbiter, clock, create_game):
    game_id = create_game(live_tournament(arbiter, GO_BYOYOMI, kind="go"))
    clock.advance_to(START_MS + 15 * S)
    r = adjust(api(arbiter), game_id, "black", -85)
    assert r.status_code == 400 and r.json()["field"] == "seconds" and "17.4" in r.json()["detail"]
    assert adjust(api(arbiter), game_id, "black", -84.999).status_code == 201


@pytest.mark.parametrize("earlier_move", [False, True])
def test_time_added_in_byoyomi_extends_the_current_period_and_is_not_carried_over(
        api, arbiter, anna, boris, clock, create_game, earlier_move):
    # 003 12.2: "Время, сэкономленное игроком в течение основного и бееми не добавляется ко времени
    # следующего периода". Black is in byo-yomi, 25 s left of the period, when the arbiter adds a minute
    # (17.4 б): 85 s for this move; black moves 5 s later, and the unused 80 s are not kept.
    game_id = create_game(live_tournament(arbiter, GO_BYOYOMI, kind="go"))
    clock.advance_to(START_MS)
    number = 1
    if earlier_move:  # black's main time ran out on an earlier move: this one starts in byo-yomi
        clock.advance(12 * S)
        move(api(boris), game_id, 1)
        move(api(anna), game_id, 1)
        number = 2
        clock.advance(5 * S)
    else:  # main time runs out in this very move, then the addition
        clock.advance(15 * S)
    assert players(api(arbiter), game_id)["black"]["remaining_ms"] == 85 * S
    r = adjust(api(arbiter), game_id, "black", 60)
    assert r.status_code == 201, r.json()
    assert r.json()["live"]["players"]["black"]["remaining_ms"] == 145 * S
    clock.advance(5 * S)
    black = move(api(boris), game_id, number)["black"]
    assert (black["main_ms"], black["periods_left"], black["remaining_ms"]) == (0, 3, 90 * S)


def test_time_given_to_a_partner_in_byoyomi_is_for_the_partners_next_period(api, arbiter, anna, boris, clock,
                                                                           create_game):
    # 003 13.4 б: the partner of an illegal move gets 2 minutes; white, in byo-yomi, gets them on its period.
    game_id = create_game(live_tournament(arbiter, GO_BYOYOMI, kind="go"))
    clock.advance_to(START_MS + S)
    move(api(boris), game_id, 1)
    clock.advance(12 * S)
    move(api(anna), game_id, 1)  # white: main time used up, in the first period
    r = api(arbiter).post(f"/api/games/{game_id}/illegal-moves/", {"player": "black"}, format="json")
    assert r.status_code == 201, r.json()
    white = r.json()["live"]["players"]["white"]
    assert (white["period_left_ms"], white["remaining_ms"]) == (150 * S, 210 * S)
    move(api(boris), game_id, 2)
    clock.advance(10 * S)
    white = move(api(anna), game_id, 2)["white"]
    assert (white["main_ms"], white["periods_left"], white["remaining_ms"]) == (0, 3, 90 * S)


def test_time_added_in_a_canadian_block_lasts_until_the_block_is_played(api, arbiter, anna, boris, clock,
                                                                       create_game):
    # Canadian: the current block keeps an addition for its moves; a fresh block starts afresh (12.2).
    game_id = create_game(live_tournament(arbiter, GO_CANADIAN, kind="go"))
    clock.advance_to(START_MS + 12 * S)
    black = move(api(boris), game_id, 1)["black"]  # main used up: the first move of block 1, 2 s of it used
    assert (black["block"], black["block_moves_left"], black["block_ms_left"]) == (1, 1, 18 * S)
    move(api(anna), game_id, 1)
    black = adjust(api(arbiter), game_id, "black", 30).json()["live"]["players"]["black"]
    assert (black["block_ms_left"], black["remaining_ms"]) == (48 * S, 48 * S)
    clock.advance(8 * S)
    black = move(api(boris), game_id, 2)["black"]  # the block's second move: a fresh block, without the 40 s
    assert (black["block"], black["block_moves_left"], black["block_ms_left"]) == (2, 2, 20 * S)


def test_time_added_in_the_move_that_ran_out_of_main_time_counts_from_the_end_of_it(api, arbiter, boris, clock,
                                                                                    create_game):
    # Black's 10 s of main time ran out 2 s ago, in this move; the arbiter adds 30 s: 48 s to the flag. Black
    # moves 8 s later: the move used main time up and opened block 1 (where the texts are silent: the
    # addition does not bring main time back; what the move did not use of it is not kept).
    game_id = create_game(live_tournament(arbiter, GO_CANADIAN, kind="go"))
    clock.advance_to(START_MS + 12 * S)
    assert adjust(api(arbiter), game_id, "black", 30).json()["live"]["players"]["black"]["remaining_ms"] == 48 * S
    clock.advance(8 * S)
    black = move(api(boris), game_id, 1)["black"]
    assert (black["main_ms"], black["in_overtime"], black["block"], black["block_moves_left"],
            black["block_ms_left"]) == (0, True, 1, 1, 20 * S)
