"""A server game holding a conditional reply (issue 37): corr's own PGN export imports back into a new tournament
and computes with ``manage.py clock`` to the game's own clocks (the reply carries the stamp of the move it
answered, the instant the server played it: 50.4.8, it costs its owner nothing)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from io import StringIO

import pytest
from django.core.management import call_command

from corr.games import services
from corr.models import GameEvent

from ..conftest import TODAY
from .test_exports import export

pytestmark = pytest.mark.django_db


@pytest.fixture
def replied(arbiter, anna, boris, frozen):
    """ICCF rules (whole days): white's 2. Nf3 played by the server from the line sent with 1. e4."""
    tournament = services.tournament_create(by=arbiter, name="ICCF cup", official_start=date(2026, 2, 20),
                                            mode="server", preset="iccf_10_50", time_zone="Europe/Moscow")
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    at = datetime(2026, 2, 21, 9, 30, 5, tzinfo=UTC)
    services.move_submit(game=game, by=anna, number=1, notation="e4", today=at.date(), now=at,
                         conditional=[{"if": "e5", "then": "Nf3"}])
    at = datetime(2026, 2, 23, 20, 0, 0, tzinfo=UTC)
    services.move_submit(game=game, by=boris, number=1, notation="e5", today=at.date(), now=at)
    at = datetime(2026, 2, 26, 8, 15, 0, tzinfo=UTC)
    services.move_submit(game=game, by=boris, number=2, notation="Nc6", today=at.date(), now=at)
    reply = GameEvent.objects.get(game=game, kind="move", player="white", number=2)
    assert (reply.notation, reply.variant, reply.sent_at) == ("Nf3", "conditional", None)
    return game


def test_the_export_imports_back_with_the_same_clocks(api, arbiter, anna, replied):
    text = export(api(anna), replied, "pgn").content.decode()
    assert "2. Nf3 {[%ccsnt 2026.02.23,23:00:00]" in text  # the instant e5 arrived and the reply was played
    target = services.tournament_create(by=arbiter, name="Copy", official_start=date(2026, 2, 20), mode="server",
                                        preset="iccf_10_50", time_zone="Europe/Moscow")
    r = api(arbiter).post(f"/api/tournaments/{target.pk}/import/", {"pgn": text}, format="json")
    assert r.status_code == 201, r.json()
    copy = api(anna).get(f"/api/games/{r.json()['games'][0]['id']}/").json()
    original = api(anna).get(f"/api/games/{replied.pk}/").json()
    assert copy["clock"]["players"] == original["clock"]["players"]
    assert copy["to_move"] == original["to_move"] == "white"


def test_the_clock_command_gives_the_games_clocks(api, anna, replied, tmp_path):
    path = tmp_path / "game.pgn"
    path.write_text(export(api(anna), replied, "pgn").content.decode())
    out = StringIO()
    original = api(anna).get(f"/api/games/{replied.pk}/").json()["clock"]
    call_command("clock", str(path), "--preset", "iccf_10_50", "--time-zone", "Europe/Moscow", "--json",
                 "--as-of", original["as_of"], stdout=out)
    players = json.loads(out.getvalue())["players"]
    for colour in ("white", "black"):
        for key in ("thinking_days", "control", "made", "on_move", "overstepped"):
            assert players[colour][key] == original["players"][colour][key], (colour, key)
