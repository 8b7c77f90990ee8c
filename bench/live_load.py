"""``make bench-live``: live blitz games at club-tournament scale on the production stack, beside a bare echo floor.

Usage: python bench/live_load.py [--games 10,100,500] [--rounds 2] [--seconds 60] [--quick] [--no-write]

For each size, rounds alternate between the floor and corr (floor, corr, floor, corr, ...), so that the shared
machine's other work falls on both alike:

- **corr**: ``daphne corr.asgi:application`` (``--servers`` processes, 2 by default: one a core of the CI
  machine) and a Celery worker with its beat (one pool process, every queue), on channels-redis and a fresh
  PostgreSQL database, as the README's production stack;
- **floor**: ``daphne bench.live_floor:application`` (as many processes), a bare Channels echo on the same
  Redis: the same sockets, the same messages, the same rate, no database (bench/live_floor.py).

The games are spread over the servers in turn, a game's two sockets on one (the floor keeps a game's versions
in its process's memory); a push still goes through channels-redis, as between two servers.

Each game (Fischer 300+3) has both players' sockets open (``ws/games/<id>/live/``, signed in by their session
cookies). Its side to move sends ``{"type": "move", ...}`` on its own socket every 4-19 s (uniform, 11.5 s on
average; the first press of a game within its first 11.5 s, so the rate holds from the start): the 95 % of the
games that keep pressing offer the issue's 40 presses/s at 500 games (every 5-20 s offered 35/s), a blank
notation (the "move made" button). Measured by this one asyncio client:

- **move**: from sending the move to its answer on the sender's socket (status 201 expected; anything else,
  a timeout or a closed socket is an error);
- **push**: from sending the move to the payload of that version arriving on the partner's socket;
- **flags** (corr only): one game in 20 (at least 2) is a 30+0 game whose players press twice and then stop
  mid-load; its flag falls at the ``next_flag_at_ms`` of the last answer. Reported: the delay of the flag's
  record (the event's ``entered_at`` after its ``at_ms``, read from the database) and of its push's arrival;
- **database sessions** of the bench database (``pg_stat_activity``) every 2 s, and the daphne processes' CPU
  over the round per move served (their background work, the beat and the sweeps, included);
- **the client itself**: its CPU (``time.process_time``) over the round's time, and how late its presses left
  against their schedule. A round whose client used over 85 % of a core, or sent over 5 % of its presses more
  than 250 ms late, is marked saturated and gives no ratio (it measured the client, not the server).

Figures across rounds: the median with min-max; ratios (corr's push p99 over the floor's) of each corr round
over the floor round just before it. Environment: ``BENCH_LIVE_DATABASE`` (``corr_bench_live_load``, dropped
and created), ``BENCH_PG_HOST``/``BENCH_PG_PORT``/``BENCH_PG_USER``, ``BENCH_REDIS_URL`` (its database is
flushed before each round), ``BENCH_LIVE_PORT`` and ``BENCH_FLOOR_PORT`` (the servers' ports; free ones when
unset). Writes ``bench/results.json``'s ``live_load`` (unless ``--no-write``) and prints a summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import (PY, REDIS, ROOT, database_url, free_port, percentile, recreate_database,  # noqa: E402
                    service_env, spread, wait_for_port)

DATABASE = os.environ.get("BENCH_LIVE_DATABASE", "corr_bench_live_load")
DAPHNE_NAME, WORKER_NAME = "corr-bench-live-daphne", "corr-bench-live-worker"
BIN = Path(PY).parent
BLITZ = {"unit": "seconds", "system": "fischer", "initial": 300, "increment": 3}
ABANDONED_S = 30
PRESS_EVERY_S = (4.0, 19.0)
CLIENT_CPU_MAX = 0.85
LATE_MS, LATE_SHARE = 250, 0.05
TIMEOUT_S = 30
ORIGIN = "http://127.0.0.1"
TARGETS = {"move_p99_ms": 150, "push_p99_ratio": 3.0, "flag_recorded_p99_ms": 500}


# --- inside Django (subprocesses on the bench database) -------------------------------------------

def setup_people(games: int) -> None:
    """An arbiter and two players a game, each player signed in (a session cookie); printed as JSON."""
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password
    from django.test import Client

    from accounts.models import User
    from corr.games import services

    arbiter = User.objects.create_user("bench-arbiter", "", "bench-pass-1")
    services.arbiter_grant(user=arbiter)
    unusable = make_password(None)  # no hashing per player: they sign in by session only
    User.objects.bulk_create([User(username=f"bench-{g}-{side}", password=unusable)
                              for g in range(games) for side in ("white", "black")])
    client, cookies = Client(), {}
    for user in User.objects.filter(username__startswith="bench-").exclude(pk=arbiter.pk):
        client.force_login(user)
        cookies[user.username] = f"sessionid={client.cookies['sessionid'].value}"
        client.cookies.clear()
    print(json.dumps(cookies))


def setup_games(games: int, abandoned: int, round_no: int) -> None:
    """``games`` live games (the last ``abandoned`` of them 30+0, the others 300+3) that start once the servers are
    up and every socket is open (``START_LEAD_S``); their ids and their start, as JSON."""
    import django

    django.setup()
    from accounts.models import User
    from corr.games import services
    from corr.live import services as live

    arbiter = User.objects.get(username="bench-arbiter")
    today = datetime.now(UTC).date()
    blitz, short = (services.tournament_create(
        by=arbiter, name=f"Bench live {round_no} {name}", official_start=today, mode="live",
        ruleset={"time_control": control}) for name, control in (
            ("blitz", BLITZ), ("abandoned", {**BLITZ, "initial": ABANDONED_S, "increment": 0})))
    users = {u.username: u for u in User.objects.filter(username__startswith="bench-")}
    now_ms = time.time_ns() // 1_000_000
    starts_at_ms = now_ms + start_lead_s(games) * 1000
    ids = []
    for g in range(games):
        ids.append(live.live_game_create(by=arbiter, tournament=short if g >= games - abandoned else blitz,
                                         white=users[f"bench-{g}-white"], black=users[f"bench-{g}-black"],
                                         starts_at_ms=starts_at_ms, now_ms=now_ms).pk)
    print(json.dumps({"ids": ids, "starts_at_ms": starts_at_ms}))


def start_lead_s(games: int) -> int:
    """Seconds from the games' creation to their start: the servers start, then every socket connects (a 30 s
    game whose clock ran while 1,000 sockets connected would flag before its first press). 1,000 games' 2,000
    sockets connected in 7-10 s on the quiet 2-core machine (2026-12-05): the lead is 60 s at 1,000 games."""
    return 20 + games // 25


def django_step(*args: str) -> object:
    env = service_env({"DATABASE_URL": database_url(DATABASE), "DJANGO_SETTINGS_MODULE": "corr.settings",
                       "REDIS_URL": REDIS, "PYTHONPATH": str(ROOT)})
    done = subprocess.run([PY, __file__, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{args} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the servers ----------------------------------------------------------------------------------

def start(mode: str, workdir: Path, servers: int) -> tuple[list[subprocess.Popen], list[int]]:
    """``servers`` daphne processes (the first on ``BENCH_LIVE_PORT``/``BENCH_FLOOR_PORT`` when set), and for corr
    a Celery worker with its beat; their processes (the daphnes first) and the daphnes' ports."""
    first = os.environ.get("BENCH_LIVE_PORT" if mode == "corr" else "BENCH_FLOOR_PORT")
    ports = [int(first) + n if first else free_port() for n in range(servers)]
    base = {"REDIS_URL": REDIS, "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "corr.settings"}
    app = "corr.asgi:application" if mode == "corr" else "bench.live_floor:application"
    processes = [subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), app], cwd=ROOT,
        env=service_env({**base, "DATABASE_URL": f"{database_url(DATABASE)}?application_name={DAPHNE_NAME}"}),
        stdout=subprocess.DEVNULL, stderr=(workdir / f"daphne-{mode}.log").open("a")) for port in ports]
    if mode == "corr":
        processes.append(subprocess.Popen(
            [str(BIN / "celery"), "-A", "corr", "worker", "-B", f"--schedule={workdir / 'beat'}", "--concurrency=1",
             "--loglevel=warning", f"--logfile={workdir / 'worker.log'}", "--without-gossip", "--without-mingle",
             "--without-heartbeat", f"--hostname=bench-live-{os.getpid()}@%h"], cwd=ROOT,
            env=service_env({**base, "DATABASE_URL": f"{database_url(DATABASE)}?application_name={WORKER_NAME}"}),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    for port in ports:
        wait_for_port(port, 60)
    return processes, ports


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the client -------------------------------------------------------------------------------------

class Socket:
    """One player's socket: answers to its moves by id, and the instant each payload version arrived."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.answers: dict[str, asyncio.Future] = {}
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.payload_bytes = 0
        self.closed = False

    async def read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                message = json.loads(text)
                if message.get("type") == "move":
                    waiter = self.answers.pop(str(message.get("id")), None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result((now, message))
                    continue
                self.payload_bytes = max(self.payload_bytes, len(text))
                self.arrived.setdefault(message.get("version", 0), now)
                self.changed.set()
        except Exception:  # noqa: BLE001 - a closed socket: its waiters fail below
            pass
        finally:
            self.closed = True
            self.changed.set()

    async def pushed(self, version: int, timeout: float) -> float | None:
        """The instant the payload of ``version`` (or a later one) arrived; None after ``timeout``."""
        deadline = time.perf_counter() + timeout
        while True:
            seen = [at for v, at in self.arrived.items() if v >= version]
            if seen:
                return min(seen)
            if self.closed or time.perf_counter() > deadline:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=max(0.01, deadline - time.perf_counter()))
            except TimeoutError:
                pass


class Tally:
    def __init__(self) -> None:
        self.move_ms: list[float] = []
        self.push_ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.scheduled = 0
        self.late = 0
        self.flag_instants: dict[int, tuple[int, int]] = {}
        """Per abandoned game: its flag's instant (ms since the epoch) and the version of the last answer."""

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def play(game_id: int, sockets: dict, abandoned: bool, end: float, rng: random.Random, tally: Tally) -> None:
    """Press for the side to move on schedule until ``end``; an abandoned game presses twice, then stops."""
    side, number, presses, k = "white", {"white": 1, "black": 1}, 0, 0
    first_s = rng.uniform(1, 3) if abandoned else rng.uniform(0, sum(PRESS_EVERY_S) / 2)  # within one mean interval
    next_at = time.perf_counter() + first_s
    while next_at < end and not (abandoned and presses >= 2):
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        tally.scheduled += 1
        tally.late += (time.perf_counter() - next_at) * 1000 > LATE_MS
        mine, partner = sockets[side], sockets["black" if side == "white" else "white"]
        k += 1
        key = f"{game_id}-{k}"
        waiter = asyncio.get_running_loop().create_future()
        mine.answers[key] = waiter
        sent = time.perf_counter()
        try:
            await mine.ws.send(json.dumps({"type": "move", "id": key, "number": number[side], "notation": ""}))
            answered, answer = await asyncio.wait_for(waiter, timeout=TIMEOUT_S)
        except Exception as failed:  # noqa: BLE001 - counted, the press is tried again at the next instant
            tally.error(type(failed).__name__)
            next_at = time.perf_counter() + rng.uniform(*PRESS_EVERY_S)
            continue
        if answer.get("status") != 201:
            tally.error(f"status {answer.get('status')}: {answer.get('detail', '')[:60]}")
            next_at = time.perf_counter() + rng.uniform(*PRESS_EVERY_S)
            continue
        tally.move_ms.append((answered - sent) * 1000)
        live = answer["live"]
        arrived = await partner.pushed(live["version"], TIMEOUT_S)
        if arrived is None:
            tally.error("push lost")
        else:
            tally.push_ms.append((arrived - sent) * 1000)
        number[side] += 1
        presses += 1
        side = "black" if side == "white" else "white"
        if abandoned and live.get("next_flag_at_ms"):
            tally.flag_instants[game_id] = (live["next_flag_at_ms"], live["version"])
        next_at += rng.uniform(1, 3) if abandoned else rng.uniform(*PRESS_EVERY_S)


async def connect(port: int, game_id: int, cookie: str, gate: asyncio.Semaphore) -> Socket:
    import websockets

    async with gate:
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/live/", open_timeout=60,
                                      additional_headers={"Origin": ORIGIN, "Cookie": cookie}, max_queue=None)
        sock = Socket(ws)
        first = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
        sock.arrived[first.get("version", 0)] = time.perf_counter()
        sock.payload_bytes = len(json.dumps(first))
    return sock


def pct(values: list[float], p: float) -> float | None:
    """The ``p`` th percentile of ``values`` to 0.1, None when there are none (JSON has no NaN)."""
    return round(percentile(values, p), 1) if values else None


def sessions(probe) -> int:
    return probe.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DATABASE]).fetchone()[0]


