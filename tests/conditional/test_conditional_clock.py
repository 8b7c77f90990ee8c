"""Conditional replies and the clock (issue 28): charged as ``variant: conditional`` moves (50.4.8), and never
played for a player on leave where the tournament refuses moves on leave."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from corr.clock import compute
from corr.clock.gamefile import read_game
from corr.games import services
from corr.models import Leave, Tournament

from ..conftest import TODAY
from .test_conditional_api import RUY, move, moves_of, tree_of

pytestmark = pytest.mark.django_db

SYSTEMS = {
    "50.4": None,
    "fischer": {"time_control": {"system": "fischer", "initial": 10, "increment": 3}},
    "byoyomi": {"time_control": {"system": "byoyomi", "main": 4, "periods": 2, "period_time": 3}},
}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_game_played_through_a_tree_is_charged_as_the_same_game_typed_with_conditional_variants(
        api, arbiter, anna, boris, frozen, system):
    league = services.tournament_create(by=arbiter, name=f"League {system}", official_start=TODAY, mode="server",
                                        ruleset=SYSTEMS[system])
    game = services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)
    move(api, anna, game, 1, "e4", conditional=RUY)
    for days, number, notation in ((2, 1, "e5"), (3, 2, "Nc6"), (1, 3, "a6")):
        frozen.shift(timedelta(days=days))
        move(api, boris, game, number, notation)
    frozen.shift(timedelta(days=2))
    served = api(anna).get(f"/api/games/{game.pk}/").json()["clock"]["players"]
    # The same game as an arbiter would type it: black's moves dated, white's replies conditional variant moves.
    typed = api(anna).get(f"/api/games/{game.pk}/events/").json()
    day = lambda n: (TODAY + timedelta(days=n)).isoformat()  # noqa: E731
    typed["events"] = [
        {"type": "move", "player": "white", "number": 1, "sent_on": day(0)},
        {"type": "move", "player": "black", "number": 1, "received_on": day(0), "sent_on": day(2)},
        {"type": "move", "player": "white", "number": 2, "variant": "conditional"},
        {"type": "move", "player": "black", "number": 2, "received_on": day(2), "sent_on": day(5)},
        {"type": "move", "player": "white", "number": 3, "variant": "conditional"},
        {"type": "move", "player": "black", "number": 3, "received_on": day(5), "sent_on": day(6)},
        {"type": "move", "player": "white", "number": 4, "variant": "conditional"},
        {"type": "move", "player": "black", "number": 4, "received_on": day(6)},
    ]
    clock = compute(read_game(typed)[0], TODAY + timedelta(days=8))
    for colour in ("white", "black"):
        mine = clock.accounts[colour].as_json()
        assert {k: served[colour][k] for k in mine} == mine, colour
    assert served["white"]["made"] == 4 and served["black"]["thinking_days"] == 8  # 2 + 3 + 1, and 2 running


def test_a_tree_never_fires_for_a_player_on_leave_where_moves_on_leave_are_refused(api, server_game, anna, boris,
                                                                                     frozen):
    Tournament.objects.filter(pk=server_game.tournament_id).update(move_on_leave="refused")
    move(api, anna, server_game, 1, "e4", conditional=RUY)
    Leave.objects.create(user=anna, first=date(2026, 3, 2), last=date(2026, 3, 5), tournament=server_game.tournament)
    frozen.move_to(datetime(2026, 3, 3, 12, tzinfo=timezone.utc))
    body = move(api, boris, server_game, 1, "e5")
    assert body["to_move"] == "white"  # the reply waits for white's return
    tree = tree_of(api, anna, server_game)
    assert (tree["awaiting"], tree["conditional"][0]["if"]) == ("e5", "e5")
    frozen.move_to(datetime(2026, 3, 6, 12, tzinfo=timezone.utc))
    move(api, anna, server_game, 2, "Nf3")  # the awaited reply, by hand: the line goes on
    tree = tree_of(api, anna, server_game)
    assert tree["awaiting"] is None and [b["if"] for b in tree["conditional"]] == ["Nc6", "Nf6"]
    body = move(api, boris, server_game, 2, "Nc6")
    assert body["to_move"] == "black"
    assert moves_of(api, anna, server_game)[-1][:4] == ("white", 3, "Bb5", "conditional")


def test_a_waiting_tree_is_dropped_when_its_owner_plays_another_reply(api, server_game, anna, boris, frozen):
    Tournament.objects.filter(pk=server_game.tournament_id).update(move_on_leave="refused")
    move(api, anna, server_game, 1, "e4", conditional=RUY)
    Leave.objects.create(user=anna, first=date(2026, 3, 2), last=date(2026, 3, 5), tournament=server_game.tournament)
    frozen.move_to(datetime(2026, 3, 3, 12, tzinfo=timezone.utc))
    move(api, boris, server_game, 1, "e5")
    frozen.move_to(datetime(2026, 3, 6, 12, tzinfo=timezone.utc))
    move(api, anna, server_game, 2, "Nc3")
    assert tree_of(api, anna, server_game)["conditional"] == []
