"""A received variant recorded in one step in a postal game (50.4.8, issue 28): ``POST .../variants/``."""

from __future__ import annotations

import pytest

from corr.clock import compute
from corr.clock.gamefile import read_game

from ..conftest import TODAY
from .conftest import post

pytestmark = pytest.mark.django_db


def test_the_receiver_accepts_a_variant_through_a_move_in_one_step(api, with_variant, anna, boris):
    game = with_variant
    r = post(api, boris, game, "variants/", {"line": ["Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"],
                                             "accepted_through": 3})
    assert r.status_code == 201, r.json()
    assert r.json()["to_move"] == "black" and r.json()["clock"]["players"]["black"]["made"] == 3
    moves = [(h["player"], h["number"], h["notation"], h["variant"], h["received_on"], h["sent_on"])
             for h in api(anna).get(f"/api/games/{game.pk}/history/").json() if h["kind"] == "move"][3:]
    assert moves == [("black", 2, "Nc6", "accepted", None, None), ("white", 3, "Bb5", "conditional", None, None),
                     ("black", 3, "a6", "accepted", None, None), ("white", 4, "Ba4", "conditional", None, None)]
    # The same game typed move by move with the variant events computes the same clock.
    typed = api(anna).get(f"/api/games/{game.pk}/events/").json()
    clock = compute(read_game(typed)[0], TODAY)
    served = r.json()["clock"]["players"]
    assert all(clock.accounts[c].as_json()["total_days"] == served[c]["total_days"] for c in ("white", "black"))
    r = post(api, boris, game, "moves/", {"number": 4, "notation": "Nf6", "received_on": "2026-02-24",
                                          "sent_on": "2026-02-26"})
    assert r.status_code == 201, r.json()


@pytest.mark.parametrize("body, field", [
    ({"line": ["Nc6", "Bb5"], "accepted_through": 3}, "accepted_through"),
    ({"line": ["Nc6", "Bb5", "a6"], "accepted_through": 3}, "accepted_through"),  # no reply after a6
    ({"line": [], "accepted_through": 2}, "line"),
])
def test_a_variant_outside_its_line_is_refused_naming_the_field(api, with_variant, boris, body, field):
    r = post(api, boris, with_variant, "variants/", body)
    assert r.status_code == 400 and r.json()["field"] == field, r.json()


def test_only_the_receiver_on_move_records_it_and_server_games_send_conditional_moves(api, with_variant, anna,
                                                                                      server_game):
    r = post(api, anna, with_variant, "variants/", {"line": ["Nc6", "Bb5"], "accepted_through": 2})
    assert r.status_code == 409 and r.json()["field"] == "line"
    r = post(api, anna, server_game, "variants/", {"line": ["e4", "e5"], "accepted_through": 1})
    assert r.status_code == 400 and r.json()["field"] == "line" and "conditional" in r.json()["detail"]
