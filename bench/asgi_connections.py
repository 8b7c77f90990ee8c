"""Database sessions held by daphne under a live load: the pool (``DB_POOL``) against the code before it.

Usage: python bench/asgi_connections.py [--seconds 300] [--floor-seconds S] [--rounds 2] [--games 10]
       [--interval 2.0] [--sample-seconds 5] [--cap 30] [--modes pool,kept] [--summary FILE]

Each round serves ``corr.asgi:application`` with daphne (one process) and runs a Celery worker with
beat (one pool process: the flag checks and the sweep), both on ``REDIS_URL`` (channels-redis and the
broker) and a fresh PostgreSQL database, the production way. ``--games`` live games of an hour a
side are created through the API; each is watched on its WebSocket and played by one client that
presses for the side to move every ``--interval`` seconds (a blank notation, the "move made"
button) and reads the game after each press. Every ``--sample-seconds`` the sessions on the
database are counted in ``pg_stat_activity`` by ``application_name`` (daphne's, the worker's), and
once more after the load has been idle for 10 s.

Modes, run in alternating rounds (pool, kept, pool, kept, ...) so that the shared machine's other
work falls on both alike:

- ``pool``: the settings as they are (``DB_POOL`` on, its defaults);
- ``kept``: the code before the pool (``bench/kept_connections_settings.py``): no pool, each
  connection kept for ``DB_CONN_MAX_AGE`` 60 s, which under ASGI leaks one session per request
  thread; a round of it stops when daphne holds ``--cap`` sessions (the server is shared: 100
  clients at most for everyone), and the output says so. ``--floor-seconds`` shortens its rounds;
- ``closed``: no pool under ASGI (``DB_POOL=0``): ``CONN_MAX_AGE`` forced to 0, one session per
  request in flight.

The load client runs on a schedule: a press more than one interval behind its instant counts as
late, and the output says the client saturated when over 5 % were late (its figures then describe
a server that could not keep up, not the planned load). Figures across rounds are the median with
min-max. Environment: ``BENCH_ASGI_DATABASE`` (``corr_bench_asgi``, dropped and created),
``BENCH_PG_HOST``/``BENCH_PG_PORT``/``BENCH_PG_USER``, ``BENCH_REDIS_URL`` (its database is
flushed before each round). Prints a summary, then one JSON line.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import (PY, REDIS, ROOT, database_url, free_port, percentile, recreate_database,  # noqa: E402
                    service_env, wait_for_port)

DATABASE = os.environ.get("BENCH_ASGI_DATABASE", "corr_bench_asgi")
DAPHNE_NAME, WORKER_NAME = "corr-bench-daphne", "corr-bench-worker"
BIN = Path(PY).parent
MODES = {
    "pool": {"DJANGO_SETTINGS_MODULE": "corr.settings"},
    "kept": {"DJANGO_SETTINGS_MODULE": "bench.kept_connections_settings", "DB_POOL": "0", "DB_CONN_MAX_AGE": "60"},
    "closed": {"DJANGO_SETTINGS_MODULE": "corr.settings", "DB_POOL": "0"},
}
CHECKPOINTS_S = (30, 60, 120, 180, 240, 300, 600)
LATE_SHARE = 0.05
"""Over this share of presses more than one interval late, the load client saturated."""
IDLE_S = 10
CAP_POLL_S = 0.5


def setup(games: int) -> None:
    """Inside Django: an arbiter and two players a game, their tokens and the watchers' sessions (JSON)."""
    import django

    django.setup()
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services

    arbiter = User.objects.create_user("bench-arbiter", "", "bench-pass-1")
    services.arbiter_grant(user=arbiter)
    players = []
    for g in range(games):
        pair = {}
        for side in ("white", "black"):
            user = User.objects.create_user(f"bench-{g}-{side}", "", "bench-pass-1")
            pair[side] = {"username": user.username, "token": Token.objects.create(user=user).key}
        watcher = Client()
        watcher.force_login(User.objects.get(username=pair["white"]["username"]))
        pair["cookie"] = f"sessionid={watcher.cookies['sessionid'].value}"
        players.append(pair)
    print(json.dumps({"arbiter": Token.objects.create(user=arbiter).key, "players": players}))


