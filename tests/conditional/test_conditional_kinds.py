"""Conditional moves in Go server games (issue 28): refused, every way a tree can be sent, with a 400 naming
``conditional`` and the rule (a tree is checked legal at every node, and corr reads chess and Russian draughts
moves only, tests/conditional/test_conditional_draughts.py); nothing is stored and the game goes on."""

from __future__ import annotations

import pytest

from corr.games import services
from corr.models import ConditionalTree

from ..conftest import TODAY
from .test_conditional_api import move, moves_of, post

pytestmark = pytest.mark.django_db

RULE = "conditional moves are taken in chess and draughts games only"
MOVES = ("D4", "Q16", "Q4", "D16")


@pytest.fixture
def game(arbiter, anna, boris, frozen):
    league = services.tournament_create(by=arbiter, name="Go league", official_start=TODAY, mode="server", kind="go")
    made = services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY, first="black")
    made.moves = MOVES
    made.mover, made.partner = boris, anna  # Go rules: black moves first
    return made


def test_a_tree_sent_with_a_move_is_refused_and_the_move_is_not_stored(api, game):
    m = game.moves
    for tree in ([{"if": m[1], "then": m[2]}], []):
        r = post(api, game.mover, game, "moves/", {"number": 1, "notation": m[0], "conditional": tree})
        assert r.status_code == 400 and r.json()["field"] == "conditional", r.json()
        assert RULE in r.json()["detail"]
    assert moves_of(api, game.mover, game) == [] and not ConditionalTree.objects.exists()
    move(api, game.mover, game, 1, m[0])  # without a tree the move is taken, and the game goes on
    move(api, game.partner, game, 1, m[1])


def test_a_tree_put_is_refused_on_either_player_s_turn_and_read_and_cancel_answer_none(api, game):
    url = f"/api/games/{game.pk}/conditional/"
    tree = {"conditional": [{"if": game.moves[1], "then": game.moves[2]}]}
    r = api(game.mover).put(url, tree, format="json")  # on one's own move: the kind is said first, not the turn
    assert r.status_code == 400 and r.json()["field"] == "conditional" and RULE in r.json()["detail"], r.json()
    move(api, game.mover, game, 1, game.moves[0])
    r = api(game.mover).put(url, tree, format="json")  # the partner to move: the same refusal
    assert r.status_code == 400 and r.json()["field"] == "conditional" and RULE in r.json()["detail"], r.json()
    assert api(game.mover).get(url).json()["conditional"] == []
    assert api(game.mover).delete(url).status_code == 204
    assert not ConditionalTree.objects.exists()
