"""See before you act (issue 41): ``POST /api/games/{id}/preview/`` gives the game as storing the events would,
and stores nothing.

The postal game of the fixtures starts on 2026-01-10 (30 days a control of 10 moves, 4 days' transit); today
is 2026-03-01.
"""

from __future__ import annotations

from datetime import date

import pytest

from corr.games import services

from ..conftest import TODAY


@pytest.fixture
def moved(postal_game, anna):
    """White's move 1 sent on 01-20 (10 days used); black's move 1 pending since 01-24 (presumed)."""
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=date(2026, 1, 20), today=TODAY)
    return postal_game


@pytest.mark.django_db
def test_a_preview_of_a_move_gives_the_clock_storing_it_gives(moved, boris, api):
    move = {"number": 1, "notation": "e5", "received_on": "2026-01-24", "sent_on": "2026-02-10"}
    preview = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "move", **move}]},
                              format="json")
    assert preview.status_code == 200, preview.content
    stored = api(boris).post(f"/api/games/{moved.pk}/moves/?ledger=1", move, format="json")
    assert stored.status_code == 201, stored.content
    assert preview.json()["clock"] == stored.json()["clock"]
    assert preview.json()["turn"] == stored.json()["turn"]
    assert preview.json()["time_left"] == stored.json()["time_left"]
    print(preview.json()["changes"])
