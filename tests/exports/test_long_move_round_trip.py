"""The "Use 40+ days" notice (ICCF Playing Rules 3b, issue 40) survives the round trip: the game file of
``GET /api/games/{id}/events/`` carries it as ``long_moves`` and ``manage.py clock`` computes from it the clocks
of the game page; the PGN export writes it ``[%cclong black 1]`` and reads back the same ``long_moves``."""

from __future__ import annotations

import json
from datetime import timedelta, timezone as tz
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError

from corr.clock.account import compute
from corr.clock.gamefile import read_game
from corr.formats.pgn_stamps import games_from_pgn
from corr.games import services

from ..service.test_long_move import ROOMY_ICCF, START
from .test_exports import export
from .test_round_trip_corpus import assert_same_accounts

pytestmark = pytest.mark.django_db

MOVED = START + timedelta(hours=1)
LATER = MOVED + timedelta(days=41, minutes=1)  # black silent 41 whole days: past the 40 of one move


@pytest.fixture
def noticed(api, arbiter, anna, boris):
    """100 days for 10 moves, at most 40 for one: black gave the notice for move 1 and has not moved for 41 days."""
    with time_machine.travel(START, tick=False):
        league = services.tournament_create(by=arbiter, name="ICCF cup", official_start=START.date(), mode="server",
                                            ruleset=ROOMY_ICCF)
        game = services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=START.date())
    with time_machine.travel(MOVED, tick=False):
        assert api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"},
                              format="json").status_code == 201
    with time_machine.travel(MOVED + timedelta(days=30), tick=False):
        assert api(boris).post(f"/api/games/{game.pk}/long-move/", {}, format="json").status_code == 201
    return game


def clock_of(tmp_path, data: dict) -> dict:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    out = StringIO()
    call_command("clock", str(path), "--json", stdout=out, stderr=StringIO())
    return json.loads(out.getvalue())["players"]


def test_the_game_file_carries_the_notice_and_computes_to_the_game_page(api, tmp_path, anna, noticed):
    with time_machine.travel(LATER, tick=False):
        data = api(anna).get(f"/api/games/{noticed.pk}/events/").json()
        page = api(anna).get(f"/api/games/{noticed.pk}/").json()["clock"]
    assert data["long_moves"] == [{"player": "black", "move": 1}]
    players = clock_of(tmp_path, data)
    assert_same_accounts(players, page["players"])
    assert players["black"]["overstepped"] is None
    # The notice is what keeps black in time: the same file without it oversteps the limit for one move.
    del data["long_moves"]
    assert clock_of(tmp_path, data)["black"]["overstepped"]["reason"] == "max_per_move"


def test_the_pgn_export_writes_the_notice_and_reads_it_back(api, anna, noticed):
    with time_machine.travel(LATER, tick=False):
        text = export(api(anna), noticed, "pgn").content.decode()
    assert "[%cclong black 1]" in text
    [data] = games_from_pgn(text, ruleset=ROOMY_ICCF)
    assert data["long_moves"] == [{"player": "black", "move": 1}]
    game, _ = read_game(data)
    assert compute(game, LATER.astimezone(tz.utc)).accounts["black"].overstepped is None


@pytest.mark.parametrize("long_moves, field", [
    ([{"player": "red", "move": 1}], "long_moves[0].player"),
    ([{"player": "black", "move": 0}], "long_moves[0].move"),
    ({"black": 1}, "long_moves"),
])
def test_a_bad_notice_in_a_game_file_is_refused_naming_the_field(tmp_path, long_moves, field):
    data = {"ruleset": ROOMY_ICCF, "official_start": "2026-03-02", "players": {"white": {}, "black": {}},
            "events": [], "long_moves": long_moves}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as error:
        call_command("clock", str(path), "--json", stdout=StringIO(), stderr=StringIO())
    assert field in str(error.value)


