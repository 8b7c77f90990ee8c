"""Conditional moves in Go server games (issue 40, as OGS takes them): a line checked on sgfmill's board with
suicide and ko at every node, fired over HTTP, refused with a 400 naming the branch and the move when a node is
not legal (nothing stored)."""

from __future__ import annotations

import pytest

from corr.games import services
from corr.models import ConditionalTree

from ..conftest import TODAY
from .test_conditional_api import LINE, move, moves_of, post, tree_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(arbiter, anna, boris, frozen):
    league = services.tournament_create(by=arbiter, name="Go league", official_start=TODAY, mode="server", kind="go")
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY, first="black")


def test_a_go_line_fires_reply_by_reply_and_drops_on_an_unexpected_move(api, game, anna, boris):
    # Black (boris) moves first (Go rules 12.5) and sends a two-level line with his first stone.
    line = [{"if": "q16", "then": "D16", "next": [{"if": "Q4", "then": "C3"}]}, {"if": "pass", "then": "pass"}]
    move(api, boris, game, 1, "D4", conditional=line)
    assert tree_of(api, boris, game)["conditional"] == [
        {"if": "Q16", "then": "D16", "next": [{"if": "Q4", "then": "C3", "next": []}]},  # as corr writes a point
        {"if": "pass", "then": "pass", "next": []}]
    body = move(api, anna, game, 1, "Q16")
    assert body["to_move"] == "white" and body["clock"]["players"]["black"]["made"] == 2  # D16 was played at once
    body = move(api, anna, game, 2, "Q3")  # not Q4: the line is dropped, black is to move
    assert body["to_move"] == "black" and not ConditionalTree.objects.exists()
    assert moves_of(api, boris, game) == [
        ("black", 1, "D4", "", ""), ("white", 1, "Q16", "", ""), ("black", 2, "D16", "conditional", LINE),
        ("white", 2, "Q3", "", "")]
    move(api, boris, game, 3, "R5")  # the game goes on by hand


@pytest.mark.parametrize(("line", "path", "words"), [
    ([{"if": "D4", "then": "Q16"}], "conditional[0].if", "D4 is not a legal move after 1. D4"),  # occupied
    ([{"if": "Q16", "then": "Z9"}], "conditional[0].then", "Z9 is not a legal move after 1. Q16"),  # off the board
    ([{"if": "Q16", "then": "D16", "next": [{"if": "Q16", "then": "C3"}]}], "conditional[0].next[0].if",
     "Q16 is not a legal move after 2. D16"),
])
def test_a_line_with_an_illegal_node_is_refused_naming_it_and_nothing_is_stored(api, game, boris, line, path, words):
    r = post(api, boris, game, "moves/", {"number": 1, "notation": "D4", "conditional": line})
    assert r.status_code == 400 and r.json()["field"] == path, r.json()
    assert words in r.json()["detail"], r.json()
    assert moves_of(api, boris, game) == [] and not ConditionalTree.objects.exists()


def test_a_go_line_is_refused_in_russian_naming_the_branch(api, game, boris):
    boris.language = "ru"
    boris.save()
    r = post(api, boris, game, "moves/", {"number": 1, "notation": "D4", "conditional": [{"if": "D4", "then": "Q4"}]})
    assert r.status_code == 400 and r.json()["field"] == "conditional[0].if", r.json()
    assert "conditional[0].if" in r.json()["detail"] and "D4" in r.json()["detail"], r.json()
    assert "is not a legal move" not in r.json()["detail"]  # said in Russian