def call(port: int, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, float, bytes]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        return response.status, time.perf_counter() - started, data
    except OSError:
        return 0, time.perf_counter() - started, b""
    finally:
        conn.close()


def sessions(probe) -> dict[str, int]:
    rows = probe.execute("SELECT application_name, state, count(*) FROM pg_stat_activity WHERE datname = %s"
                         " GROUP BY 1, 2", [DATABASE]).fetchall()
    counts = {"daphne": 0, "daphne_idle": 0, "worker": 0, "total": 0}
    for name, state, n in rows:
        counts["total"] += n
        if name == DAPHNE_NAME:
            counts["daphne"] += n
            counts["daphne_idle"] += n if state == "idle" else 0
        elif name == WORKER_NAME:
            counts["worker"] += n
    return counts


def start_servers(mode: str, workdir: Path) -> tuple[subprocess.Popen, subprocess.Popen, int]:
    port = free_port()
    base = {"REDIS_URL": REDIS, "PYTHONPATH": str(ROOT), **MODES[mode]}
    daphne = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "corr.asgi:application"], cwd=ROOT,
        env=service_env({**base, "DATABASE_URL": f"{database_url(DATABASE)}?application_name={DAPHNE_NAME}"}),
        stdout=subprocess.DEVNULL, stderr=(workdir / f"daphne-{mode}.log").open("w"))
    log = workdir / f"worker-{mode}.log"
    worker = subprocess.Popen(
        [str(BIN / "celery"), "-A", "corr", "worker", "-B", f"--schedule={workdir / 'beat'}", "--concurrency=1",
         "--loglevel=warning", f"--logfile={log}", "--without-gossip", "--without-mingle", "--without-heartbeat",
         "--hostname=bench-asgi@%h"], cwd=ROOT,
        env=service_env({**base, "DATABASE_URL": f"{database_url(DATABASE)}?application_name={WORKER_NAME}"}),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, 60)
    return daphne, worker, port


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def create_games(port: int, people: dict, round_no: int) -> list[int]:
    today = datetime.now(UTC).date().isoformat()
    hour = {"unit": "seconds", "system": "periods", "stages": [{"moves": None, "time": 3600}]}
    status, _, data = call(port, "POST", "/api/tournaments/", people["arbiter"], {
        "name": f"Bench live {round_no}", "official_start": today, "mode": "live", "ruleset": {"time_control": hour}})
    assert status == 201, data
    tournament = json.loads(data)["id"]
    ids = []
    for pair in people["players"]:
        status, _, data = call(port, "POST", "/api/games/", people["arbiter"], {
            "tournament": tournament, "white": pair["white"]["username"], "black": pair["black"]["username"],
            "starts_at": datetime.now(UTC).isoformat()})
        assert status == 201, data
        ids.append(json.loads(data)["id"])
    return ids


