"""Conditional moves on PostgreSQL's one-round-trip path (issue 13's ``trips``): a move that fires a tree keeps
its transaction open for the reply and the tree's writes, and commits them all; a refused tree stores nothing."""

from __future__ import annotations

import pytest
from django.db import connection

from corr.models import ConditionalTree, GameEvent

from ..api.test_move_trips import fresh_game, idle  # noqa: F401 (a fixture)
from .test_conditional_api import RUY

pytestmark = pytest.mark.django_db(transaction=True)

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="trips are PostgreSQL's path")


@postgres_only
def test_a_firing_move_stores_the_reply_and_the_tree_in_one_committed_transaction(api, fresh_game, anna, boris):  # noqa: F811
    r = api(anna).post(f"/api/games/{fresh_game.pk}/moves/", {"number": 1, "notation": "e4", "conditional": RUY},
                       format="json")
    assert r.status_code == 201, r.json()
    assert idle()
    r = api(boris).post(f"/api/games/{fresh_game.pk}/moves/", {"number": 1, "notation": "e5"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["to_move"] == "black"
    assert idle()
    moves = list(GameEvent.objects.filter(game=fresh_game, kind="move").values_list("notation", "variant"))
    assert moves == [("e4", ""), ("e5", ""), ("Nf3", "conditional")]
    tree = ConditionalTree.objects.get(game=fresh_game)
    assert [b["if"] for b in tree.tree] == ["Nc6", "Nf6"]
    r = api(boris).post(f"/api/games/{fresh_game.pk}/moves/", {"number": 2, "notation": "d6"}, format="json")
    assert r.status_code == 201 and r.json()["to_move"] == "white"
    assert idle() and not ConditionalTree.objects.exists()


@postgres_only
def test_a_refused_tree_rolls_back_the_move_too(api, fresh_game, anna):  # noqa: F811
    r = api(anna).post(f"/api/games/{fresh_game.pk}/moves/", {"number": 1, "notation": "e4",
                                                              "conditional": [{"if": "e4", "then": "Nf3"}]},
                       format="json")
    assert r.status_code == 400 and r.json()["field"] == "conditional[0].if"
    assert idle()
    assert not GameEvent.objects.filter(game=fresh_game, kind="move").exists()
