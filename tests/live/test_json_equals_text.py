"""JSON equals text (issue 24 item 1): a player's clock is written by one mapping, everywhere.

For every system, at every prefix of a game played through the HTTP stack on the injected clock, flags
and pauses included: ``manage.py clock``'s table (the text), ``manage.py clock --json`` of the game's
file (``GET /api/games/{id}/events/``), ``GET /api/games/{id}/`` (its ``live`` object and its ``clock``)
and the WebSocket's payload give the same fields for each player. The system's own fields stand beside
the player's ``remaining_ms``, ``used_ms`` and ``flag_fallen``, never over them: a flagged player has 0
left (not the system's -1000), a player under a per-move limit of 90 s has what the limit leaves (not
the whole stage).
"""

from __future__ import annotations

import io
import json

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command

from corr.clock.live.clock import PLAYER_FIELDS
from corr.clock.live.text import parse_player_line
from tests.live_page.conftest import socket

from .conftest import MIN, S, START_MS, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

SYSTEMS = {
    "sudden_death": {"system": "sudden_death", "time": 60},
    "per_move_limit": {"system": "sudden_death", "time": 3600, "max_per_move": 90},
    "periods": {"system": "periods", "stages": [{"moves": 2, "time": 40}, {"moves": None, "time": 30}]},
    "periods_increment": {"system": "periods", "stages": [{"moves": 2, "time": 40, "increment": 5},
                                                          {"moves": None, "time": 30, "increment": 5}]},
    "fischer": {"system": "fischer", "initial": 60, "increment": 2},
    "delay": {"system": "delay", "main": 60, "delay": 5},
    "byoyomi": {"system": "byoyomi", "main": 10, "periods": 3, "period_time": 10},
    "canadian": {"system": "canadian", "main": 10, "moves": 2, "period_time": 20},
    "per_move": {"system": "per_move", "time": 30},
}

# (what, who, argument): waits in ms on the server's clock, the players' presses, the arbiter's actions.
# White's last wait is an hour: every system's flag falls and the scheduled check ends the game on time.
SCRIPT = [
    ("wait", None, 4 * S), ("move", "anna", "e4"), ("wait", None, 12 * S), ("move", "boris", "e5"),
    ("wait", None, 3 * S), ("pause", None, None), ("wait", None, 5 * MIN), ("resume", None, None),
    ("wait", None, 2_500), ("move", "anna", "Nf3"), ("adjust", "black", 15), ("wait", None, 1_250),
    ("move", "boris", "Nc6"), ("wait", None, 60 * MIN),
]


def text_players(text: str) -> dict:
    lines = [line for line in text.splitlines() if line.startswith(("white: ", "black: "))]
    return dict(parse_player_line(line) for line in lines)


def command(tmp_path, data: dict, *args: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("clock", str(path), *args, stdout=out)
    return out.getvalue()


def socket_players(game_id: int, user) -> dict:
    ws = socket(game_id, user)

    async def scenario():
        connected, _ = await ws.connect(timeout=10)
        assert connected
        payload = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return payload

    return async_to_sync(scenario)()["players"]


def compare(api, arbiter, game_id: int, tmp_path) -> dict:
    """Every writing of both players' clocks at this instant, asserted equal; the API's players returned."""
    body = api(arbiter).get(f"/api/games/{game_id}/").json()
    file = api(arbiter).get(f"/api/games/{game_id}/events/").json()
    table = text_players(command(tmp_path, file))
    as_json = json.loads(command(tmp_path, file, "--json"))["players"]
    pushed = socket_players(game_id, arbiter)
    assert set(table) == {"white", "black"}
    for side in ("white", "black"):
        assert list(table[side])[:len(PLAYER_FIELDS)] == list(PLAYER_FIELDS)  # the player's own fields first
        assert as_json[side] == table[side], side
        assert body["live"]["players"][side] == table[side], side
        assert body["clock"]["players"][side] == table[side], side
        assert pushed[side] == table[side], side
    return body["live"]["players"]


@pytest.mark.parametrize("name", list(SYSTEMS))
def test_the_table_the_json_the_api_and_the_socket_write_the_same_clock_at_every_prefix(
        name, api, arbiter, anna, boris, clock, create_game, tmp_path):
    game_id = create_game(live_tournament(arbiter, SYSTEMS[name]))
    clock.advance_to(START_MS)
    players = compare(api, arbiter, game_id, tmp_path)
    for what, who, argument in SCRIPT:
        if what == "wait":
            clock.advance(argument)
        elif what == "move":
            user = {"anna": anna, "boris": boris}[who]
            number = players["white" if who == "anna" else "black"]["moves_made"] + 1
            r = api(user).post(f"/api/games/{game_id}/moves/", {"number": number, "notation": argument},
                               format="json")
            assert r.status_code == 201, (what, r.json())
        elif what == "adjust":
            r = api(arbiter).post(f"/api/games/{game_id}/time-adjustments/",
                                  {"player": who, "seconds": argument, "reason": "a sanction"}, format="json")
            assert r.status_code == 201, r.json()
        else:
            r = api(arbiter).post(f"/api/games/{game_id}/{what}/", {"reason": "a phone rang"}, format="json")
            assert r.status_code == 201, r.json()
        players = compare(api, arbiter, game_id, tmp_path)
        for side, player in players.items():
            assert player["remaining_ms"] >= 0 and player["used_ms"] >= 0, (what, side, player)
    # The end: white's flag fell during the hour and ended the game (chess read in SAN: a loss on time).
    white = players["white"]
    assert white["flag_fallen"] and white["remaining_ms"] == 0
    assert api(arbiter).get(f"/api/games/{game_id}/").json()["status"] == "finished"


def test_a_flagged_clock_reads_zero_and_a_per_move_limit_what_it_leaves(api, arbiter, anna, clock, create_game,
                                                                         tmp_path):
    # The two cases: after a flag the JSON said -1000 (the stage's own remaining), and under a limit
    # of 90 s a move the whole stage (3590000) where 80000 are left.
    limited = create_game(live_tournament(arbiter, SYSTEMS["per_move_limit"], name="Limited"))
    clock.advance_to(START_MS + 10 * S)
    white = compare(api, arbiter, limited, tmp_path)["white"]
    assert (white["remaining_ms"], white["used_ms"], white["stage_remaining_ms"]) == (80 * S, 10 * S, 3590 * S)
    # Go, whose moves corr does not read: the flag opens a case and the game, still under way, is read now.
    flagged = create_game(live_tournament(arbiter, SYSTEMS["sudden_death"], kind="go", name="Blitz"))
    clock.advance_to(START_MS + 61 * S)
    white = compare(api, arbiter, flagged, tmp_path)["white"]
    assert (white["remaining_ms"], white["flag_fallen"], white["used_ms"]) == (0, True, 60 * S)
    assert white["stage_remaining_ms"] == -1 * S  # the system's own figure, beside the player's
