"""Events a watcher did not make reach its WebSocket as a push (issue 24 item 8), on the injected clock.

A player's stop, a call of the arbiter, the arbiter's ruling on it, a flag recorded by the server's scheduled
check and the arbiter's result: each reaches every open socket of the game as one push whose payload is exactly
the ``"live"`` object of ``GET /api/games/{id}/`` at the same instant, plus ``termination_text`` (how the game
ended, in the page's words, rules cited by rulebook). What the browser receives is compared, not the Python
object: the socket's JSON with the API's JSON.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from corr.live import timesource
from corr.models import Game, LiveGame
from tests.conftest import client_for

from .conftest import move_made, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def timers(monkeypatch):
    """The in-process timers of the scheduled flag checks (``timesource.call_at``), kept to be fired by hand."""
    due: list = []
    monkeypatch.setattr(timesource, "call_at", lambda at_ms, callback: due.append((at_ms, callback)))
    return due


def fire_due(timers: list, now_ms: int) -> int:
    """Run the scheduled checks due at ``now_ms``, as the timer thread would at its instant; how many ran."""
    ready = sorted((t for t in timers if t[0] <= now_ms), key=lambda t: t[0])
    for t in ready:
        timers.remove(t)
        t[1]()
    return len(ready)


def api_live(game, user) -> dict:
    r = client_for(user).get(f"/api/games/{game.pk}/")
    assert r.status_code == 200, r.json()
    return r.json()["live"]


def pushes_after(game, watchers, action) -> list[dict]:
    """Open a socket per user of ``watchers``, take the payload sent on connecting, run ``action()`` (sync), and
    return the push each socket received after it (one each)."""
    sockets = [socket(game.pk, user) for user in watchers]

    async def scenario():
        for ws in sockets:
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=5)
        await sync_to_async(action)()
        got = [await ws.receive_json_from(timeout=5) for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return got

    return async_to_sync(scenario)()


def the_one_push(pushes: list[dict]) -> dict:
    first = pushes[0]
    assert all(p == first for p in pushes), "every socket of the game got the same payload"
    return first


def post(user, path: str, body: dict | None = None) -> dict:
    r = client_for(user).post(path, body or {}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def test_a_players_stop_reaches_the_watchers_as_the_apis_live_object_with_its_words(
        live_game, anna, boris, arbiter, server_clock):
    server_clock.advance(4_000)
    pushed = the_one_push(pushes_after(live_game, [boris, arbiter],
                                       lambda: post(anna, f"/api/games/{live_game.pk}/live/stop/")))
    words = "white stopped the clocks: resignation (Russian draughts rules 12.11, 1.7.11)"
    assert pushed == {**api_live(live_game, boris), "termination_text": words}
    assert (pushed["status"], pushed["result"], pushed["running"]) == ("finished", "0-1", None)
    assert pushed["ended_at_ms"] == pushed["server_ms"] == server_clock.ms
    assert pushed["player_stop"] == {"kind": "resignation", "player": "white", "at_ms": server_clock.ms,
                                     "rulings": ["warning"]}
    assert pushed["players"]["white"]["remaining_ms"] == 300_000 - 14_000


def test_a_call_of_the_arbiter_reaches_the_watchers_with_the_clocks_stopped_and_the_case(
        live_game, anna, boris, arbiter, server_clock):
    pushed = the_one_push(pushes_after(live_game, [anna, arbiter], lambda: post(
        boris, f"/api/games/{live_game.pk}/live/call-arbiter/", {"reason": "a noise in the hall"})))
    assert pushed == {**api_live(live_game, anna), "termination_text": None}
    assert pushed["paused"] is True and pushed["status"] == "ongoing"
    assert pushed["player_stop"] == {"kind": "call", "player": "black", "at_ms": server_clock.ms,
                                     "rulings": ["justified", "warning", "penalty"]}
    assert "a noise in the hall" in pushed["case"]
    # The clocks stand: a second later the API still shows the time of the call.
    server_clock.advance(1_000)
    assert api_live(live_game, anna)["players"]["white"]["remaining_ms"] == pushed["players"]["white"]["remaining_ms"]


@pytest.mark.parametrize("ruling, seconds, white_ms, black_ms", [
    ("justified", None, 290_000, 300_000),
    ("penalty", -30, 290_000, 270_000),  # taken from the caller (003 17.4 c)
    ("penalty", 45, 335_000, 300_000),  # given to the partner (17.4 b)
])
def test_the_arbiters_ruling_on_a_call_reaches_the_players_with_the_clocks_restarted(
        live_game, anna, boris, arbiter, server_clock, ruling, seconds, white_ms, black_ms):
    post(boris, f"/api/games/{live_game.pk}/live/call-arbiter/")
    server_clock.advance(20_000)  # the time the clocks stood is no one's
    body = {"ruling": ruling, **({"seconds": seconds} if seconds is not None else {})}
    pushed = the_one_push(pushes_after(live_game, [anna, boris],
                                       lambda: post(arbiter, f"/api/games/{live_game.pk}/live/ruling/", body)))
    assert pushed == {**api_live(live_game, boris), "termination_text": None}
    assert (pushed["paused"], pushed["running"], pushed["player_stop"], pushed["case"]) == (False, "white", None, None)
    assert (pushed["players"]["white"]["remaining_ms"], pushed["players"]["black"]["remaining_ms"]) == (white_ms,
                                                                                                      black_ms)


def test_a_warning_for_a_stop_that_resigned_reopens_the_game_on_the_watchers_pages(
        live_game, anna, boris, arbiter, server_clock):
    post(anna, f"/api/games/{live_game.pk}/live/stop/")
    server_clock.advance(5_000)
    pushed = the_one_push(pushes_after(live_game, [anna, boris], lambda: post(
        arbiter, f"/api/games/{live_game.pk}/live/ruling/", {"ruling": "warning"})))
    assert pushed == {**api_live(live_game, anna), "termination_text": None}
    assert (pushed["status"], pushed["result"], pushed["termination"], pushed["ended_at_ms"]) == (
        "ongoing", None, None, None)
    assert (pushed["running"], pushed["paused"]) == ("white", False)


def test_a_flag_recorded_by_the_servers_scheduled_check_reaches_both_players(
        live_game, anna, boris, server_clock, timers):
    server_clock.advance(2_000)
    move_made(live_game, anna, 1, "e4")  # black's 5 minutes run from here
    flag_at = LiveGame.objects.get(game=live_game).next_check_at_ms
    assert flag_at == server_clock.ms + 300_000

    def nobody_reads_the_game():
        server_clock.advance(flag_at - server_clock.ms)
        assert fire_due(timers, server_clock.ms) >= 1

    pushed = the_one_push(pushes_after(live_game, [anna, boris], nobody_reads_the_game))
    # Recorded by the check, not by the GET that follows (which would record it too).
    assert Game.objects.get(pk=live_game.pk).status == "finished"
    answer = api_live(live_game, anna)
    assert answer["version"] == pushed["version"]
    assert pushed == {**answer, "termination_text": "black lost on time (FIDE Laws 6.9)"}
    assert pushed["termination"] == "black lost on time (002 6.9)" and pushed["result"] == "1-0"
    black = pushed["players"]["black"]
    assert (black["remaining_ms"], black["flag_fallen"], black["flag_at_ms"]) == (0, True, flag_at)
    assert pushed["ended_at_ms"] == flag_at and pushed["running"] is None


def test_the_arbiters_result_reaches_both_players_with_its_termination(live_game, anna, boris, arbiter,
                                                                        server_clock):
    server_clock.advance(7_000)
    pushed = the_one_push(pushes_after(live_game, [anna, boris], lambda: post(
        arbiter, f"/api/games/{live_game.pk}/result/", {"result": "1/2-1/2", "termination": "agreed"})))
    assert pushed == {**api_live(live_game, boris), "termination_text": "agreed"}
    assert (pushed["status"], pushed["result"], pushed["termination"]) == ("finished", "1/2-1/2", "agreed")
    assert pushed["ended_at_ms"] == server_clock.ms and pushed["running"] is None
    # The clocks stopped at the result: later, the API and a new socket show the same time.
    server_clock.advance(60_000)
    later = api_live(live_game, boris)
    assert later["players"] == pushed["players"]


def test_an_arbiters_reopening_reaches_both_players_as_an_ongoing_game_on_stopped_clocks(
        live_game, anna, boris, arbiter, server_clock):
    post(arbiter, f"/api/games/{live_game.pk}/result/", {"result": "1-0", "termination": "wrong board"})
    server_clock.advance(60_000)
    pushed = the_one_push(pushes_after(live_game, [anna, boris], lambda: post(
        arbiter, f"/api/games/{live_game.pk}/reopen/", {"note": "the result was entered on the wrong board"})))
    assert pushed == {**api_live(live_game, anna), "termination_text": None}
    assert (pushed["status"], pushed["result"], pushed["termination"], pushed["ended_at_ms"]) == (
        "ongoing", None, None, None)
    assert pushed["paused"] is True and pushed["players"]["white"]["remaining_ms"] == 290_000
