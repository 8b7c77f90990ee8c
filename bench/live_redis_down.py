"""A live move's answer with Redis stopped, against the same move with Redis up (issue 23, item 3).

Run by ``bench/run.py`` (section "live") with ``DATABASE_URL`` naming a fresh PostgreSQL database.
The stack is production's: daphne serving ``corr.asgi`` on PostgreSQL, with a Redis server of this
bench's own (``BENCH_REDIS_DOWN_PORT``, default a free port) for the channel layer and the broker, so
that it can be stopped (SIGKILL: connections refused) and started again between rounds. No Celery
worker: the flag checks wait in Redis, which is what a move's answer does not depend on.

One client sends the moves one after another (a closed loop of one: latency, not throughput; the
client does not saturate, it waits on each answer), to ``games`` live games in turn, each move
answered 201. Rounds alternate up and down (up, down, …, up); each down round is compared with
the mean of the two up rounds beside it, and the ratio of p50s is quoted as the median with min–max.
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import ROOT, free_port, percentile, service_env, wait_for_port  # noqa: E402

MOVES_WHITE = ["e4", "Nf3", "Bc4", "Nc3", "d3", "O-O", "h3", "a3", "Be3", "Qd2"]
MOVES_BLACK = ["e5", "Nc6", "Bc5", "Nf6", "d6", "O-O", "h6", "a6", "Be6", "Qd7"]


def seed(games: int) -> list[dict]:
    """Users, tokens, a live tournament (one hour sudden death: no flag in the bench) and its games."""
    import django

    django.setup()
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services
    from corr.live.services import live_game_create

    arbiter = User.objects.create_user("bench-arbiter", "a@example.org", "bench-pass-1")
    services.arbiter_grant(user=arbiter)
    tournament = services.tournament_create(
        by=arbiter, name="Bench live", official_start=datetime.now(UTC).date(), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "periods", "stages": [{"moves": None, "time": 3600}]}})
    now_ms = time.time_ns() // 1_000_000
    out = []
    for i in range(games):
        white = User.objects.create_user(f"bench-w{i}", f"w{i}@example.org", "bench-pass-1")
        black = User.objects.create_user(f"bench-b{i}", f"b{i}@example.org", "bench-pass-1")
        game = live_game_create(by=arbiter, tournament=tournament, white=white, black=black,
                                starts_at_ms=now_ms - 1000, now_ms=now_ms)
        out.append({"id": game.pk, "tokens": {"white": Token.objects.create(user=white).key,
                                              "black": Token.objects.create(user=black).key}, "made": 0})
    return out


class Redis:
    def __init__(self, port: int, workdir: Path) -> None:
        self.port, self.workdir, self.process = port, workdir, None

    def start(self) -> None:
        self.process = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(self.port),
                                         "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                         "--dir", str(self.workdir)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for_port(self.port)

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=20)
        self.process = None


def round_latencies(base: str, games: list[dict], moves: int, session: requests.Session) -> list[float]:
    """``moves`` moves, one game after another; the milliseconds of each answer (all must be 201)."""
    out = []
    for _ in range(moves):
        game = min(games, key=lambda g: g["made"])  # the games in turn, across rounds
        made = game["made"]
        if made >= 2 * len(MOVES_WHITE):
            raise RuntimeError("the bench ran out of prepared moves: more games, or fewer moves per round")
        colour = "white" if made % 2 == 0 else "black"
        notation = (MOVES_WHITE if colour == "white" else MOVES_BLACK)[made // 2]
        started = time.perf_counter()
        answer = session.post(f"{base}/api/games/{game['id']}/moves/",
                              json={"number": made // 2 + 1, "notation": notation},
                              headers={"Authorization": f"Token {game['tokens'][colour]}"}, timeout=60)
        elapsed = (time.perf_counter() - started) * 1000
        if answer.status_code != 201:
            raise RuntimeError(f"move answered {answer.status_code}: {answer.text[:300]}")
        game["made"] += 1
        out.append(elapsed)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--moves", type=int, default=100, help="moves per round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, alternating up and down (odd)")
    args = parser.parse_args()
    if args.moves * args.rounds + 10 > args.games * 2 * len(MOVES_WHITE):
        raise SystemExit("not enough prepared moves: raise --games")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
    workdir = Path(tempfile.mkdtemp(prefix="corr-bench-redis-down-"))
    redis_port = int(os.environ.get("BENCH_REDIS_DOWN_PORT") or free_port())
    http_port = free_port()
    redis = Redis(redis_port, workdir)
    redis.start()
    env = service_env({"REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"})
    games = seed(args.games)
    log = (workdir / "daphne.log").open("w")
    daphne = subprocess.Popen([str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(http_port),
                               "corr.asgi:application"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=log, start_new_session=True)
    rounds: list[dict] = []
    try:
        wait_for_port(http_port)
        base = f"http://127.0.0.1:{http_port}"
        with requests.Session() as session:
            round_latencies(base, games, min(10, args.moves), session)  # warm-up: connections, imports
            for index in range(args.rounds):
                up = index % 2 == 0
                if up and redis.process is None:
                    redis.start()
                    time.sleep(1)  # the layer's and the broker's connections come back
                if not up and redis.process is not None:
                    redis.stop()
                latencies = round_latencies(base, games, args.moves, session)
                rounds.append({"redis": "up" if up else "down", "p50_ms": round(statistics.median(latencies), 2),
                               "p99_ms": round(percentile(latencies, 99), 2), "n": len(latencies)})
    finally:
        os.killpg(daphne.pid, signal.SIGTERM)
        daphne.wait(timeout=30)
        log.close()
        if redis.process is not None:
            redis.stop()
    ratios = []
    for index, r in enumerate(rounds):
        if r["redis"] == "down":
            beside = [rounds[j]["p50_ms"] for j in (index - 1, index + 1) if 0 <= j < len(rounds)]
            ratios.append(r["p50_ms"] / statistics.mean(beside))
    print(json.dumps({"rounds": rounds, "ratios": [round(x, 3) for x in ratios],
                      "ratio_median": round(statistics.median(ratios), 3), "ratio_min": round(min(ratios), 3),
                      "ratio_max": round(max(ratios), 3), "games": args.games, "moves_per_round": args.moves,
                      "clients": 1}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
