"""Live flags with no client connected: how late after its instant a flag is recorded, and how many live
games one worker keeps (issue 16).

Run by ``bench/run.py`` (``section``) against a fresh PostgreSQL database, with a real Celery worker
(1 process, beat embedded for the sweep) on ``BENCH_REDIS_URL``. Prints one JSON line:

- ``scheduled_ms``: for games whose flags fall at staggered instants, recorded instant minus the instant
  the flag fell, found by the ``eta`` task scheduled at creation (target <= 100 ms);
- ``floor_ms``: the same lateness of a no-op ``eta`` task (the worker's timer and the broker alone);
- ``sweep_ms``: the same when every scheduled check is lost (never queued): the beat's sweep finds the
  flags (target: within ``LIVE_SWEEP_SECONDS``);
- ``burst``: ``games`` flags falling at one instant: the time to record them all, hence flags per second
  one worker process records, and the no-op tasks per second of the same worker (the floor);
- ``loaded_ms`` (issue 27): the lateness of the flags of ``--long`` games of over 100 events each
  (``--long-presses`` presses made first), while other games keep being pressed about 20 times a second by a
  thread of this process, which takes moves as a web server does (its beat thread keeps the timers).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import REDIS, ROOT, service_env  # noqa: E402

MS = 1000


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_worker(log: Path) -> subprocess.Popen:
    env = service_env({"DATABASE_URL": os.environ["DATABASE_URL"], "REDIS_URL": REDIS,
                       "PYTHONPATH": str(HERE), "LIVE_SWEEP_SECONDS": os.environ.get("LIVE_SWEEP_SECONDS", "5")})
    celery = str(Path(sys.executable).parent / "celery")
    worker = subprocess.Popen([celery, "-A", "corr", "worker", "-B", f"--schedule={log.parent / 'beat'}",
                               "--concurrency=1", "--include=live_floor_tasks", "--loglevel=info",
                               f"--logfile={log}", "--without-gossip", "--without-mingle", "--without-heartbeat",
                               "--hostname=bench-live@%h"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (log.exists() and " ready." in log.read_text()):
        time.sleep(0.1)
    return worker


def setup_players():
    from accounts.models import User
    from corr.games import services

    arbiter = User.objects.create_user("bench-arbiter", "", "bench-pass-1")
    services.arbiter_grant(user=arbiter)
    white = User.objects.create_user("bench-white", "", "bench-pass-1")
    black = User.objects.create_user("bench-black", "", "bench-pass-1")
    return arbiter, white, black


def tournament(arbiter, seconds: float, name: str):
    from datetime import date

    from corr.games import services

    return services.tournament_create(by=arbiter, name=name, official_start=date(2026, 1, 1), mode="live",
                                      ruleset={"time_control": {"unit": "seconds", "system": "periods",
                                                                "stages": [{"moves": None, "time": seconds}]}})


def create_games(arbiter, white, black, t, starts: list[int]) -> list[int]:
    from corr.live.services import live_game_create

    return [live_game_create(by=arbiter, tournament=t, white=white, black=black, starts_at_ms=s,
                             now_ms=now_ms()).pk for s in starts]


def lateness_ms(ids: list[int], timeout_s: float) -> list[int]:
    """Recorded instant minus fall instant of each game's flag (waits for them all)."""
    from corr.models import LiveEvent

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        flags = list(LiveEvent.objects.filter(game_id__in=ids, kind="flag").values_list("at_ms", "entered_at"))
        if len(flags) == len(ids):
            return [round(entered.timestamp() * MS) - at for at, entered in flags]
        time.sleep(0.2)
    raise RuntimeError(f"only {len(flags)} of {len(ids)} flags recorded in {timeout_s} s")


