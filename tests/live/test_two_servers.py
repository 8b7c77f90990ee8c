"""Two ASGI servers share one live game (issue 27, "scale-out"): nothing one process holds is needed by the other.

Two real ``daphne corr.asgi:application`` processes, a Celery worker with its beat and a Redis of this test's own,
on the test database: the production way of more than one server. White's page is open on the first server,
black's on the second (real WebSocket clients, the ``websockets`` library, signed in by their session cookies).
White's move sent on its socket to the first server reaches black's socket on the second as a push; black's
move made over HTTP on the second reaches white's socket on the first; white's flag, which falls while
nobody moves, is recorded once and pushed to both. Every payload received is the ``"live"`` object that
``GET /api/games/{id}/`` answers on either server.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from datetime import UTC, datetime

import pytest
import requests
import websockets
from django.test import Client
from rest_framework.authtoken.models import Token

from corr.games import services
from corr.models import Game, LiveEvent, LiveGame

from ..conftest import needs_server
from ..support.stack import Stack

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

CONTROL_S = 8
WAIT_S = 60


@pytest.fixture
def two_servers(tmp_path):
    needs_server("redis-server (the binary)", shutil.which("redis-server") is not None)
    stack = Stack(tmp_path)
    try:
        for name in ("redis", "worker", "daphne", "daphne2"):
            stack.start(name)
        stack.steady()
        yield stack
    finally:
        stack.stop_all()


def cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def socket_url(stack: Stack, server: str, game_id: int) -> str:
    return stack.url(f"/ws/games/{game_id}/live/", server).replace("http://", "ws://")


async def next_live(ws, version_above: int, seconds: float = WAIT_S) -> dict:
    """The next payload on ``ws`` whose version is above ``version_above`` (pushes of older versions skipped)."""
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
        payload = message.get("live") if message.get("type") == "move" else message
        if payload.get("version", 0) > version_above:
            return message


def test_two_servers_serve_one_game_with_the_pushes_crossing_between_them(two_servers, arbiter, anna, boris):
    stack = two_servers
    tournament = services.tournament_create(
        by=arbiter, name="Two servers", official_start=datetime.now(UTC).date(), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "fischer", "initial": CONTROL_S, "increment": 0}})
    token = Token.objects.get_or_create(user=arbiter)[0].key
    created = requests.post(stack.url("/api/games/"), json={
        "tournament": tournament.pk, "white": "anna", "black": "boris", "starts_at": datetime.now(UTC).isoformat()},
        headers={"Authorization": f"Token {token}"}, timeout=30)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    boris_token = Token.objects.get_or_create(user=boris)[0].key

    def read(server: str) -> dict:
        r = requests.get(stack.url(f"/api/games/{game_id}/", server), headers={"Authorization": f"Token {boris_token}"},
                         timeout=30)
        assert r.status_code == 200, r.text
        return r.json()["live"]

    anna_signed_in, boris_signed_in = cookie(anna), cookie(boris)

    async def scenario() -> dict:
        headers = {"Origin": "http://127.0.0.1"}
        async with websockets.connect(socket_url(stack, "daphne", game_id),
                                      additional_headers={**headers, "Cookie": anna_signed_in}) as white, \
                websockets.connect(socket_url(stack, "daphne2", game_id),
                                   additional_headers={**headers, "Cookie": boris_signed_in}) as black:
            first = json.loads(await white.recv())
            json.loads(await black.recv())
            # White's move on the first server's socket: answered there, pushed to black on the second.
            await white.send(json.dumps({"type": "move", "id": "w1", "number": 1, "notation": "e4"}))
            answer = await next_live(white, first["version"])
            while answer.get("type") != "move":
                answer = await next_live(white, first["version"])
            pushed_to_black = await next_live(black, first["version"])
            # Black's move over HTTP on the second server: pushed to white on the first.
            moved = await asyncio.to_thread(
                requests.post, stack.url(f"/api/games/{game_id}/moves/", "daphne2"),
                json={"number": 1, "notation": "e5"}, headers={"Authorization": f"Token {boris_token}"}, timeout=30)
            assert moved.status_code == 201, moved.text
            after_black = moved.json()["live"]["version"]
            pushed_to_white = await next_live(white, pushed_to_black["version"])
            # Nobody moves: white's flag falls; recorded once, by whichever process checks first, pushed to both.
            flag_white = await next_live(white, after_black)
            while flag_white["status"] == "ongoing":
                flag_white = await next_live(white, flag_white["version"])
            flag_black = await next_live(black, after_black)
            while flag_black["status"] == "ongoing":
                flag_black = await next_live(black, flag_black["version"])
            return {"answer": answer, "pushed_to_black": pushed_to_black, "pushed_to_white": pushed_to_white,
                    "after_black": after_black, "flag": (flag_white, flag_black)}

    got = asyncio.run(scenario())
    assert got["answer"]["status"] == 201 and got["answer"]["id"] == "w1", got["answer"]
    assert got["pushed_to_black"]["version"] == got["answer"]["live"]["version"]
    assert got["pushed_to_black"]["running"] == "black"
    assert got["pushed_to_white"]["version"] == got["after_black"] and got["pushed_to_white"]["running"] == "white"
    flag_white, flag_black = got["flag"]
    assert flag_white["version"] == flag_black["version"] and flag_white["status"] == "finished"
    pushed = {k: v for k, v in flag_black.items() if k not in ("termination_text", "server_ms")}
    for server in ("daphne", "daphne2"):  # the finished game, as either server reads it (but for its instant)
        assert {k: v for k, v in read(server).items() if k != "server_ms"} == pushed
    moves = {m.player: m.at_ms for m in LiveEvent.objects.filter(game_id=game_id, kind="move")}
    white_left_ms = CONTROL_S * 1000 - (moves["white"] - LiveGame.objects.get(game_id=game_id).starts_at_ms)
    flags = LiveEvent.objects.filter(game_id=game_id, kind="flag")
    assert [(f.player, f.at_ms) for f in flags] == [("white", moves["black"] + white_left_ms)]  # once, at its instant
    assert Game.objects.get(pk=game_id).result == "0-1"
