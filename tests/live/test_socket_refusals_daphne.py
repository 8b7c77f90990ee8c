"""The live socket's refusals on a real daphne (issue 42): the close code a client reads, and daphne's log.

A binary frame and JSON nested 100,000 deep closed the socket with 1011 and a traceback in daphne's log; ``NaN``
was echoed back as invalid JSON; a 1 MB ``id`` was echoed back whole. Here each frame goes to ``daphne
corr.asgi:application`` (tests/support/stack.py, on the test database) from the ``websockets`` client, which reads
the close code the server sent; the last check reads daphne's whole log for a traceback. Text that is not UTF-8 is
refused by daphne itself (autobahn validates text frames), with 1007 too.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from datetime import UTC, datetime

import pytest
import requests
import websockets
from rest_framework.authtoken.models import Token

from corr.games import services
from corr.limits import JSON_DEPTH_MAX
from corr.models import LiveEvent

from ..conftest import needs_server
from ..support.stack import Stack
from .test_two_servers import cookie, socket_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def daphne(tmp_path):
    needs_server("redis-server (the binary)", shutil.which("redis-server") is not None)
    stack = Stack(tmp_path)
    try:
        for name in ("redis", "daphne"):
            stack.start(name)
        yield stack
    finally:
        stack.stop_all()


def live_game_through(stack: Stack, arbiter, *, control_s: int = 3600, server: str = "daphne") -> int:
    """A live game anna-boris of sudden death ``control_s`` s, created through ``server``, starting now."""
    tournament = services.tournament_create(
        by=arbiter, name="Socket cup", official_start=datetime.now(UTC).date(), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "periods",
                                  "stages": [{"moves": None, "time": control_s}]}})
    token = Token.objects.get_or_create(user=arbiter)[0].key
    answer = requests.post(stack.url("/api/games/", server), json={
        "tournament": tournament.pk, "white": "anna", "black": "boris", "starts_at": datetime.now(UTC).isoformat()},
        headers={"Authorization": f"Token {token}"}, timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


FRAMES = {
    "binary": (b"\x00\x01binary", {}),
    "a megabyte": ('{"type": "move", "id": "' + "i" * 1_000_000 + '", "number": 1}', {}),
    "nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, {}),
    "nested past the bound": ("[" * (JSON_DEPTH_MAX + 1) + "]" * (JSON_DEPTH_MAX + 1), {}),
    "NaN": ('{"type": "move", "id": NaN, "number": 1}', {}),
    "Infinity": ('{"type": "move", "id": "m", "number": 1, "lag_ms": Infinity}', {}),
    "not UTF-8": (b'{"type": "refresh", "x": "\xff\xfe"}', {"text": True}),
    "not JSON": ("{'type': 'refresh'}", {}),
}
CODES = {"binary": 1003, "a megabyte": 1009, "nested 100,000 deep": 1009, "nested past the bound": 1007,
         "NaN": 1007, "Infinity": 1007, "not UTF-8": 1007, "not JSON": 1007}


def test_each_refused_frame_closes_the_socket_with_its_code_and_daphne_logs_no_traceback(daphne, arbiter, anna,
                                                                                          boris):
    game_id = live_game_through(daphne, arbiter)
    signed_in = cookie(anna)

    async def close_code(frame, options) -> tuple[int, list]:
        async with websockets.connect(socket_url(daphne, "daphne", game_id), max_size=None,
                                      additional_headers={"Origin": "http://127.0.0.1", "Cookie": signed_in}) as ws:
            json.loads(await ws.recv())  # the state on connecting
            await ws.send(frame, **options)
            received = []
            try:
                while True:
                    received.append(await asyncio.wait_for(ws.recv(), timeout=15))
            except websockets.ConnectionClosed as closed:
                return (closed.rcvd.code if closed.rcvd else f"no close frame: {closed}"), received

    async def each() -> dict:
        return {name: await close_code(*FRAMES[name]) for name in FRAMES}

    got = asyncio.run(each())
    assert {name: code for name, (code, _) in got.items()} == CODES
    assert all(received == [] for _, received in got.values())  # nothing echoed, not even an error
    # An unknown field and a long id on the same daphne: answered, the socket open, nothing long echoed.
    async def answered() -> list[dict]:
        async with websockets.connect(socket_url(daphne, "daphne", game_id),
                                      additional_headers={"Origin": "http://127.0.0.1", "Cookie": signed_in}) as ws:
            json.loads(await ws.recv())
            out = []
            for message in ({"type": "refresh", "colour": "blue"}, {"type": "move", "id": "i" * 3000, "number": 1}):
                await ws.send(json.dumps(message))
                out.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=15)))
            return out

    unknown, long_id = asyncio.run(answered())
    assert (unknown["status"], unknown["field"]) == (400, "colour")
    assert (long_id["status"], long_id["field"], long_id["id"]) == (400, "id", None)
    assert "i" * 100 not in json.dumps(long_id)
    assert not LiveEvent.objects.filter(game_id=game_id, kind="move").exists()
    log = daphne.log("daphne")
    assert "Traceback" not in log and "1011" not in log, log[-3000:]
