"""A live game's game file through the API, and presses that lose a race (issue 23, item 8).

``GET /api/games/{id}/events/`` of a live game answered a correspondence-shaped file that
``manage.py clock`` refuses; it is now the live game file of the game page's download. A press that
waited on the game's lock while another was recorded was stamped with the instant read before the
wait, earlier than the winner's: the engine refused it with 400 ``events[…].at_ms … is after now``.
The instant is now read once the lock is taken, so the loser sees the game as it is (409: not its
move, not this number). A resume of clocks that run, and a pause of stopped ones, are 409 too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import transaction

from corr.live import services as live_services

from .conftest import FISCHER_5_2, S, START_MS, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


def move(client, game_id, number, notation=""):
    return client.post(f"/api/games/{game_id}/moves/", {"number": number, "notation": notation}, format="json")


def test_the_events_of_a_live_game_are_the_live_game_file_manage_py_clock_reads(api, arbiter, anna, boris, clock,
                                                                                 create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + 10 * S)
    assert move(api(anna), game_id, 1, "e4").status_code == 201
    clock.advance(4_500)
    assert move(api(boris), game_id, 1, "e5").status_code == 201
    clock.advance(3_000)
    answer = api(anna).get(f"/api/games/{game_id}/events/")
    assert answer.status_code == 200
    data = answer.json()
    assert data["ruleset"]["time_control"]["unit"] == "seconds"
    assert [e["type"] for e in data["events"]] == ["start", "move", "move"]
    assert data["meta"] == {"game": game_id, "tournament": data["meta"]["tournament"], "mode": "live"}
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "clock", "-", "--json"],
                          input=answer.content.decode(), capture_output=True, text=True,
                          env=dict(os.environ, DEBUG="1"), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    shown = api(anna).get(f"/api/games/{game_id}/").json()["live"]["players"]
    # White: 300 - 10 + 2 = 292 s, then 3 s of its clock since black's press.
    assert result["players"]["white"]["remaining_ms"] == shown["white"]["remaining_ms"] == 289 * S
    assert result["players"]["black"]["remaining_ms"] == shown["black"]["remaining_ms"] == 300 * S - 4_500 + 2 * S


def test_the_events_of_a_correspondence_game_are_still_its_game_file(api, postal_game, anna):
    data = api(anna).get(f"/api/games/{postal_game.pk}/events/").json()
    assert "time_control" not in data["ruleset"] or data["ruleset"]["time_control"] is None
    assert data["official_start"] == "2026-01-10"


@pytest.fixture
def waits_for_the_lock(monkeypatch, clock):
    """The next press or action is overtaken: ``winner()`` runs and commits 200 ms later, after the loser's
    request began and before its transaction locks the game (what a wait on the lock does; run here in
    between, outside the loser's transaction, which would otherwise take the winner down with it)."""
    pending = []

    class Overtaken:
        """``django.db.transaction`` whose next ``atomic()`` lets the winner commit first."""

        def __getattr__(self, name):
            return getattr(transaction, name)

        def atomic(self, *args, **kwargs):
            if pending:
                winner = pending.pop()
                clock.advance(200)
                winner()
            return transaction.atomic(*args, **kwargs)
    press_transaction = live_services.press_transaction

    def overtaken_press(*args, **kwargs):
        """The press's own transaction (corr.live.trips.press_transaction), overtaken alike."""
        if pending:
            winner = pending.pop()
            clock.advance(200)
            winner()
        return press_transaction(*args, **kwargs)
    monkeypatch.setattr(live_services, "transaction", Overtaken())
    monkeypatch.setattr(live_services, "press_transaction", overtaken_press)
    return pending.append


def test_a_press_that_loses_the_race_to_a_double_click_gets_409(api, arbiter, anna, clock, create_game,
                                                                 waits_for_the_lock):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + 10 * S)
    waits_for_the_lock(lambda: live_services.live_move(game_id=game_id, by=anna, number=1, notation="e4",
                                                      now_ms=clock.now))
    lost = move(api(anna), game_id, 1, "e4")
    assert lost.status_code == 409, lost.json()
    assert "at_ms" not in lost.json()["detail"]
    assert api(anna).get(f"/api/games/{game_id}/").json()["live"]["running"] == "black"


def test_a_pause_that_loses_the_race_to_a_move_is_recorded_after_it(api, arbiter, anna, clock, create_game,
                                                                     waits_for_the_lock):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + 10 * S)
    waits_for_the_lock(lambda: live_services.live_move(game_id=game_id, by=anna, number=1, notation="e4",
                                                      now_ms=clock.now))
    paused = api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": "noise"}, format="json")
    assert paused.status_code == 201, paused.json()
    assert paused.json()["live"]["paused"] is True


def test_a_resume_of_clocks_that_run_gets_409_and_a_second_pause_too(api, arbiter, clock, create_game):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + 10 * S)
    resumed = api(arbiter).post(f"/api/games/{game_id}/resume/", {"reason": ""}, format="json")
    assert resumed.status_code == 409, resumed.json()
    assert resumed.json()["detail"] == "the clocks are not stopped"
    assert api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": ""}, format="json").status_code == 201
    again = api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": ""}, format="json")
    assert again.status_code == 409, again.json()
    assert api(arbiter).post(f"/api/games/{game_id}/resume/", {"reason": ""}, format="json").status_code == 201