def press_long_games(arbiter, white, black, count: int, presses: int) -> list[int]:
    """``count`` games of sudden death in 40 s, each pressed ``presses`` times at once (about 8 ms a press): their
    flags fall about 40 s after the start, at instants as staggered as their presses were."""
    from corr.live.services import live_move

    t = tournament(arbiter, 40.0, "bench long games")
    start = now_ms() + 500
    ids = create_games(arbiter, white, black, t, [start] * count)
    time.sleep(max(0.0, (start - now_ms()) / MS) + 0.05)
    for game_id in ids:
        for press in range(presses):
            live_move(game_id=game_id, by=white if press % 2 == 0 else black, number=press // 2 + 1)
    return ids


class Traffic:
    """Presses in ``count`` games of an hour's sudden death, about ``per_s`` a second, on a thread until stopped."""

    def __init__(self, arbiter, white, black, count: int, per_s: float) -> None:
        import threading

        t = tournament(arbiter, 3600.0, "bench traffic")
        start = now_ms() + 200
        self.ids = create_games(arbiter, white, black, t, [start] * count)
        self.players, self.per_s, self.presses = (white, black), per_s, 0
        self.stopping = threading.Event()
        time.sleep(0.3)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        self.started = time.monotonic()

    def run(self) -> None:
        from django.db import connection

        from corr.live.services import live_move

        made = dict.fromkeys(self.ids, 0)
        try:
            while not self.stopping.wait(1 / self.per_s):
                game_id = self.ids[self.presses % len(self.ids)]
                n = made[game_id]
                live_move(game_id=game_id, by=self.players[n % 2], number=n // 2 + 1)
                made[game_id] += 1
                self.presses += 1
        finally:
            connection.close()

    def stop(self) -> float:
        """Stop pressing; the presses a second it made."""
        self.stopping.set()
        self.thread.join()
        return self.presses / (time.monotonic() - self.started)


def floor_lateness(count: int, spacing_ms: int) -> list[int]:
    import redis

    from live_floor_tasks import KEY, eta_lateness

    client = redis.Redis.from_url(REDIS)
    client.delete(KEY)
    first = now_ms() + 1500
    for i in range(count):
        due = first + i * spacing_ms
        eta_lateness.apply_async(args=(REDIS, due), eta=datetime.fromtimestamp(due / MS, tz=UTC))
    deadline = time.monotonic() + 30 + count * spacing_ms / MS
    while client.llen(KEY) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return [int(v) for v in client.lrange(KEY, 0, -1)]


def noop_rate(count: int) -> float:
    """No-op tasks per second through the same worker, all due at once (the floor of the burst)."""
    import redis

    from live_floor_tasks import KEY, eta_lateness

    client = redis.Redis.from_url(REDIS)
    client.delete(KEY)
    due = now_ms() + 2000
    for _ in range(count):
        eta_lateness.apply_async(args=(REDIS, due), eta=datetime.fromtimestamp(due / MS, tz=UTC))
    while client.llen(KEY) < count:
        time.sleep(0.02)
    return count / (max(int(v) for v in client.lrange(KEY, 0, -1)) / MS)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200, help="flags falling at one instant (the burst)")
    parser.add_argument("--staggered", type=int, default=40, help="flags at distinct instants (the latency)")
    parser.add_argument("--long", type=int, default=10, help="games of over 100 events whose flags fall under load")
    parser.add_argument("--long-presses", type=int, default=110, help="presses of each long game before its flag")
    args = parser.parse_args()
    os.environ["REDIS_URL"] = REDIS  # tasks go to the worker, not run eagerly
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
    import django

    django.setup()
    import redis
    from django.conf import settings

    from corr.celery import app
    from corr.live import schedule

    assert not app.conf.task_always_eager
    redis.Redis.from_url(REDIS).flushdb()
    log = Path(tempfile.mkdtemp()) / "worker.log"
    worker = start_worker(log)
    try:
        arbiter, white, black = setup_players()
        result = {"sweep_seconds": settings.LIVE_SWEEP_SECONDS}
        floor = floor_lateness(args.staggered, 250)
        result["floor_ms"] = {"median": statistics.median(floor), "p95": percentile(floor, 0.95), "max": max(floor)}

        # Scheduled checks: one game's flag every 250 ms, from 3 s after the games are created.
        t = tournament(arbiter, 2.0, "bench scheduled")
        base = now_ms() + 1000
        ids = create_games(arbiter, white, black, t, [base + i * 250 for i in range(args.staggered)])
        late = lateness_ms(ids, 60)
        result["scheduled_ms"] = {"median": statistics.median(late), "p95": percentile(late, 0.95),
                                  "max": max(late), "n": len(late)}

        # Lost checks: nothing is queued at creation; the beat's sweep must find them.
        queue = schedule.check_at
        schedule.check_at = lambda **kwargs: None
        t = tournament(arbiter, 2.0, "bench sweep")
        base = now_ms() + 1000
        ids = create_games(arbiter, white, black, t, [base + i * 250 for i in range(20)])
        schedule.check_at = queue
        late = lateness_ms(ids, 60 + 2 * settings.LIVE_SWEEP_SECONDS)
        result["sweep_ms"] = {"median": statistics.median(late), "p95": percentile(late, 0.95), "max": max(late),
                              "n": len(late)}

        # A burst: every flag at one instant; how fast one worker process records them.
        t = tournament(arbiter, 2.0, "bench burst")
        at = now_ms() + 3000 + args.games * 40  # after the last game is created
        ids = create_games(arbiter, white, black, t, [at] * args.games)
        late = lateness_ms(ids, 120)
        drain_s = max(late) / MS
        result["burst"] = {"games": args.games, "drain_seconds": drain_s, "flags_per_second": args.games / drain_s,
                           "noop_tasks_per_second": noop_rate(args.games),
                           "within_100ms": sum(1 for v in late if v <= 100)}

        # Long games under load: 100+ events each, their flags falling while other games are pressed. This process
        # now takes moves as a web server does: it beats, and its beat thread keeps the flags' timers (the worker's
        # checks judge a game only up to the last beat of such a process: docs/reliability.md).
        from corr.live.beat import beating_start

        beating_start()
        traffic = Traffic(arbiter, white, black, 10, 20.0)
        try:
            ids = press_long_games(arbiter, white, black, args.long, args.long_presses)
            late = lateness_ms(ids, 120)
        finally:
            per_s = traffic.stop()
        from corr.models import LiveEvent

        events = min(LiveEvent.objects.filter(game_id=g).count() for g in ids)
        result["loaded_ms"] = {"median": statistics.median(late), "p95": percentile(late, 0.95), "max": max(late),
                               "n": len(late), "events_min": events, "traffic_presses_per_s": round(per_s, 1)}
        print(json.dumps(result))
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()


if __name__ == "__main__":
    main()
