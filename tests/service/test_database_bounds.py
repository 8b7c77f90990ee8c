"""The web processes' bounds on the database (issue 42), over the real HTTP stack on a PostgreSQL of the test's own.

A PostgreSQL cluster of the test's own (never the shared server: the last test stops it), migrated and seeded with
live games (:mod:`tests.support.outage_seed`); gunicorn (``corr.wsgi``) bounded by ``DB_LOCK_TIMEOUT_MS`` and
daphne (``corr.asgi``) by ``DB_STATEMENT_TIMEOUT_MS`` alone (its lock bound off, so that a statement held by a lock
runs into the statement's bound: the statement's time counts its wait). The test holds a game's row lock from a
connection of its own, as a write in flight would, while a move waits for it:

- past the bound the move is answered 503 with ``Retry-After`` and the words of the reader's language (en, ru, fr),
  over HTTP and on the socket; without the bound it would wait as long as the test holds the lock (the request's
  10 s timeout would fail the test);
- nothing was stored: the game has no move, and the same ``Idempotency-Key`` / ``move_id`` sent once the lock is
  released makes the move (201, not a replay of the 503).

Last, PostgreSQL is stopped: a socket opened then is accepted and closed with 1013, "try again later" (it was HTTP
500 at the handshake and a traceback in daphne's log), within 2 s (a correctness bound); once PostgreSQL is back,
a socket opened again gets the game's state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid

import psycopg
import pytest
import requests
import websockets

from ..support.seeded_cluster import production_db_env, seeded_cluster
from ..support.stack import Stack

pytestmark = [pytest.mark.postgres]

LANGUAGES = ["en", "ru", "fr"]
BOUND_MS = 300
"""Both bounds in this test: short, so that the test waits little; the defaults are 5 s and 10 s."""
UNAVAILABLE = {
    "en": "the database is unavailable; try again shortly",
    "ru": "база данных недоступна; повторите попытку чуть позже",
    "fr": "la base de données est indisponible ; réessayez sous peu",
}
"""What the reader receives, written out (the catalogues' words, not read back from them)."""


@pytest.fixture(scope="module")
def bounded(tmp_path_factory):
    """(the cluster, the stack, the seeded games): gunicorn with a lock bound, daphne with a statement bound."""
    with seeded_cluster("bounds", 7) as (postgres, url, games):
        stack = Stack(tmp_path_factory.mktemp("bounds"), database=url,
                      env={**production_db_env(), "DB_LOCK_TIMEOUT_MS": str(BOUND_MS)})
        try:
            stack.start("redis")
            stack.start("gunicorn")
            stack.env.update(DB_LOCK_TIMEOUT_MS="0", DB_STATEMENT_TIMEOUT_MS=str(BOUND_MS))
            stack.start("daphne")
            yield postgres, stack, games
        finally:
            stack.stop_all()


@contextlib.contextmanager
def row_locked(url: str, game_id: int):
    """The game's row locked by this test's own transaction (as a write in flight holds it) until the block ends."""
    from corr.models import Game

    with psycopg.connect(url) as held:
        held.execute(f'SELECT 1 FROM "{Game._meta.db_table}" WHERE id = %s FOR UPDATE', [game_id])
        try:
            yield
        finally:
            held.rollback()


def moves_made(stack: Stack, game: dict) -> int:
    read = requests.get(stack.url(f"/api/games/{game['id']}/", "gunicorn"), timeout=10,
                        headers={"Authorization": f"Token {game['white']['token']}"})
    assert read.status_code == 200, read.text
    return sum(player["moves_made"] for player in read.json()["live"]["players"].values())


def http_move(stack: Stack, server: str, game: dict, key: str, language: str) -> requests.Response:
    return requests.post(stack.url(f"/api/games/{game['id']}/moves/", server), json={"number": 1, "notation": ""},
                         timeout=10, headers={"Authorization": f"Token {game['white']['token']}",
                                              "Idempotency-Key": key, "Accept-Language": language})


def socket_url(stack: Stack, game: dict) -> str:
    return stack.url(f"/ws/games/{game['id']}/live/").replace("http://", "ws://")


def socket_headers(game: dict, language: str) -> dict:
    return {"Origin": "http://127.0.0.1", "Cookie": game["white"]["cookie"], "Accept-Language": language}


async def socket_move(stack: Stack, game: dict, move_id: str, language: str, *, hold=None) -> dict:
    """White's move 1 with ``move_id`` on the game's socket (in the language ``language``), sent while ``hold``
    (a context manager) is held when given; the answer."""
    async with websockets.connect(socket_url(stack, game), additional_headers=socket_headers(game, language)) as ws:
        json.loads(await asyncio.wait_for(ws.recv(), timeout=10))  # the state on connecting
        with hold or contextlib.nullcontext():
            await ws.send(json.dumps({"type": "move", "id": 1, "move_id": move_id, "number": 1, "notation": ""}))
            while True:  # the pushes on the way skipped
                answer = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                if answer.get("type") == "move":
                    return answer


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_move_waiting_for_a_lock_past_DB_LOCK_TIMEOUT_MS_is_answered_503_and_stores_nothing(bounded, language):
    postgres, stack, games = bounded
    game = games[LANGUAGES.index(language)]
    key = str(uuid.uuid4())
    with row_locked(postgres.url("bounds"), game["id"]):
        answer = http_move(stack, "gunicorn", game, key, language)
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == "30"
    assert answer.json() == {"detail": UNAVAILABLE[language]}
    assert "canceling statement due to lock timeout" in stack.log("gunicorn")
    assert moves_made(stack, game) == 0
    # The same key once the lock is gone makes the move: the 503 kept nothing to replay.
    again = http_move(stack, "gunicorn", game, key, language)
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers, again.text
    assert moves_made(stack, game) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_statement_past_DB_STATEMENT_TIMEOUT_MS_is_answered_503_over_http_and_on_the_socket(bounded, language):
    postgres, stack, games = bounded
    game = games[3 + LANGUAGES.index(language)]
    url = postgres.url("bounds")
    key = str(uuid.uuid4())
    with row_locked(url, game["id"]):
        answer = http_move(stack, "daphne", game, key, language)
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == "30"
    assert answer.json() == {"detail": UNAVAILABLE[language]}
    move_id = str(uuid.uuid4())
    on_socket = asyncio.run(socket_move(stack, game, move_id, language, hold=row_locked(url, game["id"])))
    assert on_socket == {"type": "move", "id": 1, "status": 503, "detail": UNAVAILABLE[language], "retry_after": 30}
    assert "canceling statement due to statement timeout" in stack.log("daphne")
    assert moves_made(stack, game) == 0
    # The same move_id once the lock is gone: the move is made (201, no replay of the 503).
    again = asyncio.run(socket_move(stack, game, move_id, language))
    assert again["status"] == 201 and "replayed" not in again, again
    assert moves_made(stack, game) == 1
    # And the HTTP key of the 503: its move is now refused by the rules (409), not replayed as a 503.
    assert http_move(stack, "daphne", game, key, "en").status_code == 409


async def _closed_with(stack: Stack, game: dict) -> tuple[int | None, float]:
    """Open the game's socket: the close code it is sent (None: a state came instead) and the seconds taken."""
    start = time.monotonic()
    async with websockets.connect(socket_url(stack, game), additional_headers=socket_headers(game, "en")) as ws:
        try:
            await asyncio.wait_for(ws.recv(), timeout=10)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None, time.monotonic() - start
        return None, time.monotonic() - start


def test_a_socket_opened_while_postgresql_is_down_is_closed_with_1013_and_gets_the_state_once_it_is_back(bounded):
    postgres, stack, games = bounded
    game = games[6]
    assert asyncio.run(_closed_with(stack, game))[0] is None  # up: the state
    logged = len(stack.log("daphne"))
    postgres.stop()
    try:
        code, seconds = asyncio.run(_closed_with(stack, game))
        assert code == 1013
        assert seconds < 2.0, seconds  # DB_POOL_TIMEOUT (1 s) and the close: the bound on any answer
    finally:
        postgres.start()
    log = stack.log("daphne")[logged:]
    assert "closed with 1013: the database is unavailable" in log
    assert "Traceback" not in log, log[-3000:]
    deadline = time.monotonic() + 60  # the pool reconnects with a backoff of 1, 2, 4 s...
    while asyncio.run(_closed_with(stack, game))[0] == 1013:
        assert time.monotonic() < deadline, "no state within 60 s of PostgreSQL's return"
        time.sleep(0.5)
    assert asyncio.run(_closed_with(stack, game))[0] is None
