"""Leave applies to a player's correspondence games and ignores their live ones (issue 23, item 7).

A player with an ongoing live game could not book leave (400 about the time control's unit: the
booking recomputed the live game with the correspondence calculator). Now the live game is no game of
the booking: it gets no history line and its clocks run as before; the postal game stops as always.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
import time_machine

from corr.games import services
from corr.models import EventKind, GameEvent, LiveEvent, PlayerClock

pytestmark = pytest.mark.django_db

START = date(2026, 1, 10)
NOON = datetime(2026, 1, 10, 12, tzinfo=timezone.utc)
SECONDS = {"unit": "seconds", "system": "fischer", "initial": 300, "increment": 2}



@pytest.fixture(autouse=True)
def no_timers(monkeypatch):
    """No in-process flag timer from these live games: set on the frozen clock, it would fire minutes after
    the test (the live tests run the checks by hand)."""
    from corr.live import timesource

    monkeypatch.setattr(timesource, "call_at", lambda at_ms, callback: None)


@pytest.fixture
def games(api, arbiter, postal, anna, boris):
    """anna's postal game, and her live game starting now in a live tournament that allows leave too."""
    with time_machine.travel(NOON, tick=False):
        postal_game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=START)
        live = services.tournament_create(by=arbiter, name="Live cup", official_start=START, mode="live",
                                          ruleset={"time_control": SECONDS})
        assert live.leave_days > 0
        created = api(arbiter).post("/api/games/", {"tournament": live.pk, "white": "anna", "black": "boris",
                                                    "starts_at": NOON.isoformat()}, format="json")
        assert created.status_code == 201, created.json()
    return postal_game, created.json()["id"]


def test_a_player_with_an_ongoing_live_game_books_leave_for_their_correspondence_games(api, anna, games):
    postal_game, live_id = games
    with time_machine.travel(NOON, tick=False):
        before = PlayerClock.objects.get(game=postal_game, player="white").deadline
        live_before = api(anna).get(f"/api/games/{live_id}/").json()["live"]
        live_events = LiveEvent.objects.filter(game_id=live_id).count()
        answer = api(anna).post("/api/leaves/", {"from": "2026-01-20", "to": "2026-01-29"}, format="json")
        assert answer.status_code == 201, answer.json()
        assert PlayerClock.objects.get(game=postal_game, player="white").deadline > before
        assert GameEvent.objects.filter(game=postal_game, kind=EventKind.LEAVE).count() == 1
        # The live game: no event, no history line, the same clocks.
        assert not GameEvent.objects.filter(game_id=live_id).exists()
        assert LiveEvent.objects.filter(game_id=live_id).count() == live_events
        live_after = api(anna).get(f"/api/games/{live_id}/").json()["live"]
        assert live_after["players"] == live_before["players"] and live_after["version"] == live_before["version"]


def test_the_leave_page_lists_no_allowance_of_a_live_tournament(api, anna, games):
    _postal_game, _live_id = games
    with time_machine.travel(NOON, tick=False):
        body = api(anna).get("/api/leaves/").json()
    assert [a["name"] for a in body["allowances"]] == ["Postal cup"]


def test_special_leave_in_a_live_game_is_refused_with_400_naming_the_game(api, arbiter, games):
    _postal_game, live_id = games
    with time_machine.travel(NOON, tick=False):
        answer = api(arbiter).post(f"/api/games/{live_id}/special-leave/", {
            "player": "white", "from": "2026-01-20", "to": "2026-01-21", "reason": "illness"}, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["detail"] == f"leave is for correspondence games: game {live_id} is live"
    assert not LiveEvent.objects.filter(game_id=live_id, kind="leave").exists()