def watch(port: int, game_id: int, cookie: str, stop_event: threading.Event, received: list) -> None:
    """The game's live WebSocket, read until the round ends (bytes counted: the pushes arrive)."""
    key = base64.b64encode(os.urandom(16)).decode()
    with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
        conn.sendall((f"GET /ws/games/{game_id}/live/ HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
                      f"Cookie: {cookie}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        while not stop_event.is_set():
            try:
                chunk = conn.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not chunk:
                return
            received.append(len(chunk))


class Tally:
    """One round's presses and reads: statuses, press latencies, lateness against the schedule."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: dict[int, int] = {}
        self.press_s: list[float] = []
        self.scheduled = 0
        self.late = 0

    def add(self, status: int, latency: float | None = None) -> None:
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if latency is not None and status == 201:
                self.press_s.append(latency)


def play(port: int, game_id: int, pair: dict, interval: float, stop_event: threading.Event, tally: Tally) -> None:
    """Press for the side to move every ``interval`` seconds (white 1, black 1, white 2, ...), read after each."""
    started, tick, k = time.monotonic(), 0, 0
    while not stop_event.is_set():
        due = started + tick * interval
        tick += 1
        wait = due - time.monotonic()
        if wait > 0 and stop_event.wait(wait):
            return
        with tally.lock:
            tally.scheduled += 1
            tally.late += time.monotonic() - due > interval
        side = "white" if k % 2 == 0 else "black"
        status, latency, _ = call(port, "POST", f"/api/games/{game_id}/moves/", pair[side]["token"],
                                  {"number": k // 2 + 1, "notation": "", "lag_ms": 0})
        tally.add(status, latency)
        if status == 201:  # else (a 503, a refused connection) the same press again at the next instant
            k += 1
            tally.add(call(port, "GET", f"/api/games/{game_id}/", pair[side]["token"])[0])


def run_round(mode: str, seconds: float, args, people: dict, round_no: int, workdir: Path) -> dict:
    import psycopg
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    load_before = os.getloadavg()[0]
    daphne, worker, port = start_servers(mode, workdir)
    probe = psycopg.connect(f"{database_url(DATABASE)}?application_name=corr-bench-probe", autocommit=True)
    stop_event, tally, samples, received = threading.Event(), Tally(), [], [[] for _ in people["players"]]
    capped_at = None
    try:
        ids = create_games(port, people, round_no)
        games = list(zip(ids, people["players"], strict=True))
        threads = [threading.Thread(target=watch, args=(port, gid, pair["cookie"], stop_event, received[i]),
                                    daemon=True) for i, (gid, pair) in enumerate(games)]
        threads += [threading.Thread(target=play, args=(port, gid, pair, args.interval, stop_event, tally),
                                     daemon=True) for gid, pair in games]
        started, next_sample = time.monotonic(), 0.0
        for thread in threads:
            thread.start()
        while (elapsed := time.monotonic() - started) < seconds:
            now = sessions(probe)
            if elapsed >= next_sample:
                samples.append({"t": round(elapsed, 1), **now})
                next_sample += args.sample_seconds
            if mode == "kept" and now["daphne"] >= args.cap:  # looked at twice a second: it grows fast
                samples.append({"t": round(elapsed, 1), **now})
                capped_at = elapsed
                break
            time.sleep(CAP_POLL_S)
        loaded = time.monotonic() - started
        stop_event.set()
        for thread in threads:
            thread.join(timeout=35)
        samples.append({"t": round(time.monotonic() - started, 1), **sessions(probe)})
        load_after = os.getloadavg()[0]
        time.sleep(IDLE_S)
        idle = sessions(probe)
    finally:
        stop_event.set()
        stop(daphne)
        stop(worker)
        probe.close()
    presses = len(tally.press_s)
    late_share = tally.late / tally.scheduled if tally.scheduled else 0.0
    return {"mode": mode, "round": round_no, "seconds": round(loaded, 1), "capped_at_s": capped_at,
            "samples": samples, "idle": idle, "statuses": tally.statuses, "presses": presses,
            "presses_per_s": presses / loaded, "planned_per_s": len(ids) / args.interval,
            "press_p50_ms": percentile(tally.press_s, 50) * 1000, "press_p99_ms": percentile(tally.press_s, 99) * 1000,
            "late_share": late_share, "saturated": late_share > LATE_SHARE,
            "socket_bytes": [sum(r) for r in received], "load_average": [load_before, load_after]}


def at(samples: list[dict], t: float, key: str = "daphne") -> int | None:
    """The count of the sample nearest to ``t`` seconds, within a sampling interval (None: the round was shorter)."""
    if not samples or samples[-1]["t"] < t - 1:
        return None
    return min(samples, key=lambda s: abs(s["t"] - t))[key]


def spread(values: list[float]) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    fmt = (lambda v: f"{v:.0f}") if all(float(v).is_integer() for v in values) else (lambda v: f"{v:.2f}")
    if len(values) == 1:
        return fmt(values[0])
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}-{fmt(max(values))})"


def summary(rounds: list[dict]) -> None:
    for r in rounds:
        ending = f"stopped at the cap after {r['capped_at_s']:.0f} s" if r["capped_at_s"] else "ran its time"
        print(f"round {r['round']} {r['mode']}: {r['seconds']:.0f} s ({ending}); daphne's sessions "
              + ", ".join(f"{s['t']:.0f}s {s['daphne']}" for s in r["samples"][:: max(1, len(r['samples']) // 12)])
              + f"; max {max(s['daphne'] for s in r['samples'])}, after {IDLE_S} s idle {r['idle']['daphne']}"
              f" (worker {r['idle']['worker']}, database {r['idle']['total']}); presses {r['presses_per_s']:.1f}/s"
              f" of {r['planned_per_s']:.1f} planned, p50 {r['press_p50_ms']:.0f} ms p99 {r['press_p99_ms']:.0f} ms,"
              f" answers {r['statuses']}; {r['late_share']:.1%} late"
              + (": THE LOAD CLIENT SATURATED" if r["saturated"] else "")
              + f"; the machine's load average {r['load_average'][0]:.1f} before, {r['load_average'][1]:.1f} after")
    print("\nacross rounds, median (min-max) of daphne's sessions:")
    for mode in dict.fromkeys(r["mode"] for r in rounds):
        mine = [r for r in rounds if r["mode"] == mode]
        marks = "  ".join(f"{t}s {spread([at(r['samples'], t) for r in mine])}" for t in CHECKPOINTS_S
                          if any(at(r["samples"], t) is not None for r in mine))
        print(f"  {mode:6} {marks}  max {spread([max(s['daphne'] for s in r['samples']) for r in mine])}"
              f"  after idle {spread([r['idle']['daphne'] for r in mine])}"
              f"  worker {spread([max(s['worker'] for s in r['samples']) for r in mine])}"
              f"  presses/s {spread([r['presses_per_s'] for r in mine])}"
              f"  press p50 ms {spread([r['press_p50_ms'] for r in mine])}"
              f"  capped {sum(1 for r in mine if r['capped_at_s'])}/{len(mine)}"
              + (f" after {spread([r['capped_at_s'] for r in mine])} s" if any(r["capped_at_s"] for r in mine) else "")
              + f"  saturated {sum(1 for r in mine if r['saturated'])}/{len(mine)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=300, help="length of a round of load")
    parser.add_argument("--floor-seconds", type=float, default=None, help="length of a kept/closed round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each mode, alternated")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a game's presses")
    parser.add_argument("--sample-seconds", type=float, default=5.0)
    parser.add_argument("--cap", type=int, default=30, help="kept rounds stop at this many daphne sessions")
    parser.add_argument("--modes", default="pool,kept")
    parser.add_argument("--summary", metavar="FILE", help="print the summary of an earlier run's JSON line again")
    args = parser.parse_args()
    if args.summary:
        summary(json.loads(Path(args.summary).read_text().strip().splitlines()[-1])["rounds"])
        return
    modes = args.modes.split(",")
    assert set(modes) <= set(MODES), modes
    recreate_database(DATABASE)
    done = subprocess.run([PY, __file__, "setup", str(args.games)], cwd=ROOT, capture_output=True, text=True,
                          env=service_env({"DATABASE_URL": database_url(DATABASE), "PYTHONPATH": str(ROOT),
                                           "DJANGO_SETTINGS_MODULE": "corr.settings"}))
    if done.returncode:
        raise SystemExit(f"setup failed:\n{done.stderr[-3000:]}")
    people = json.loads(done.stdout.strip().splitlines()[-1])
    workdir = Path(tempfile.mkdtemp(prefix="corr-bench-asgi-"))
    rounds = []
    for _ in range(args.rounds):
        for mode in modes:
            seconds = args.seconds if mode == "pool" else (args.floor_seconds or args.seconds)
            rounds.append(run_round(mode, seconds, args, people, len(rounds) + 1, workdir))
            print(f"round {len(rounds)} ({mode}) done", file=sys.stderr, flush=True)
    summary(rounds)
    print(json.dumps({"database": DATABASE, "games": args.games, "interval_s": args.interval, "rounds": rounds}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["setup"]:
        setup(int(sys.argv[2]))
    else:
        main()
