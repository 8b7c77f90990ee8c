"""Flags: found at their instant by the scheduled check, by the sweep when that check is lost, decided by the
position (002 6.9), one result when a flag races a move, and no flag for time the service was down."""

from __future__ import annotations

import threading

import pytest
import requests
from django.db import connection
from rest_framework.authtoken.models import Token

from corr.live import tasks
from corr.live.beat import beat_once
from corr.live.services import live_check
from corr.models import Game, LiveEvent, LiveGame

from .conftest import MIN, iso, ONE_HOUR, S, START_MS, SUDDEN_DEATH_60, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

# A real game (found by python-chess, replayed here through the API): after black's 23rd move, Kxb8,
# black has a lone king and white king, bishop and pawn, white to move.
LONE_KING_GAME = ["Nc3", "d5", "Nxd5", "Qxd5", "Rb1", "Qxa2", "g4", "Bxg4", "b4", "Qxb1", "Nf3", "Qxc2", "Qxc2",
                  "Bxf3", "Qxc7", "Bxe2", "Kxe2", "a6", "Qxe7+", "Nxe7", "Bb2", "Ng8", "Bxg7", "Bxb4", "Bxh8", "Bxd2",
                  "Kxd2", "Kd8", "Bxa6", "Rxa6", "Kd3", "Rh6", "Kc3", "Rxh2", "Rxh2", "b5", "Rxh7", "Ne7", "Rxf7",
                  "Nf5", "Rxf5", "Kd7", "Rxb5", "Kc8", "Rxb8+", "Kxb8"]


def move(client, game_id, number, notation=""):
    return client.post(f"/api/games/{game_id}/moves/", {"number": number, "notation": notation}, format="json")


def events(game_id, kind):
    return list(LiveEvent.objects.filter(game_id=game_id, kind=kind).order_by("seq"))


def test_the_scheduled_check_records_a_flag_at_its_instant_with_nobody_reading_the_game(
        api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "e4").status_code == 201
    flag_at = START_MS + S + 60 * S  # black's minute runs from white's press
    assert LiveGame.objects.get(pk=game_id).next_check_at_ms == flag_at
    clock.advance_to(flag_at - 1)
    assert Game.objects.get(pk=game_id).status == "ongoing"
    clock.advance_to(flag_at + 10 * MIN)  # nobody reads the game: the timer set for the instant fires
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result, game.termination) == ("finished", "1-0", "black lost on time (002 6.9)")
    [flag] = events(game_id, "flag")
    assert (flag.player, flag.at_ms) == ("black", flag_at)
    assert flag.entered_at.timestamp() * 1000 == flag_at  # recorded at the instant, not when someone looked
    assert LiveGame.objects.get(pk=game_id).ended_at_ms == flag_at


def test_a_flag_against_a_lone_king_is_a_draw(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR))
    players = {0: api(anna), 1: api(boris)}
    clock.advance_to(START_MS)
    for ply, san in enumerate(LONE_KING_GAME):
        clock.advance(S)
        r = move(players[ply % 2], game_id, ply // 2 + 1, san)
        assert r.status_code == 201, (san, r.json())
    live = LiveGame.objects.get(pk=game_id)
    assert live.position.startswith("1k5B/8/8/8/8/2K5/5P2/8 w")
    clock.advance_to(live.next_check_at_ms)
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.result) == ("finished", "1/2-1/2")
    assert "black cannot mate" in game.termination and "002 6.9" in game.termination


