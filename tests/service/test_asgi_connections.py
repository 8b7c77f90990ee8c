"""Under daphne the database sessions stay within the pool's size, whatever the load (issue 23, item 4).

A real ``daphne corr.asgi:application`` in a child process, configured by its environment alone as in
production (``DB_POOL_MAX_SIZE=3``), serves the test database while four clients play four live games
at once (a press, then a read of the game, in turn), each game watched on its WebSocket. Django's
ASGI handler runs each request's sync code in a thread of its own: with ``DB_CONN_MAX_AGE=60`` and no
pool every such thread kept a session that nothing reused or closed (41 sessions during this load on
the code before the pool; 19 after two minutes of a 10-game load in production, then "too many
clients"). With ``DB_POOL=0`` under ASGI every request closes its session. The server's sessions are
counted in ``pg_stat_activity`` by their ``application_name`` throughout the load and after it.
A request that finds every session of the pool lent waits ``DB_POOL_TIMEOUT``, then gets the 503 of
a database outage, with ``Retry-After``.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from django.test import Client

from corr.games import services

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).parent / "daphne"
APPLICATION_NAME = "corr-asgi-pool-test"
POOL_MAX = 3
GAMES = 4
MOVES_PER_SIDE = 8

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="SQLite has no server sessions: the pool and DB_CONN_MAX_AGE are PostgreSQL's"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def served_database_url() -> str:
    """The test database as a URL, its sessions named APPLICATION_NAME."""
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "postgres")
    password = f":{urllib.parse.quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return (f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
            f"?application_name={APPLICATION_NAME}")


def sessions_now(probe: psycopg.Connection) -> int:
    return probe.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                         [APPLICATION_NAME]).fetchone()[0]


@pytest.fixture(params=["pool", "no pool"])
def daphne(request, transactional_db, tmp_path, settings):
    """``daphne corr.asgi:application`` on a free port, on the test database, with the pool on or off.

    Yields the port, the most sessions it may hold during the load, and after it: with the pool, its
    size; without, under ASGI every request closes its own (``CONN_MAX_AGE`` 0): one per request in
    flight (a client each), plus the sweep thread's and a socket's read, and at most the sweep's after.
    """
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DB_POOL", "DB_CONN_MAX_AGE")}
    # The test's key: the sessions signed in here sign in there. No REDIS_URL: eager tasks, so the flag
    # checks' timers and the sweep thread run in daphne too, on its sessions.
    env.update(DATABASE_URL=served_database_url(), SECRET_KEY=settings.SECRET_KEY, DEBUG="0",
               SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1", DB_POOL="1" if request.param == "pool" else "0",
               DB_POOL_MIN_SIZE="1", DB_POOL_MAX_SIZE=str(POOL_MAX), PYTHONPATH=str(ROOT),
               DJANGO_SETTINGS_MODULE="corr.settings")
    log = tmp_path / "daphne.log"
    server = subprocess.Popen([str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "corr.asgi:application"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, log.read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "daphne did not listen within 30 s"
                time.sleep(0.2)
        yield (port, POOL_MAX, POOL_MAX) if request.param == "pool" else (port, GAMES + 2, 1)
    finally:
        server.terminate()
        server.wait(timeout=20)


def live_games(arbiter) -> list[dict]:
    """GAMES live games of an hour a side, started now: each with its players' tokens and session cookie."""
    from rest_framework.authtoken.models import Token

    from accounts.models import User

    tournament = services.tournament_create(
        by=arbiter, name="Pool blitz", official_start=datetime.now(UTC).date(), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "periods", "stages": [{"moves": None, "time": 3600}]}})
    games = []
    for g in range(GAMES):
        white, black = (User.objects.create_user(f"pool-{g}-{side}", "", "x") for side in ("w", "b"))
        created = Client()
        created.force_login(arbiter)
        r = created.post("/api/games/", {"tournament": tournament.pk, "white": white.username,
                                         "black": black.username, "starts_at": datetime.now(UTC).isoformat()},
                         content_type="application/json")
        assert r.status_code == 201, r.content
        watcher = Client()
        watcher.force_login(white)
        games.append({"id": r.json()["id"], "white": Token.objects.create(user=white).key,
                      "black": Token.objects.create(user=black).key,
                      "cookie": f"sessionid={watcher.cookies['sessionid'].value}"})
    return games


