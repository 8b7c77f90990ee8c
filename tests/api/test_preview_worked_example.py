"""Issue 41's first "Done when": the 50.4 worked example of docs/calculator.md, its next move previewed as
sent on each of five dates, gives field by field the clock that storing that move gives.

The example (docs/calculator.md, "From Python, without Django"): a postal game under 50.4 from 2026-01-10;
white's first move sent on 01-12, received by black on 01-16. Black's reply is previewed, then stored in a
game of its own, as sent on 01-16 (at once), 01-20, 02-10 (5 days left: time trouble, 50.4.12), 02-15 (the
deadline, the last day of the control) and 02-16 (a day over: an overstep case, 50.4.3). Each date's preview
and store run at the same instant, on identical games.
"""

from __future__ import annotations

from datetime import date

import pytest
import time_machine

from corr.games import services

from ..conftest import NOW, TODAY

START = date(2026, 1, 10)
SENT_ON = [date(2026, 1, 16), date(2026, 1, 20), date(2026, 2, 10), date(2026, 2, 15), date(2026, 2, 16)]


@pytest.fixture
def tournament(arbiter):
    return services.tournament_create(by=arbiter, name="50.4", official_start=START, mode="postal",
                                      preset="rus_50_4", presumed_transit_days=4)


def worked_example(tournament, arbiter, anna, boris):
    """The documented game: white's 1. e4 sent on 01-12 (its receipt by black is black's move's ``received_on``)."""
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    services.move_submit(game=game, by=anna, number=1, notation="e4", sent_on=date(2026, 1, 12), today=TODAY)
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("sent_on", SENT_ON, ids=[day.isoformat() for day in SENT_ON])
def test_the_worked_examples_next_move_previewed_on_five_dates_is_the_move_stored(tournament, arbiter, anna, boris,
                                                                               api, sent_on):
    reply = {"number": 1, "notation": "e5", "received_on": "2026-01-16", "sent_on": sent_on.isoformat()}
    with time_machine.travel(NOW, tick=False):
        previewed_game = worked_example(tournament, arbiter, anna, boris)
        stored_game = worked_example(tournament, arbiter, anna, boris)
        before = api(boris).get(f"/api/games/{previewed_game.pk}/").json()
        preview = api(boris).post(f"/api/games/{previewed_game.pk}/preview/",
                                  {"events": [{"kind": "move", **reply}]}, format="json")
        after_preview = api(boris).get(f"/api/games/{previewed_game.pk}/").json()
        stored = api(boris).post(f"/api/games/{stored_game.pk}/moves/?ledger=1", reply, format="json")
    assert preview.status_code == 200, preview.content
    assert stored.status_code == 201, stored.content
    got, want = preview.json(), stored.json()
    for player in ("white", "black"):
        for name, value in want["clock"]["players"][player].items():
            assert got["clock"]["players"][player][name] == value, (sent_on, player, name)
    for field in ("to_move", "pending", "turn", "time_left", "warnings", "clock"):
        assert got[field] == want[field], (sent_on, field)
    # The preview kept nothing: the previewed game reads as before it.
    assert after_preview == before
    black = want["clock"]["players"]["black"]
    thinking = (sent_on - date(2026, 1, 16)).days
    # The documented figures, by hand from 50.4.3/50.4.4: the days from receipt to sending, of 30 for moves 1-10.
    assert black["thinking_days"] == thinking
    if thinking <= 30:
        assert black["control"]["remaining_days"] == 30 - thinking
    assert got["changes"], "a move always changes something worth saying"
    if sent_on == date(2026, 2, 16):
        assert any("overstep case would open" in line for line in got["changes"]), got["changes"]