def test_a_flag_in_a_game_corr_cannot_read_opens_an_arbiter_case(api, arbiter, anna, clock, create_game):
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "").status_code == 201  # the "move made" button: no notation
    clock.advance(61 * S)
    live = api(arbiter).get(f"/api/games/{game_id}/").json()
    assert live["status"] == "ongoing" and live["live"]["case"].startswith("002 6.9")
    assert len(events(game_id, "case")) == 1 and len(events(game_id, "flag")) == 1
    r = api(arbiter).post(f"/api/games/{game_id}/result/", {"result": "1-0", "termination": "black lost on time"},
                          format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "finished" and r.json()["live"]["case"] is None


def fire_together(*calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.parametrize("offset_ms, flagged", [(0, True), (-1, False)])
def test_a_flag_and_a_move_that_race_give_exactly_one_result(live_server, arbiter, anna, boris, clock, create_game,
                                                            offset_ms, flagged):
    """At the flag's instant the press is an overstep (000 12.9); a millisecond earlier the move wins."""
    tournament = live_tournament(arbiter, SUDDEN_DEATH_60)
    tokens = {u: Token.objects.get_or_create(user=u)[0].key for u in (anna, boris)}
    for _round in range(3):
        game_id = create_game(tournament, starts_at=iso(clock.now + S))
        clock.advance(2 * S)
        r = requests.post(f"{live_server.url}/api/games/{game_id}/moves/", json={"number": 1, "notation": "e4"},
                          headers={"Authorization": f"Token {tokens[anna]}"}, timeout=30)
        assert r.status_code == 201, r.text
        live = LiveGame.objects.get(pk=game_id)
        clock.now = live.next_check_at_ms + offset_ms
        url, version, instant = f"{live_server.url}/api/games/{game_id}/moves/", live.version, clock.now
        answer, _ = fire_together(
            lambda: requests.post(url, json={"number": 1, "notation": "e5"},  # noqa: B023 - run in this round
                                  headers={"Authorization": f"Token {tokens[boris]}"}, timeout=30),
            lambda: live_check(game_id=game_id, version=version, now_ms=instant))  # noqa: B023
        game = Game.objects.get(pk=game_id)
        moves = events(game_id, "move")
        if flagged:
            assert answer.status_code == 409, answer.text
            assert (game.status, game.result) == ("finished", "1-0")
            assert len(events(game_id, "flag")) == 1 and len(events(game_id, "result")) == 1
            assert [m.player for m in moves] == ["white"]
        else:
            assert answer.status_code == 201, answer.text
            assert game.status == "ongoing" and not events(game_id, "flag")
            assert [m.player for m in moves] == ["white", "black"]


def test_the_sweep_catches_a_flag_whose_scheduled_check_was_lost(api, arbiter, anna, clock, create_game):
    clock.lose_timers = True  # every scheduled check is lost (Redis dropped them, the worker died)
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "e4").status_code == 201
    flag_at = START_MS + 61 * S
    sweeps = 0
    while Game.objects.get(pk=game_id).status == "ongoing":
        clock.advance(5 * S)  # beat's interval (LIVE_SWEEP_SECONDS)
        tasks.live_sweep_task.delay()
        sweeps += 1
        assert sweeps < 20
    [flag] = events(game_id, "flag")
    assert flag.at_ms == flag_at  # when it fell, not when the sweep saw it
    recorded_ms = flag.entered_at.timestamp() * 1000
    assert flag_at <= recorded_ms < flag_at + 5 * S
    assert Game.objects.get(pk=game_id).result == "1-0"
    tasks.live_sweep_task.delay()  # a rerun records nothing twice
    assert len(events(game_id, "flag")) == 1 and len(events(game_id, "result")) == 1


def test_time_that_ran_while_the_service_was_down_is_no_ones(api, arbiter, anna, boris, clock, create_game, settings):
    settings.LIVE_BEAT_SECONDS = 2
    clock.lose_timers = True  # the service is down: no timer fires either
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "e4").status_code == 201
    clock.advance(4 * S)
    beat_once(now_ms=clock.now)  # the last beat of the server: black has 56 s left
    clock.advance(10 * MIN)  # down: black's flag would have fallen 56 s in
    assert tasks.live_sweep_task.apply().get() == {"checked": 1, "recorded": 0}  # the worker judges up to the beat
    assert beat_once(now_ms=clock.now)["gaps"] == 1  # the server is back: its first beat gives the time back
    [gap] = events(game_id, "gap")
    assert (gap.from_ms, gap.at_ms) == (START_MS + 5 * S, START_MS + 5 * S + 10 * MIN)
    body = api(boris).get(f"/api/games/{game_id}/").json()
    assert body["status"] == "ongoing" and body["live"]["players"]["black"]["remaining_ms"] == 56 * S
    clock.advance(50 * S)
    assert move(api(boris), game_id, 1, "e5").status_code == 201


def test_a_request_after_the_outage_gives_the_time_back_too(api, arbiter, anna, boris, clock, create_game, settings):
    settings.LIVE_BEAT_SECONDS = 2
    clock.lose_timers = True
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "e4").status_code == 201  # a request beats: the last sign of life
    clock.advance(10 * MIN)
    body = api(boris).get(f"/api/games/{game_id}/").json()  # the first request after the outage
    assert body["status"] == "ongoing" and body["live"]["players"]["black"]["remaining_ms"] == 60 * S
    [gap] = events(game_id, "gap")
    assert (gap.from_ms, gap.at_ms) == (START_MS + S, START_MS + S + 10 * MIN)


def test_when_only_redis_and_the_worker_were_down_no_time_is_given_back(api, arbiter, anna, clock, create_game,
                                                                          settings):
    """The server kept beating (moves were possible): the flag falls at its instant, nothing is given back."""
    settings.LIVE_BEAT_SECONDS = 2
    clock.lose_timers = True  # Redis is down: the scheduled check is lost, the worker's sweep stopped
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "e4").status_code == 201
    flag_at = START_MS + 61 * S
    beats = 0
    while Game.objects.get(pk=game_id).status == "ongoing":
        clock.advance(2 * S)
        beat_once(now_ms=clock.now)  # the server's beat thread, which needs neither Redis nor the worker
        beats += 1
        assert beats < 40
    assert not events(game_id, "gap")
    [flag] = events(game_id, "flag")
    assert flag.at_ms == flag_at
    assert flag_at <= flag.entered_at.timestamp() * 1000 < flag_at + 2 * S  # within one beat


def test_the_worker_does_not_record_a_flag_that_fell_after_the_last_beat(api, arbiter, anna, clock, create_game,
                                                                         settings):
    settings.LIVE_BEAT_SECONDS = 2
    clock.lose_timers = True
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    clock.advance_to(START_MS + S)
    assert move(api(anna), game_id, 1, "e4").status_code == 201
    while clock.now < START_MS + 60 * S:  # the server beats every 2 s; its last beat 1 s before black's flag
        clock.advance(min(2 * S, START_MS + 60 * S - clock.now))
        beat_once(now_ms=clock.now)
    clock.advance(20 * S)  # then the server is down; the worker's sweep runs on
    assert tasks.live_sweep_task.apply().get() == {"checked": 1, "recorded": 0}
    assert live_check(game_id=game_id, now_ms=clock.now) is False  # a scheduled check too
    assert not events(game_id, "flag")
    clock.advance(5 * S)  # back within LIVE_GAP_MS (30 s): a short outage is charged as usual
    beat_once(now_ms=clock.now)
    [flag] = events(game_id, "flag")
    assert flag.at_ms == START_MS + 61 * S and not events(game_id, "gap")