def call(port: int, method: str, path: str, token: str, body: dict | None = None) -> int:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def watch(port: int, game: dict, received: list) -> socket.socket:
    """The game's live WebSocket, opened with the white player's session; a thread counts what arrives."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall((f"GET /ws/games/{game['id']}/live/ HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
                  f"Cookie: {game['cookie']}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())

    def read():
        try:
            while chunk := conn.recv(65536):
                received.append(len(chunk))
        except OSError:  # closed by the test at the end
            pass

    threading.Thread(target=read, daemon=True).start()
    return conn


def play(port: int, game: dict, statuses: list) -> None:
    """Both sides of one game in turn: a blank press (the "move made" button), then a read of the game."""
    for number in range(1, MOVES_PER_SIDE + 1):
        for side in ("white", "black"):
            statuses.append(call(port, "POST", f"/api/games/{game['id']}/moves/", game[side],
                                 {"number": number, "notation": "", "lag_ms": 0}))
            statuses.append(call(port, "GET", f"/api/games/{game['id']}/", game[side]))


def test_under_daphne_the_database_sessions_stay_within_the_pools_size_or_the_requests_in_flight(daphne, arbiter):
    port, most, most_after = daphne
    games = live_games(arbiter)
    probe = psycopg.connect(served_database_url().replace(APPLICATION_NAME, "corr-asgi-pool-probe"),
                            autocommit=True)
    counts: list[int] = []
    done = threading.Event()

    def sample():
        while not done.is_set():
            counts.append(sessions_now(probe))
            time.sleep(0.1)

    received: list[list[int]] = [[] for _ in games]
    sockets = [watch(port, game, received[i]) for i, game in enumerate(games)]
    statuses: list[int] = []
    sampler = threading.Thread(target=sample)
    sampler.start()
    players = [threading.Thread(target=play, args=(port, game, statuses)) for game in games]
    try:
        for player in players:
            player.start()
        for player in players:
            player.join(timeout=120)
        time.sleep(1)  # the last requests' threads have ended
    finally:
        done.set()
        sampler.join()
        for conn in sockets:
            conn.close()
    after = sessions_now(probe)
    probe.close()
    assert len(statuses) == GAMES * MOVES_PER_SIDE * 4
    assert sorted(set(statuses)) == [200, 201], statuses  # every press and read answered, none waited out
    assert all(sum(chunks) > 200 for chunks in received), received  # each socket got pushes, beyond the upgrade
    assert max(counts) <= most, counts
    assert after <= most_after, (after, counts)


WAIT_FOR_A_SESSION = """
import threading, time, django
django.setup()
from django.db import connection
from django.test import Client

lent = threading.Event()

def hold():
    connection.ensure_connection()  # this thread's Django connection borrows the pool's only session
    lent.set()
    time.sleep(4)
    connection.close()

threading.Thread(target=hold).start()
lent.wait(10)
started = time.monotonic()
answer = Client(raise_request_exception=False).get("/api/users/me/", HTTP_AUTHORIZATION="Token 0123")  # read in the db
print(answer.status_code, answer.get("Retry-After"), round(time.monotonic() - started, 1))
"""


def test_a_request_that_finds_every_session_lent_waits_the_pool_timeout_then_gets_503(transactional_db, settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DB_")}
    env.update(DATABASE_URL=served_database_url(), SECRET_KEY=settings.SECRET_KEY, DEBUG="0", SECURE_SSL_REDIRECT="0",
               DB_POOL_MIN_SIZE="1", DB_POOL_MAX_SIZE="1", DB_POOL_TIMEOUT="1", PYTHONPATH=str(ROOT),
               DJANGO_SETTINGS_MODULE="corr.settings")
    done = subprocess.run([sys.executable, "-c", WAIT_FOR_A_SESSION], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)
    status, retry_after, waited = done.stdout.split()
    assert (status, retry_after) == ("503", "30"), done.stderr[-2000:]
    assert 1 <= float(waited) < 4  # DB_POOL_TIMEOUT, not until the session came back
