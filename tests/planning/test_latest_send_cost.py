"""Planning ahead (issue 41): what a read's ``latest_send`` costs, in calculator computations (counted, not timed).

A server game's clock is cached per second under an instant count, so ``latest_send`` is computed on almost every
read. Its bisection second by second between now and the flag cost ~45 computations a read; the boundary is now
guessed where the system makes it a linear function of the send instant and verified by computing it and the
second after (``corr.games.planning._latest``), the bisection kept for when the guess is wrong.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine

import corr.clock.batch
import corr.games.clockstate
from corr.games import services

START = date(2026, 1, 10)
AT = datetime(2026, 1, 10, 9, tzinfo=timezone.utc)
pytestmark = pytest.mark.django_db

READ_COMPUTATIONS_MAX = 10
"""The most calculator computations one GET of a game may cost (the clock itself, then ``latest_send``)."""


@pytest.fixture
def computations(monkeypatch):
    """A list that grows by one per calculator computation (``compute``, wherever the server calls it)."""
    counted: list[int] = []
    for module in (corr.clock.batch, corr.games.clockstate):
        real = module.compute

        def counting(*args, _real=real, **kwargs):
            counted.append(1)
            return _real(*args, **kwargs)
        monkeypatch.setattr(module, "compute", counting)
    return counted


@pytest.fixture
def daily(arbiter, anna, boris):
    """A server game of 10 moves in 30 days counted exact: black on move from ``AT``, 30 days to the flag."""
    control = {"system": "periods", "stages": [{"moves": 10, "time": 30}], "repeat_last": True,
               "count": "exact"}
    t = services.tournament_create(by=arbiter, name="Monthly", official_start=START, mode="server",
                                   ruleset={"time_control": control})
    with time_machine.travel(AT, tick=False):
        game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=START)
        services.move_submit(game=game, by=anna, number=1, notation="e4", today=START)
    return game


def test_a_read_of_a_server_game_costs_a_handful_of_computations(daily, boris, api, computations):
    with time_machine.travel(AT + timedelta(hours=1), tick=False):
        read = api(boris).get(f"/api/games/{daily.pk}/")
    assert read.status_code == 200
    latest = read.json()["latest_send"]["black"]
    assert latest["in_time"] is not None and latest["out_of_time_trouble"] is not None
    assert 1 < len(computations) <= READ_COMPUTATIONS_MAX, len(computations)  # 26 before the guess, 7 with it


def test_the_guessed_latest_instant_out_of_time_trouble_is_the_boundary(daily, boris, api):
    # Checked as the player would: the move previewed at that instant keeps out of time trouble, a second later not.
    with time_machine.travel(AT + timedelta(hours=1), tick=False):
        read = api(boris).get(f"/api/games/{daily.pk}/").json()
    safe = datetime.fromisoformat(read["latest_send"]["black"]["out_of_time_trouble"])
    move = {"events": [{"kind": "move", "number": 1, "notation": "e5"}]}
    seen = []
    for moment in (safe, safe + timedelta(seconds=1)):
        with time_machine.travel(moment, tick=False):
            answer = api(boris).post(f"/api/games/{daily.pk}/preview/", move, format="json")
        assert answer.status_code == 200, answer.content
        black = answer.json()["clock"]["players"]["black"]
        seen.append((black["time_trouble"], black["overstepped"]))
    assert seen == [(False, None), (True, None)]
