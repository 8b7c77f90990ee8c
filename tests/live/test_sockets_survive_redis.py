"""Live sockets survive a Redis outage (issue 42): two players keep playing on one daphne, the other daphne's socket
gets the state when Redis returns, and no one is charged the outage.

Real processes on the test database (tests/support/stack.py): two ``daphne corr.asgi:application`` and a Redis of
this test's own, SIGKILLed for 30 s (its memory lost: no group survives). anna and boris play on two sockets of the
first daphne, each answering the other's move, seen as a push, after ``THINK_S``; the arbiter watches on the second
daphne. Before, the outage closed every socket with 1011 and refused new ones, so a player playing on the socket,
as the page does, lost the outage from their clock.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time

import pytest
import requests
import websockets
from rest_framework.authtoken.models import Token

from corr.models import LiveEvent

from ..conftest import needs_server
from ..support.stack import Stack
from .test_socket_refusals_daphne import live_game_through
from .test_two_servers import cookie, socket_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

OUTAGE_S = 30
THINK_S = 0.5
ORIGIN = {"Origin": "http://127.0.0.1"}


@pytest.fixture
def two_daphnes(tmp_path):
    needs_server("redis-server (the binary)", shutil.which("redis-server") is not None)
    stack = Stack(tmp_path)
    try:
        for name in ("redis", "daphne", "daphne2"):
            stack.start(name)
        yield stack
    finally:
        stack.stop_all()


async def next_message(ws, *, seconds: float = 30) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout=seconds))


async def state_of_version(ws, version: int, *, seconds: float = 30) -> dict:
    """The next pushed state on ``ws`` of at least ``version`` (earlier pushes and answers skipped)."""
    deadline = time.monotonic() + seconds
    while True:
        message = await next_message(ws, seconds=max(0.1, deadline - time.monotonic()))
        if "type" not in message and message["version"] >= version:
            return message


def test_two_players_play_through_a_redis_outage_and_the_other_server_gets_the_state_when_it_returns(
        two_daphnes, arbiter, anna, boris):
    stack = two_daphnes
    game_id = live_game_through(stack, arbiter)
    cookies = {"white": cookie(anna), "black": cookie(boris), "arbiter": cookie(arbiter)}

    def url(server: str) -> str:
        return socket_url(stack, server, game_id)

    async def scenario() -> dict:
        sockets = {side: await websockets.connect(url("daphne"), additional_headers={**ORIGIN, "Cookie": cookies[side]})
                   for side in ("white", "black")}
        watcher = await websockets.connect(url("daphne2"), additional_headers={**ORIGIN, "Cookie": cookies["arbiter"]})
        for ws in (*sockets.values(), watcher):
            await next_message(ws)  # the state on connecting
        thinking_s = {"white": 0.0, "black": 0.0}
        made = {"white": 0, "black": 0}

        async def move(side: str, seen_at: float) -> dict:
            """``side`` answers after THINK_S; the ``live`` object its move made (the other side gets it pushed)."""
            await asyncio.sleep(THINK_S)
            made[side] += 1
            await sockets[side].send(json.dumps({"type": "move", "id": f"{side}{made[side]}", "number": made[side],
                                                 "notation": ""}))
            answer = await next_message(sockets[side])
            while answer.get("type") != "move":  # the push of one's own move may come first
                answer = await next_message(sockets[side])
            assert answer["status"] == 201, answer
            thinking_s[side] += time.monotonic() - seen_at
            return answer["live"]

        # White's first move with Redis up; then Redis is killed and the game goes on.
        first = await move("white", time.monotonic())
        seen = await state_of_version(sockets["black"], first["version"])
        thinking_s["white"] = first["players"]["white"]["used_ms"] / 1000  # the clock ran from the start
        stack.stop("redis")
        down_at = time.monotonic()
        side, moves_down = "black", 0
        while time.monotonic() - down_at < OUTAGE_S:
            version = (await move(side, time.monotonic()))["version"]
            other = "white" if side == "black" else "black"
            seen = await state_of_version(sockets[other], version)  # the other player sees the move, pushed
            assert seen["running"] == other
            side, moves_down = other, moves_down + 1
        heard_during_outage = []
        while True:  # what the other server's socket got during the outage: nothing of these moves
            try:
                heard_during_outage.append(await next_message(watcher, seconds=0.2))
            except TimeoutError:
                break
        stack.start("redis")
        back = await state_of_version(watcher, version, seconds=30)  # the state it missed, once the layer is back
        # Pushes cross again: a socket opened on the second server after the return, and the next move.
        late = await websockets.connect(url("daphne2"), additional_headers={**ORIGIN, "Cookie": cookies["arbiter"]})
        on_connecting = await next_message(late)
        after = (await move(side, time.monotonic()))["version"]
        pushed_across = [await state_of_version(ws, after) for ws in (watcher, late)]
        for ws in (*sockets.values(), watcher, late):
            await ws.close()
        return {"moves_down": moves_down, "heard": heard_during_outage, "back": back, "version": version,
                "on_connecting": on_connecting, "after": after, "pushed_across": pushed_across,
                "thinking_s": thinking_s}

    got = asyncio.run(scenario())
    assert got["moves_down"] >= OUTAGE_S / (THINK_S + 1), got["moves_down"]  # play went on all through the outage
    assert [m.get("version", 0) for m in got["heard"] if m.get("version", 0) > 2] == []
    assert got["back"]["version"] == got["version"] and got["on_connecting"]["version"] == got["version"]
    assert [p["version"] for p in got["pushed_across"]] == [got["after"], got["after"]]
    # No time charged for the outage: each player's stored clock has run what the player thought, not 30 s.
    token = Token.objects.get_or_create(user=boris)[0].key
    live = requests.get(stack.url(f"/api/games/{game_id}/"), headers={"Authorization": f"Token {token}"},
                        timeout=30).json()["live"]
    moves = LiveEvent.objects.filter(game_id=game_id, kind="move").count()
    assert moves == got["moves_down"] + 2
    for side in ("white", "black"):
        used_ms = live["players"][side]["used_ms"]
        # Between the other's push seen and one's own answer, by this client's clock: the most the server can
        # have charged (its instants fall inside that interval, but for the push's way out: 100 ms a move).
        assert used_ms <= got["thinking_s"][side] * 1000 + 100 * moves, (side, used_ms, got["thinking_s"])
    for server in ("daphne", "daphne2"):
        assert "Traceback" not in stack.log(server), stack.log(server)[-3000:]