async def load(mode: str, ports: list[int], ids: list[int], abandoned: int, cookies: dict, seconds: float,
               probe, daphne_pids: list[int], starts_at_ms: int | None = None) -> dict:
    tally, gate = Tally(), asyncio.Semaphore(50)
    connect_started = time.perf_counter()
    # A game's two sockets on one server (the floor counts a game's versions in its process's memory), the games
    # spread over the servers in turn.
    pairs = await asyncio.gather(*(asyncio.gather(
        connect(ports[g % len(ports)], gid, cookies[f"bench-{g}-white"], gate),
        connect(ports[g % len(ports)], gid, cookies[f"bench-{g}-black"], gate)) for g, gid in enumerate(ids)))
    connect_s = time.perf_counter() - connect_started
    late_start_s = 0.0
    if starts_at_ms is not None:  # the games' clocks start then: the load too
        late_start_s = max(0.0, time.time() - starts_at_ms / 1000)
        await asyncio.sleep(max(0.0, starts_at_ms / 1000 - time.time()))
    games = [{"white": w, "black": b} for w, b in pairs]
    readers = [asyncio.create_task(s.read()) for game in games for s in game.values()]
    samples: list[int] = []
    cpu0, wall0, daphne0 = time.process_time(), time.perf_counter(), sum(map(cpu_seconds, daphne_pids))
    end = wall0 + seconds
    rng = random.Random(len(ids))
    players = [asyncio.create_task(play(gid, games[g], g >= len(ids) - abandoned, end, random.Random(rng.random()),
                                        tally)) for g, gid in enumerate(ids)]
    while time.perf_counter() < end:
        if probe is not None:
            samples.append(await asyncio.to_thread(sessions, probe))
        await asyncio.sleep(2)
    await asyncio.gather(*players)
    wall = time.perf_counter() - wall0
    client_cpu = (time.process_time() - cpu0) / wall
    daphne_cpu = sum(map(cpu_seconds, daphne_pids)) - daphne0
    flag_pushed_ms = []
    if mode == "corr":
        # The abandoned games' flags: the push after the last answer is the flag's record (a result, or a case for
        # the arbiter when the position is not read, as with these blank notations). Waited for up to 15 s after
        # the flag's instant; its arrival on the perf_counter taken to the wall clock the server stamps with.
        wall_minus_perf = time.time() - time.perf_counter()
        for g, gid in enumerate(ids):
            if gid not in tally.flag_instants:
                continue
            instant_ms, version = tally.flag_instants[gid]
            wait_s = max(0.0, instant_ms / 1000 + 15 - time.time())
            arrived = await games[g]["white"].pushed(version + 1, wait_s)
            if arrived is None:
                tally.error("flag not pushed")
            else:
                flag_pushed_ms.append((arrived + wall_minus_perf) * 1000 - instant_ms)
    for game in games:
        for s in game.values():
            await s.ws.close()
    for reader in readers:
        reader.cancel()
    moves = len(tally.move_ms)
    late_share = tally.late / tally.scheduled if tally.scheduled else 0.0
    return {"mode": mode, "games": len(ids), "sockets": 2 * len(ids), "connect_s": round(connect_s, 1),
            "late_start_s": round(late_start_s, 1),
            "seconds": round(wall, 1), "offered_per_s": round(tally.scheduled / wall, 2),
            "served_per_s": round(moves / wall, 2), "moves": moves, "errors": tally.errors,
            "move_p50_ms": pct(tally.move_ms, 50), "move_p99_ms": pct(tally.move_ms, 99),
            "push_p50_ms": pct(tally.push_ms, 50), "push_p99_ms": pct(tally.push_ms, 99),
            "flags_pushed_ms": sorted(round(v) for v in flag_pushed_ms),
            "db_sessions": {"min": min(samples, default=None), "max": max(samples, default=None),
                            "samples": samples},
            "server_cpu_ms_per_move": round(daphne_cpu * 1000 / moves, 1) if moves else None,
            "client_cpu": round(client_cpu, 3), "late_share": round(late_share, 4),
            "payload_bytes": max((s.payload_bytes for game in games for s in game.values()), default=0),
            "saturated": client_cpu > CLIENT_CPU_MAX or late_share > LATE_SHARE}


