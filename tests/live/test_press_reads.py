"""A live press reads only what it needs (issue 42): the snapshot and the events after it, the game's records and its
last move, never every event of the game. Counted, not timed: a press over HTTP at press 580 sends as many
statements as one at press 50 and reads no more event rows, whatever the moves before it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.live import trips
from corr.live.state import clock_at, keep_snapshot, live_rows, live_window
from corr.live.write import instant, next_check
from corr.models import Game, LiveEvent, LiveEventKind, LiveGame

from .conftest import FISCHER_5_2, START_MS, S, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

PRESS_MS = S
"""Every press comes a second after the one before (both clocks keep far more than that under 5+2)."""


def press(api, players, game_id: int, n: int):
    """The ``n``-th press of the game (1: white's first move), over HTTP, blank notation (the "move made" button)."""
    return api(players[(n - 1) % 2]).post(f"/api/games/{game_id}/moves/", {"number": (n + 1) // 2, "notation": ""},
                                          format="json")


def grow(game_id: int, presses: int, clock) -> None:
    """Store presses up to the ``presses``-th one second apart, and the snapshot after them, as the presses would
    have (the engine folds them onto the stored snapshot): a long game without 500 requests."""
    game = Game.objects.select_related("tournament").get(pk=game_id)
    live = LiveGame.objects.get(game=game)
    last = LiveEvent.objects.filter(game=game).latest("seq")
    made = LiveEvent.objects.filter(game=game, kind=LiveEventKind.MOVE).count()
    new, at_ms = [], clock.now
    for n in range(made + 1, presses + 1):
        at_ms += PRESS_MS
        new.append(LiveEvent(game=game, seq=last.seq + len(new) + 1, kind=LiveEventKind.MOVE,
                             player="white" if n % 2 else "black", number=(n + 1) // 2, at_ms=at_ms,
                             entered_at=instant(at_ms)))
    LiveEvent.objects.bulk_create(new)
    rows = live_rows(game)
    pressed = clock_at(game, live, rows, at_ms)
    keep_snapshot(live, rows, pressed)
    live.version += 1  # the checks the presses before announced are stale: they do nothing as the clock passes them
    live.next_check_at_ms = next_check(game, pressed, at_ms)
    live.save(update_fields=["snapshot", "snapshot_seq", "version", "next_check_at_ms"])
    clock.advance_to(at_ms)


def measured_press(api, players, game_id: int, n: int, clock, monkeypatch) -> tuple[list[str], int]:
    """The statements and the event rows read by the ``n``-th press over HTTP (the request and its answer), after
    a press of the one before at the same pace (so the beat and the timers stand alike)."""
    clock.advance(PRESS_MS)
    assert press(api, players, game_id, n - 1).status_code == 201
    clock.advance(PRESS_MS)
    read: list[int] = []
    real_rows = trips._rows

    def counted(plan, events):
        rows = real_rows(plan, events)
        read.append(len(rows))
        return rows

    monkeypatch.setattr(trips, "_rows", counted)
    with CaptureQueriesContext(connection) as ctx:
        answer = press(api, players, game_id, n)
    monkeypatch.setattr(trips, "_rows", real_rows)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["live"]["players"]["white"]["moves_made"] == n // 2 + n % 2
    # A session PREPAREs each statement once (corr.games.services.prepared), whichever press first sends it.
    return [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith("PREPARE ")], sum(read)


def test_a_press_at_580_sends_the_statements_of_a_press_at_50_and_reads_no_more_rows(
        api, arbiter, anna, boris, clock, create_game, monkeypatch):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    players = (anna, boris)
    for player in players:  # each client's token made before the count
        assert api(player).get(f"/api/games/{game_id}/").status_code == 200
    grow(game_id, 48, clock)
    early, early_rows = measured_press(api, players, game_id, 50, clock, monkeypatch)
    grow(game_id, 578, clock)
    late, late_rows = measured_press(api, players, game_id, 580, clock, monkeypatch)
    assert LiveEvent.objects.filter(game_id=game_id, kind=LiveEventKind.MOVE).count() == 580
    assert len(late) == len(early), (early, late)
    # The window: the snapshot's event (the last press), the start, and the last move: the same few at any length.
    assert late_rows == early_rows, (early_rows, late_rows)
    assert late_rows <= 6, late_rows


def test_the_window_answers_as_every_event_would(arbiter, anna, boris, clock, create_game, api):
    # A game with records among its moves: an arbiter's pause and restart, a correction. The clock, the payload and
    # the flags due computed from the window are those computed from every event.
    from corr.live import services
    from corr.live.state import payload_of

    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    players = (anna, boris)
    for n in range(1, 7):
        clock.advance(PRESS_MS)
        assert press(api, players, game_id, n).status_code == 201
    services.live_pause(game_id=game_id, by=arbiter, reason="a light went out")
    clock.advance(30 * S)
    services.live_resume(game_id=game_id, by=arbiter, reason="light again")
    services.live_adjust(game_id=game_id, by=arbiter, player="black", seconds=-10, reason="a sanction")
    for n in range(7, 15):
        clock.advance(PRESS_MS)
        assert press(api, players, game_id, n).status_code == 201
    game = Game.objects.select_related("tournament").get(pk=game_id)
    live = LiveGame.objects.get(game=game)
    window, every = live_window(game, live), live_rows(game)
    assert len(window) < len(every)
    assert {r.kind for r in window} >= {LiveEventKind.PAUSE, LiveEventKind.RESUME, LiveEventKind.ADJUST}
    for at in (clock.now, clock.now + 200 * S):
        assert clock_at(game, live, window, at).as_json() == clock_at(game, live, every, at).as_json()
        assert payload_of(game, live, clock_at(game, live, window, at), at, window) == payload_of(
            game, live, clock_at(game, live, every, at), at, every)
    # Without its snapshot the window replays every event, read again.
    live.snapshot = None
    assert clock_at(game, live, window, clock.now).as_json() == clock_at(game, live, every, clock.now).as_json()
