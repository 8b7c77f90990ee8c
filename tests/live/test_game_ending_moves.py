"""A move that ends the game ends it at its instant, whatever the press (issue 24 item 4).

002 6.7 a: "Tant qu'il ne l'a pas arrêtée, on considère que son coup n'est pas achevé, sauf si le coup
effectué met fin à la partie"; 003 12.8 the same; in draughts 000 12.10 and 001 1.7.12: no overstep when
the partner's pieces are all captured or blocked. Through the HTTP stack on the injected clock.
"""

from __future__ import annotations

import pytest

from corr.models import Game, LiveEvent, LiveGame

from .conftest import MIN, ONE_HOUR, S, START_MS, SUDDEN_DEATH_60, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
# Sam Loyd's stalemate in ten: after 10. Qe6 black has no legal move and is not in check.
LOYD_STALEMATE = ["e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7", "Qxb7", "Qd3",
                  "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6"]


def play(api, users, game_id, moves, clock, step_ms=S):
    answer = None
    for ply, san in enumerate(moves):
        clock.advance(step_ms)
        answer = api(users[ply % 2]).post(f"/api/games/{game_id}/moves/", {"number": ply // 2 + 1, "notation": san},
                                          format="json")
        assert answer.status_code == 201, (san, answer.json())
    return answer.json()


def test_a_mate_ends_the_game_at_its_instant_and_no_clock_runs_after_it(api, arbiter, anna, boris, clock,
                                                                        create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS)
    body = play(api, [anna, boris], game_id, FOOLS_MATE, clock)
    mate_at = START_MS + 4 * S
    assert (body["status"], body["result"]) == ("finished", "0-1")
    assert "checkmates" in body["termination"] and "6.7" in body["termination"]
    live = body["live"]
    assert live["running"] is None and live["next_flag_at_ms"] is None and live["ended_at_ms"] == mate_at
    assert live["players"]["black"]["moves_made"] == 2
    clock.advance(2 * 60 * MIN)  # nobody moves again: white's clock never started, no flag falls
    assert not LiveEvent.objects.filter(game_id=game_id, kind="flag").exists()
    white = api(anna).get(f"/api/games/{game_id}/").json()["live"]["players"]["white"]
    assert white["remaining_ms"] == 3600 * S - 2 * S and not white["flag_fallen"]
    [last] = LiveEvent.objects.filter(game_id=game_id, kind="move", number=2, player="black")
    assert last.ends_game and last.at_ms == mate_at
    # The game file says so too: manage.py clock replays the end where the API has it.
    file = api(arbiter).get(f"/api/games/{game_id}/events/").json()
    assert file["events"][-1] == {"type": "move", "player": "black", "number": 2, "at": "2026-03-01T12:00:04Z",
                                  "ends_game": True}


def test_a_mating_move_at_the_instant_of_its_own_flag_stands(api, arbiter, anna, boris, clock, create_game):
    # Black's minute runs out at the very instant its mating move arrives: any other press is an overstep
    # (000 12.9), this one ends the game with no press needed (002 6.7 a).
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS)
    play(api, [anna, boris], game_id, FOOLS_MATE[:3], clock)
    flag_at = LiveGame.objects.get(pk=game_id).next_check_at_ms
    assert flag_at == START_MS + 3 * S + 60 * S - S  # black has thought 1 s already: 59 s from white's press
    clock.now = flag_at  # the press arrives at that instant (its scheduled check would race it)
    r = api(boris).post(f"/api/games/{game_id}/moves/", {"number": 2, "notation": "Qh4#"}, format="json")
    assert r.status_code == 201, r.json()
    assert (r.json()["status"], r.json()["result"]) == ("finished", "0-1") and "checkmates" in r.json()["termination"]
    assert not LiveEvent.objects.filter(game_id=game_id, kind="flag").exists()
    assert r.json()["live"]["players"]["black"]["flag_fallen"] is False


def test_an_ordinary_move_at_the_instant_of_its_flag_is_an_overstep(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS)
    play(api, [anna, boris], game_id, FOOLS_MATE[:3], clock)
    clock.now = LiveGame.objects.get(pk=game_id).next_check_at_ms
    r = api(boris).post(f"/api/games/{game_id}/moves/", {"number": 2, "notation": "Qe7"}, format="json")
    assert r.status_code == 409 and "12.9" in r.json()["detail"]
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result) == ("finished", "1-0") and "on time" in game.termination


def test_a_stalemate_is_a_draw_at_the_instant_of_the_move(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    clock.advance_to(START_MS)
    body = play(api, [anna, boris], game_id, LOYD_STALEMATE, clock)
    assert (body["status"], body["result"]) == ("finished", "1/2-1/2") and "stalemated" in body["termination"]
    assert body["live"]["ended_at_ms"] == START_MS + len(LOYD_STALEMATE) * S and body["live"]["running"] is None


def test_a_draughts_move_that_leaves_the_partner_no_piece_wins_at_its_instant(api, arbiter, anna, clock,
                                                                             create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR, kind="draughts", name="Draughts"))
    # The facts before the move: a position read so far (white's man on c3, black's last man on d4).
    LiveGame.objects.filter(pk=game_id).update(position="W:Wc3:Bd4")
    clock.advance_to(START_MS + 5 * S)
    r = api(anna).post(f"/api/games/{game_id}/moves/", {"number": 1, "notation": "c3:e5"}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["status"], body["result"]) == ("finished", "1-0") and "12.10" in body["termination"]
    assert body["live"]["ended_at_ms"] == START_MS + 5 * S and body["live"]["running"] is None