def flags_recorded(probe, ids: list[int]) -> list[float]:
    """Per flag of these games: how long after its instant it was recorded (``entered_at`` - ``at_ms``), in ms."""
    rows = probe.execute("SELECT at_ms, entered_at FROM corr_liveevent WHERE kind = 'flag' AND game_id = ANY(%s)",
                         [ids]).fetchall()
    return sorted(round(entered.timestamp() * 1000 - at_ms) for at_ms, entered in rows)


def run_round(mode: str, games: int, seconds: float, cookies: dict, round_no: int, workdir: Path,
              servers: int) -> dict:
    import psycopg
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    abandoned = max(2, games // 20)
    made = django_step("--setup-games", str(games), str(abandoned), str(round_no)) if mode == "corr" \
        else {"ids": list(range(1, games + 1)), "starts_at_ms": None}
    ids = made["ids"]
    processes, ports = start(mode, workdir, servers)
    probe = psycopg.connect(f"{database_url(DATABASE)}?application_name=corr-bench-live-probe", autocommit=True)
    try:
        result = asyncio.run(load(mode, ports, ids, abandoned if mode == "corr" else 0, cookies, seconds,
                                  probe if mode == "corr" else None, [p.pid for p in processes[:servers]],
                                  made["starts_at_ms"]))
        if mode == "corr":
            result["flags_recorded_ms"] = flags_recorded(probe, ids[len(ids) - abandoned:])
            result["abandoned"] = abandoned
    finally:
        stop(processes)
        probe.close()
    result["round"], result["servers"] = round_no, servers
    return result


# --- the summary ------------------------------------------------------------------------------------

def spread_of(values: list) -> dict | None:
    """``common.spread`` of the values measured (None: a round without one), to 2 decimals; None if none was."""
    values = [v for v in values if v is not None]
    return spread(values, 2) if values else None


def text(s: dict | None, unit: str = "") -> str:
    if s is None:
        return "-"
    return f"{s['median']:g}{unit} ({s['min']:g}-{s['max']:g})"


def summarise(rounds: list[dict]) -> dict:
    if not all(any(r["mode"] == mode for r in rounds) for mode in ("corr", "floor")):
        return {"games": rounds[0]["games"], "rounds": len(rounds), "only": rounds[0]["mode"]}
    corr = [r for r in rounds if r["mode"] == "corr"]
    floor = [r for r in rounds if r["mode"] == "floor"]
    ratios = []
    for r in corr:  # over the floor round just before it
        before = [f for f in floor if f["round"] < r["round"]]
        if before and not r["saturated"] and not before[-1]["saturated"]:
            if r["push_p99_ms"] and before[-1]["push_p99_ms"]:
                ratios.append(r["push_p99_ms"] / before[-1]["push_p99_ms"])
    flags = [max(r["flags_recorded_ms"], default=None) for r in corr]
    out = {"games": corr[0]["games"] if corr else None, "rounds": len(corr)}
    for mode, mine in (("corr", corr), ("floor", floor)):
        out[mode] = {key: spread_of([r[key] for r in mine]) for key in (
            "offered_per_s", "served_per_s", "move_p50_ms", "move_p99_ms", "push_p50_ms", "push_p99_ms",
            "client_cpu", "server_cpu_ms_per_move")}
        out[mode]["errors"] = sum(sum(r["errors"].values()) for r in mine)
        out[mode]["saturated_rounds"] = sum(1 for r in mine if r["saturated"])
    out["corr"]["db_sessions_max"] = spread_of([r["db_sessions"]["max"] for r in corr])
    out["corr"]["flag_recorded_p99_ms"] = spread_of([pct(r["flags_recorded_ms"], 99) for r in corr])
    out["corr"]["flag_recorded_max_ms"] = spread_of(flags)
    out["corr"]["flag_pushed_p99_ms"] = spread_of([pct(r["flags_pushed_ms"], 99) for r in corr])
    out["push_p99_ratio"] = spread_of(ratios)
    c = out["corr"]
    out["targets"] = {
        "every press served": c["errors"] == 0 and all(r["moves"] >= r["offered_per_s"] * r["seconds"] - r["games"]
                                                       for r in corr),
        f"move p99 <= {TARGETS['move_p99_ms']} ms": bool(c["move_p99_ms"])
        and c["move_p99_ms"]["max"] <= TARGETS["move_p99_ms"],
        f"push p99 <= {TARGETS['push_p99_ratio']} x floor": bool(ratios)
        and out["push_p99_ratio"]["max"] <= TARGETS["push_p99_ratio"],
        f"flags recorded p99 <= {TARGETS['flag_recorded_p99_ms']} ms": bool(c["flag_recorded_p99_ms"])
        and c["flag_recorded_p99_ms"]["max"] <= TARGETS["flag_recorded_p99_ms"],
    }
    return out


def report(summary: dict) -> None:
    if "only" in summary:
        return
    c, f = summary["corr"], summary["floor"]
    print(f"\n{summary['games']} games ({2 * summary['games']} sockets), {summary['rounds']} rounds of each,"
          " median (min-max):")
    print(f"  presses/s offered {text(c['offered_per_s'])}, served {text(c['served_per_s'])} (floor"
          f" {text(f['served_per_s'])}); errors {c['errors']} (floor {f['errors']})")
    print(f"  move p50 {text(c['move_p50_ms'], ' ms')} p99 {text(c['move_p99_ms'], ' ms')}; floor p50"
          f" {text(f['move_p50_ms'], ' ms')} p99 {text(f['move_p99_ms'], ' ms')}")
    print(f"  push p50 {text(c['push_p50_ms'], ' ms')} p99 {text(c['push_p99_ms'], ' ms')}; floor p50"
          f" {text(f['push_p50_ms'], ' ms')} p99 {text(f['push_p99_ms'], ' ms')}; ratio of p99"
          f" {text(summary['push_p99_ratio'], ' x')}")
    print(f"  flags recorded after their instant p99 {text(c['flag_recorded_p99_ms'], ' ms')}, pushed p99"
          f" {text(c['flag_pushed_p99_ms'], ' ms')}; database sessions max {text(c['db_sessions_max'])}")
    print(f"  daphne CPU per move {text(c['server_cpu_ms_per_move'], ' ms')} (floor"
          f" {text(f['server_cpu_ms_per_move'], ' ms')}); client CPU {text(c['client_cpu'])} of a core"
          f" (floor rounds {text(f['client_cpu'])}); saturated rounds {c['saturated_rounds']} (floor"
          f" {f['saturated_rounds']})")
    targets = summary["targets"].items()
    print("  targets: " + "; ".join(f"{name}: {'met' if met else 'NOT met'}" for name, met in targets))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="10,100,500", help="comma-separated sizes")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each mode per size, alternated")
    parser.add_argument("--seconds", type=float, default=60, help="length of a round of load")
    parser.add_argument("--quick", action="store_true", help="the CI smoke run: 10 games, one 40 s round each")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/results.json")
    parser.add_argument("--only", choices=("corr", "floor"), help="exploration: one mode only (no ratio)")
    parser.add_argument("--servers", type=int, default=2,
                        help="daphne processes of each mode (one a core on the 2-core CI machine)")
    parser.add_argument("--setup-games", nargs=3, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--setup-people", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.setup_people is not None:
        return setup_people(args.setup_people)
    if args.setup_games is not None:
        return setup_games(*args.setup_games)
    sizes = [10] if args.quick else [int(n) for n in args.games.split(",")]
    rounds, seconds = (1, 40.0) if args.quick else (args.rounds, args.seconds)
    workdir = Path(os.environ.get("BENCH_WORKDIR") or ROOT / "build" / "bench-live")
    workdir.mkdir(parents=True, exist_ok=True)
    results = []
    for games in sizes:
        recreate_database(DATABASE)
        cookies = django_step("--setup-people", str(games))
        done = []
        for round_no in range(1, 2 * rounds + 1):
            mode = "floor" if round_no % 2 else "corr"
            if args.only and mode != args.only:
                continue
            done.append(run_round(mode, games, seconds, cookies, round_no, workdir, args.servers))
            r = done[-1]
            print(f"{games} games, round {round_no} {mode}: {r['served_per_s']}/s served of {r['offered_per_s']},"
                  f" move p50/p99 {r['move_p50_ms']}/{r['move_p99_ms']} ms, push {r['push_p50_ms']}/{r['push_p99_ms']}"
                  f" ms, errors {r['errors']}, client CPU {r['client_cpu']}"
                  + (", SATURATED" if r["saturated"] else "")
                  + (f", flags recorded {r['flags_recorded_ms']} ms after" if mode == "corr" else ""), flush=True)
        summary = summarise(done)
        report(summary)
        results.append({"summary": summary, "rounds": done, "at": datetime.now(UTC).isoformat(timespec="seconds")})
    out = {"date": datetime.now(UTC).date().isoformat(), "at": datetime.now(UTC).isoformat(timespec="seconds"),
           "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
           "mode": "quick" if args.quick else "full", "seconds": seconds, "servers": args.servers, "sizes": results}
    if not args.no_write:
        path = HERE / "results.json"
        stored = json.loads(path.read_text()) if path.exists() else {}
        key = "live_load" if not args.quick else "live_load_quick"
        kept = stored.get(key, {})
        if kept.get("servers") == out["servers"] and kept.get("seconds") == out["seconds"]:
            # A run of other sizes keeps the rows of the sizes it did not run (each size a run of its own: a
            # 2,000-game run need not repeat 500); a size run again replaces its row.
            ran = {size["summary"]["games"] for size in results}
            out["sizes"] = [size for size in kept.get("sizes", []) if size["summary"]["games"] not in ran] + results
            out["sizes"].sort(key=lambda size: size["summary"]["games"] or 0)
        stored[key] = out
        path.write_text(json.dumps(stored, indent=2) + "\n")
    print(json.dumps({"live_load": [s["summary"] for s in results]}))


if __name__ == "__main__":
    main()
