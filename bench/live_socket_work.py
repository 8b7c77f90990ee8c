"""The work daphne does per live socket connected and per press pushed, counted rather than timed (issue 42).

Usage: python bench/live_socket_work.py [--games 50]

The machine this runs on is shared, so the figures are those that do not depend on its load: for ``--games`` live
games, both players' sockets are connected in this one process to the real ASGI application (``corr.asgi``, the
channels-redis layer with its local fan-out, on ``BENCH_REDIS_URL``, PostgreSQL database
``BENCH_SOCKET_DATABASE``: ``corr_bench_socket_work``, dropped and created), then white presses once on its socket
in every game. Counted:

- **connect**: the SQL statements a socket's connection sends, and the threads they ran on (the process's one
  thread-sensitive sync thread, asgiref's ``single_thread_executor``, serialises every socket; ``corr-socket-db``
  is the bounded pool of :mod:`corr.dbthreads`), the calls handed to that one thread, and the event loop thread's
  CPU per connection (``time.thread_time``);
- **press**: the payloads worded (``with_termination_text``) and JSON-encoded (``json.dumps``) per press, the
  sender's answer and both players' pushes included (both sockets of a game are of one language, on one process,
  as under ``bench/live_load.py``), the calls handed to the one sync thread, and the event loop thread's CPU per
  press in the consumer's handlers (``receive_message`` and ``live_update``: the database work runs on the pool,
  outside it).

Prints one JSON object. Writes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import PY, REDIS, ROOT, database_url, recreate_database, service_env  # noqa: E402

DATABASE = os.environ.get("BENCH_SOCKET_DATABASE", "corr_bench_socket_work")


class Counts:
    def __init__(self) -> None:
        self.statements: Counter[str] = Counter()
        self.worded = 0
        self.encoded = 0
        self.loop_cpu_s = 0.0
        self.sync_thread_calls = 0


def instrument(counts: Counts) -> None:
    """Count statements by thread, wordings, encodings, and the loop thread's CPU in the socket's handlers."""
    import json as json_module

    from django.db.backends.signals import connection_created

    import corr.web.records as records
    from corr.api.live_socket import LiveGameSocket

    def counted(execute, sql, params, many, context):
        name = threading.current_thread().name
        # asgiref's thread-sensitive calls (channels' get_user) run on its one executor thread, "ThreadPoolExecutor-*"
        counts.statements["one sync thread" if name.startswith("ThreadPoolExecutor")
                          else name.rstrip("_0123456789")] += 1
        return execute(sql, params, many, context)

    from asgiref.sync import SyncToAsync

    one_thread = SyncToAsync.single_thread_executor  # where thread-sensitive calls run without an outer sync thread
    submit = one_thread.submit

    def submitted(*args, **kwargs):
        counts.sync_thread_calls += 1
        return submit(*args, **kwargs)

    one_thread.submit = submitted
    connection_created.connect(lambda sender, connection, **kw: connection.execute_wrappers.append(counted),
                               weak=False)
    word = records.with_termination_text

    def wording(payload):
        counts.worded += 1
        return word(payload)

    records.with_termination_text = wording
    dumps = json_module.dumps

    def encoding(value, *args, **kwargs):
        if isinstance(value, dict) and ("version" in value or "live" in value):
            counts.encoded += 1
        return dumps(value, *args, **kwargs)

    json_module.dumps = encoding
    for name in ("receive_message", "live_update"):
        handler = getattr(LiveGameSocket, name)

        async def timed(self, *args, _handler=handler, **kwargs):
            started = time.thread_time()
            try:
                return await _handler(self, *args, **kwargs)
            finally:
                counts.loop_cpu_s += time.thread_time() - started

        setattr(LiveGameSocket, name, timed)


def games_made(games: int) -> list[tuple[int, str, str]]:
    """``games`` live 300+3 games started now: (id, white's cookie, black's cookie)."""
    from django.test import Client

    from accounts.models import User
    from corr.games import services
    from corr.live import services as live

    arbiter = User.objects.create_user("bench-arbiter", "", "bench-pass-1")
    services.arbiter_grant(user=arbiter)
    now_ms = time.time_ns() // 1_000_000
    tournament = services.tournament_create(
        by=arbiter, name="Bench sockets", official_start=time.strftime("%Y-%m-%d", time.gmtime()), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "fischer", "initial": 300, "increment": 3}})
    client, made = Client(), []
    for g in range(games):
        cookies = []
        for side in ("white", "black"):
            user = User.objects.create_user(f"bench-{g}-{side}", "", None)
            client.force_login(user)
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
            client.cookies.clear()
        white, black = User.objects.filter(username__in=[f"bench-{g}-white", f"bench-{g}-black"]).order_by("id")
        game = live.live_game_create(by=arbiter, tournament=tournament, white=white, black=black,
                                     starts_at_ms=now_ms, now_ms=now_ms)
        made.append((game.pk, *cookies))
    return made


async def measured(made, counts: Counts) -> dict:
    from channels.testing import WebsocketCommunicator

    from corr.asgi import application

    def socket(game_id: int, cookie: str) -> WebsocketCommunicator:
        return WebsocketCommunicator(application, f"/ws/games/{game_id}/live/", headers=[
            (b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1"), (b"cookie", cookie.encode())])

    sockets = []
    hops0 = counts.sync_thread_calls
    before = Counter(counts.statements)
    cpu0 = time.thread_time()
    for game_id, white, black in made:
        pair = (socket(game_id, white), socket(game_id, black))
        for ws in pair:
            assert (await ws.connect(timeout=30))[0]
            assert "version" in await ws.receive_json_from(timeout=30)
        sockets.append(pair)
    connected = 2 * len(made)
    connect = {"statements_per_socket": {k: round((v - before[k]) / connected, 2)
                                         for k, v in counts.statements.items() if v - before[k]},
               "sync_thread_calls_per_socket": round((counts.sync_thread_calls - hops0) / connected, 2),
               "loop_cpu_ms_per_socket": round((time.thread_time() - cpu0) * 1000 / connected, 3)}
    worded0, encoded0, handlers0, hops0 = counts.worded, counts.encoded, counts.loop_cpu_s, counts.sync_thread_calls
    before = Counter(counts.statements)
    for n, (white, black) in enumerate(sockets):
        await white.send_json_to({"type": "move", "id": f"m{n}", "number": 1, "notation": ""})
        got = [await white.receive_json_from(timeout=30) for _ in range(2)]
        assert [m["status"] for m in got if m.get("type") == "move"] == [201], got  # the answer and the push
        assert "version" in await black.receive_json_from(timeout=30)
    presses = len(sockets)
    press = {"worded_per_press": round((counts.worded - worded0) / presses, 2),
             "encoded_per_press": round((counts.encoded - encoded0) / presses, 2),
             "sync_thread_calls_per_press": round((counts.sync_thread_calls - hops0) / presses, 2),
             "statements_per_press": {k: round((v - before[k]) / presses, 2)
                                      for k, v in counts.statements.items() if v - before[k]},
             "handlers_loop_cpu_ms_per_press": round((counts.loop_cpu_s - handlers0) * 1000 / presses, 3)}
    for pair in sockets:
        for ws in pair:
            await ws.disconnect()
    return {"games": len(made), "sockets": connected, "connect": connect, "press": press}


def measure(games: int) -> None:
    import django

    django.setup()
    counts = Counts()
    made = games_made(games)
    instrument(counts)
    print(json.dumps(asyncio.run(measured(made, counts))))  # no outer sync thread, as in daphne


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        return measure(args.games)
    import redis

    recreate_database(DATABASE)
    redis.Redis.from_url(REDIS).flushdb()
    env = service_env({"DATABASE_URL": database_url(DATABASE), "DJANGO_SETTINGS_MODULE": "corr.settings",
                       "REDIS_URL": REDIS, "PYTHONPATH": str(ROOT), "LIVE_BEAT_SECONDS": "0"})
    done = subprocess.run([PY, __file__, "--measure", "--games", str(args.games)], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    print(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
