"""Two real, simultaneous HTTP submissions of the partner's move against a tree that one of them fires: the
game's row lock serialises them, one is stored with its outcome (the reply played, or the tree dropped) and
the other gets 409."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from corr.games import services
from corr.models import ConditionalTree, GameEvent

from ..api.test_race import fire_together
from ..conftest import TODAY

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_racing_moves_against_a_firing_tree_store_exactly_one_outcome(live_server, server, arbiter, anna, boris,
                                                                           frozen):
    tokens = {u.username: Token.objects.get_or_create(user=u)[0].key for u in (anna, boris)}
    for _ in range(3):
        game = services.game_create(by=arbiter, tournament=server, white=anna, black=boris, today=TODAY)
        url = f"{live_server.url}/api/games/{game.pk}/moves/"
        sent = fire_together([(url, {"Authorization": f"Token {tokens['anna']}"},
                               {"number": 1, "notation": "e4", "conditional": [{"if": "e5", "then": "Nf3"}]})])
        assert sent[0].status_code == 201, sent[0].text
        black = {"Authorization": f"Token {tokens['boris']}"}
        results = fire_together([(url, black, {"number": 1, "notation": "e5"}),
                                 (url, black, {"number": 1, "notation": "d5"})])
        assert sorted(r.status_code for r in results) == [201, 409], [r.text for r in results]
        won = next(r for r in results if r.status_code == 201).json()
        moves = list(GameEvent.objects.filter(game=game, kind="move").order_by("seq")
                     .values_list("notation", "variant"))
        if moves[1][0] == "e5":
            assert moves == [("e4", ""), ("e5", ""), ("Nf3", "conditional")] and won["to_move"] == "black"
        else:
            assert moves == [("e4", ""), ("d5", "")] and won["to_move"] == "white"
        assert not ConditionalTree.objects.filter(game=game).exists()
