"""HTTP benchmarks through the real stack: gunicorn (2 x cores + 1 workers), PostgreSQL, loopback load.

Run by ``bench/run.py`` in its own process with ``DATABASE_URL`` naming a
fresh database migrated with ``bench.settings`` (corr plus the floor's table
and endpoint, ``bench/floorapp``). Every phase is bounded in time.

What is measured, and why it is honest:

* **Closed loop, 32 players**: each player drives its own server game (white
  and black in turn) as fast as the server answers; the floor endpoint, in the
  same gunicorn process, authenticates and inserts one row. Throughput is
  compared.
* **Open loop, a fixed rate below saturation**: requests are sent on a fixed
  schedule (half the move endpoint's closed-loop throughput, which both
  endpoints can serve) whatever the answers do, and each latency is counted
  from the request's scheduled time (so a stalled server is not hidden by
  fewer requests). p99 is compared there: with 32 closed-loop clients on 2
  workers the p99 ratio would be the throughput ratio in disguise.
* **Games in an ordinary state**: the tournament starts today, so no move
  oversteps a control (an overstepped game writes its case on every move).
* **Each comparison alternated**: the floor and the moves, and the short and
  the long game's reads, run in ``ROUNDS`` alternating rounds (ABBA), so the
  other work of a shared machine weighs on both sides alike. Each ratio is
  taken round by round (a side's round against the other side's round beside
  it) and quoted as the median with min-max; the figures are the rounds'
  medians (the pooled values are kept in the notes).
* **Clock reads on a cache hit and on a cache miss**: the hit phase reads
  through the per-process clock cache; the miss phase runs a second server
  whose cache keeps nothing (``BENCH_CLOCK_CACHE=off``), so every read
  computes the clock from the stored events.
* **Clock reads compared at a fixed rate, open loop**: a read's latency is
  what a reader waits, and it follows the read's cost only below saturation
  (with 32 closed-loop clients the p50 is the queue's length, set by the
  throughput of the whole machine). A short closed-loop probe of the long
  game finds the rate the server can serve; both games are then read, in
  alternating rounds, at ``OPEN_LOOP_SHARE`` of it, and p50 and p99 compared.
* **Workers**: gunicorn's documented starting point, ``2 x cores + 1`` sync
  workers, for every server of the bench, so the floor and the moves are
  served alike (a sync worker idles while its request waits for PostgreSQL).
* **Tasks as in production**: the servers publish their tasks to Redis (``BENCH_REDIS_URL``, its database
  flushed before and after), as production's gunicorn does; no worker consumes them during the bench. Without a
  broker the tasks ran eagerly, in the server's own process (the embedded run's way): each move's notice to the
  partner (issue 38) composed its e-mail on a thread of the gunicorn worker that served the move, and the bench
  measured that e-mail with the move (2026-12-05: 91 moves/s against 246 before the notices).
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

from common import (  # noqa: E402
    REDIS, ROOT, Row, free_port, knight_move, percentile, service_env, spread, wait_for_port,
)

CLIENTS = 32
WORKERS = int(os.environ.get("BENCH_HTTP_WORKERS") or 2 * (os.cpu_count() or 1) + 1)
"""gunicorn's documented recommendation, ``(2 x cores) + 1``, for the floor and the moves alike
(``BENCH_HTTP_WORKERS`` sets another number, to compare)."""
OPEN_LOOP_SHARE = 0.5
"""The open-loop rate, as a share of the move endpoint's closed-loop throughput (below saturation)."""
ISSUE_RATE = 89.0
"""Requests a second of issue 42's probe ("correspondence moves over HTTP at a fixed 89/s"): its p99 row is
measured at that rate too, so that the issue's figure and the bench's are taken alike whatever the
closed-loop throughput of the day (the half-throughput rate moves with every change to a move's cost)."""


def setup(read_moves: tuple[int, ...]) -> dict:
    import django

    django.setup()
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services

    today = timezone.localdate()
    arbiter = User.objects.create_superuser("bench-arbiter", "a@example.org", "x")
    # The tournament starts today: every move is an ordinary one, no control is overstepped.
    tournament = services.tournament_create(by=arbiter, name="Bench server league", official_start=today,
                                            mode="server")
    users = iter(User.objects.create_user(f"p{i}", f"p{i}@example.org", "x") for i in range(10_000))
    token: dict[int, str] = {}

    def game_new(moves: int = 0) -> dict:
        white, black = next(users), next(users)
        for u in (white, black):
            token[u.pk] = Token.objects.create(user=u).key
        game = services.game_create(by=arbiter, tournament=tournament, white=white, black=black, today=today)
        for n in range(1, moves + 1):
            services.move_submit(game=game, by=white, number=n, notation=knight_move("white", n), today=today)
            services.move_submit(game=game, by=black, number=n, notation=knight_move("black", n), today=today)
        return {"id": game.pk, "white": token[white.pk], "black": token[black.pk], "made": 2 * moves}

    closed = [game_new() for _ in range(CLIENTS)]
    opened = [game_new() for _ in range(CLIENTS)]
    readers = {moves: game_new(moves) for moves in read_moves}
    return {"closed": closed, "open": opened, "readers": readers}


def request(port: int, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.perf_counter() - started


ROUNDS = 4
"""Each comparison alternates its two sides in this many rounds (ABBA order): on a machine shared with other
work, a load that comes and goes falls on both sides alike instead of on whichever ran then."""


class Tally:
    """The answers of one side of a comparison, pooled over its rounds."""

    def __init__(self):
        self.latencies: list[float] = []
        self.errors: list[int] = []
        self.elapsed = 0.0
        self.lock = threading.Lock()

    def add(self, status: int, latency: float) -> None:
        with self.lock:
            if status in (200, 201):
                self.latencies.append(latency)
            else:
                self.errors.append(status)

    def summary(self) -> dict:
        return {"ok": len(self.latencies), "errors": len(self.errors), "error_codes": sorted(set(self.errors))[:5],
                "per_second": len(self.latencies) / self.elapsed, "p50_ms": percentile(self.latencies, 50) * 1000,
                "p99_ms": percentile(self.latencies, 99) * 1000}


def alternate(seconds: float, sides: dict) -> dict:
    """Run each side ``side(seconds_of_a_round, tally)`` in ``ROUNDS`` rounds, ABBA.

    Returns each side's summary pooled over its rounds, with ``"rounds"``: the summary of each round, in order,
    so that ``by_round`` can compare the sides round by round.
    """
    tallies: dict[str, list[Tally]] = {name: [] for name in sides}
    order = list(sides)
    for r in range(ROUNDS):
        for name in (order if r % 2 == 0 else order[::-1]):
            tally = Tally()
            sides[name](seconds / ROUNDS, tally)
            tallies[name].append(tally)
    result = {}
    for name, rounds in tallies.items():
        pooled = Tally()
        for tally in rounds:
            pooled.latencies += tally.latencies
            pooled.errors += tally.errors
            pooled.elapsed += tally.elapsed
        result[name] = pooled.summary() | {"rounds": [tally.summary() for tally in rounds]}
    return result


def by_round(a: dict, b: dict, key: str) -> dict:
    """``key`` of side ``a`` over side ``b``, round by round (each of a's rounds against b's round beside it,
    when both sides ran in one ``alternate``; the clock read's reference row pairs the rounds of two phases in
    their order, and has no target).

    Returns the median and the min and max of those ratios, and the medians of each side's ``key`` over its
    rounds (``a``, ``b``): the figures a row quotes.
    """
    ratios = [x[key] / y[key] for x, y in zip(a["rounds"], b["rounds"], strict=True)]
    return spread(ratios) | {"a": statistics.median(x[key] for x in a["rounds"]),
                             "b": statistics.median(y[key] for y in b["rounds"])}


def range_text(r: dict) -> str:
    return f"median of {ROUNDS} rounds' ratios, min {r['min']:.2f}, max {r['max']:.2f}"


def closed_loop(seconds: float, work, tally: Tally) -> None:
    """Run ``work(client)`` in CLIENTS threads for ``seconds``, each as fast as answers come."""
    stop = time.monotonic() + seconds

    def loop(client: int):
        while time.monotonic() < stop:
            tally.add(*work(client))

    started = time.perf_counter()
    threads = [threading.Thread(target=loop, args=(c,)) for c in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    tally.elapsed += time.perf_counter() - started


def open_loop(seconds: float, rate: float, work, tally: Tally, senders: int = 64) -> None:
    """Start ``work()`` ``rate`` times a second on a fixed schedule for ``seconds``, whatever the answers do.

    Each latency runs from the request's scheduled start to its answer, so a
    request that waited for a free sender (the server fell behind) counts its
    wait: no coordinated omission.
    """
    jobs: queue.Queue = queue.Queue()

    def sender():
        while True:
            scheduled = jobs.get()
            if scheduled is None:
                return
            status, _ = work()
            tally.add(status, time.perf_counter() - scheduled)

    threads = [threading.Thread(target=sender) for _ in range(senders)]
    for t in threads:
        t.start()
    started = time.perf_counter()
    count = int(seconds * rate)
    for k in range(count):
        scheduled = started + k / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        jobs.put(scheduled)
    for _ in threads:
        jobs.put(None)
    for t in threads:
        t.join()
    tally.elapsed += time.perf_counter() - started


def move_next(port: int, game: dict) -> tuple[int, float]:
    """Send the next move of ``game`` (white and black in turn) and count it when stored."""
    colour = "white" if game["made"] % 2 == 0 else "black"
    status, latency = request(port, "POST", f"/api/games/{game['id']}/moves/", game[colour],
                              {"number": game["made"] // 2 + 1, "notation": knight_move(colour, game["made"] // 2 + 1)})
    if status == 201:
        game["made"] += 1
    return status, latency


class MovePlayers:
    """The next move of each game, for open-loop senders: a game is handed to one request at a time."""

    def __init__(self, games: list[dict]):
        self.idle: queue.Queue = queue.Queue()
        for game in games:
            self.idle.put(game)

    def move(self, port: int) -> tuple[int, float]:
        game = self.idle.get()  # none idle: the server is behind; the wait counts in the latency
        try:
            return move_next(port, game)
        finally:
            self.idle.put(game)


@contextmanager
def server(extra_env: dict | None = None):
    import redis

    port = free_port()
    redis.Redis.from_url(REDIS).flushdb()  # the tasks of the servers before (never consumed)
    env = service_env({"REDIS_URL": REDIS, **(extra_env or {})})
    process = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "corr.wsgi", "--workers", str(WORKERS),
                                "--bind", f"127.0.0.1:{port}", "--log-level", "error", "--backlog", "256"],
                               cwd=ROOT, env=env)
    try:
        wait_for_port(port)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        redis.Redis.from_url(REDIS).flushdb()


def reads(port: int, seconds: float, readers: dict) -> tuple[dict, float, float]:
    """Open-loop reads of each game at one fixed rate, alternated in rounds (``alternate``).

    The rate is ``OPEN_LOOP_SHARE`` of the longest game's closed-loop
    throughput, probed first for one round's time: a rate both games can
    serve, so each latency is the read's cost and not a queue's. Returns the
    summaries, the rate and the probed throughput.
    """
    def get(r):
        return request(port, "GET", f"/api/games/{r['id']}/", r["white"])

    for reader in readers.values():
        for _ in range(2 * WORKERS):  # every worker computes (and, with the cache on, keeps) the clock first
            get(reader)
    probe = Tally()
    longest = readers[max(readers)]
    closed_loop(seconds / ROUNDS, lambda c: get(longest), probe)
    served = probe.summary()["per_second"]
    rate = max(1.0, round(OPEN_LOOP_SHARE * served))

    def side(r):
        return lambda s, tally: open_loop(s, rate, lambda: get(r), tally)

    return alternate(seconds, {n: side(r) for n, r in readers.items()}), rate, served


def main(seconds: float, read_moves: tuple[int, int]) -> list[Row]:
    data = setup(read_moves)
    closed, opened = data["closed"], data["open"]
    with server() as port:
        request(port, "POST", "/api/bench/floor/", closed[0]["white"])  # warm both workers' imports
        request(port, "GET", f"/api/games/{closed[0]['id']}/", closed[0]["white"])
        loop = alternate(seconds, {
            "floor": lambda s, t: closed_loop(s, lambda c: request(port, "POST", "/api/bench/floor/",
                                                                   closed[c]["white"]), t),
            "moves": lambda s, t: closed_loop(s, lambda c: move_next(port, closed[c]), t)})
        floor, moves = loop["floor"], loop["moves"]
        rate = max(1.0, round(OPEN_LOOP_SHARE * moves["per_second"]))
        players = MovePlayers(opened)
        fixed = alternate(seconds, {
            "floor": lambda s, t: open_loop(s, rate, lambda: request(port, "POST", "/api/bench/floor/",
                                                                     opened[0]["white"]), t),
            "moves": lambda s, t: open_loop(s, rate, lambda: players.move(port), t)})
        floor_open, moves_open = fixed["floor"], fixed["moves"]
        issue = alternate(seconds, {
            "floor": lambda s, t: open_loop(s, ISSUE_RATE, lambda: request(port, "POST", "/api/bench/floor/",
                                                                           opened[0]["white"]), t),
            "moves": lambda s, t: open_loop(s, ISSUE_RATE, lambda: players.move(port), t)})
        hit, hit_rate, hit_served = reads(port, seconds, data["readers"])
    with server({"BENCH_CLOCK_CACHE": "off"}) as port:
        miss, miss_rate, miss_served = reads(port, seconds, data["readers"])
    from corr.models import GameEvent

    stored = GameEvent.objects.filter(game_id__in=[g["id"] for g in closed], kind="move").count()
    stored_open = GameEvent.objects.filter(game_id__in=[g["id"] for g in opened], kind="move").count()
    answered_open = fixed["moves"]["ok"] + issue["moves"]["ok"]
    short, long = read_moves
    tp = by_round(moves, floor, "per_second")
    p99 = by_round(moves_open, floor_open, "p99_ms")
    p99_issue = by_round(issue["moves"], issue["floor"], "p99_ms")
    vs_floor = by_round(hit[short], floor_open, "p50_ms")
    on_hit = by_round(hit[long], hit[short], "p50_ms")
    on_miss = by_round(miss[long], miss[short], "p50_ms")
    ratio_tp, ratio_p99, ratio_hit, ratio_miss = tp["median"], p99["median"], on_hit["median"], on_miss["median"]
    return [
        Row(name=f"move submission: moves stored per second (32 players, gunicorn {WORKERS} workers, PostgreSQL)",
            figure=round(tp["a"], 1), floor=round(tp["b"], 1), unit="requests/s",
            ratio=round(ratio_tp, 2), target=">= 0.5x floor", met=ratio_tp >= 0.5 and stored == moves["ok"],
            note=f"closed loop; {range_text(tp)}; {moves['ok']} moves answered 201, {stored} stored,"
                 f" {moves['errors']} errors; floor {floor['ok']} inserts, {floor['errors']} errors;"
                 f" pooled closed-loop p99 {moves['p99_ms']:.1f} ms, floor {floor['p99_ms']:.1f} ms"),
        Row(name=f"move submission: p99 latency at a fixed {rate:.0f} requests/s (open loop)",
            figure=round(p99["a"], 1), floor=round(p99["b"], 1), unit="ms",
            ratio=round(ratio_p99, 2), target="<= 2x floor p99 in every round",
            met=p99["max"] <= 2 and stored_open == answered_open and not moves_open["errors"],
            note=f"{range_text(p99)}; pooled p50 {moves_open['p50_ms']:.1f} ms,"
                 f" floor p50 {floor_open['p50_ms']:.1f} ms;"
                 f" served {moves_open['per_second']:.0f}/s and {floor_open['per_second']:.0f}/s;"
                 f" {moves_open['ok']} moves, {moves_open['errors']} errors; stored in both open-loop rows"
                 f" {stored_open} of {answered_open} answered 201"),
        Row(name=f"move submission: p99 latency at issue 42's fixed {ISSUE_RATE:.0f} requests/s (open loop)",
            figure=round(p99_issue["a"], 1), floor=round(p99_issue["b"], 1), unit="ms",
            ratio=round(p99_issue["median"], 2), target="<= 2x floor p99 in every round",
            met=p99_issue["max"] <= 2 and stored_open == answered_open and not issue["moves"]["errors"],
            note=f"{range_text(p99_issue)}; pooled p50 {issue['moves']['p50_ms']:.1f} ms,"
                 f" floor p50 {issue['floor']['p50_ms']:.1f} ms;"
                 f" served {issue['moves']['per_second']:.0f}/s and {issue['floor']['per_second']:.0f}/s;"
                 f" {issue['moves']['ok']} moves, {issue['moves']['errors']} errors"),
        Row(name=f"clock read: GET /api/games/{{id}}/, {short}-move game, p50 at {hit_rate:.0f}/s, cache hit",
            figure=round(vs_floor["a"], 1), floor=round(vs_floor["b"], 1), unit="ms",
            ratio=round(vs_floor["median"], 2), target="(reference)", met=None,
            note=f"floor: its p50 at {rate:.0f}/s; {range_text(vs_floor)}; pooled p99 {hit[short]['p99_ms']:.1f} ms;"
                 f" on a cache miss at {miss_rate:.0f}/s p50 {miss[short]['p50_ms']:.1f} ms,"
                 f" p99 {miss[short]['p99_ms']:.1f} ms"),
        Row(name=f"clock read: {long}-move game vs {short}-move game, p50 at {hit_rate:.0f}/s (open loop), cache hit",
            figure=round(on_hit["a"], 1), floor=round(on_hit["b"], 1), unit="ms",
            ratio=round(ratio_hit, 2), target=f"{long}-move game <= 1.2x the {short}-move game",
            met=ratio_hit <= 1.2 and not hit[long]["errors"] and not hit[short]["errors"],
            note=f"{range_text(on_hit)}; pooled p99 {hit[long]['p99_ms']:.1f} ms vs {hit[short]['p99_ms']:.1f} ms"
                 f" ({hit[long]['p99_ms'] / hit[short]['p99_ms']:.2f}x); rate: half the {long}-move game's"
                 f" closed-loop {hit_served:.0f} reads/s"),
        Row(name=f"clock read: {long}-move game vs {short}-move game, p50 at {miss_rate:.0f}/s (open loop), cache miss",
            figure=round(on_miss["a"], 1), floor=round(on_miss["b"], 1), unit="ms",
            ratio=round(ratio_miss, 2), target=f"{long}-move game <= 1.2x the {short}-move game",
            met=ratio_miss <= 1.2 and not miss[long]["errors"] and not miss[short]["errors"],
            note=f"{range_text(on_miss)}; pooled p99 {miss[long]['p99_ms']:.1f} ms vs {miss[short]['p99_ms']:.1f} ms"
                 f" ({miss[long]['p99_ms'] / miss[short]['p99_ms']:.2f}x); rate: half the {long}-move game's"
                 f" closed-loop {miss_served:.0f} reads/s; no clock cache in this server"),
    ]


if __name__ == "__main__":
    seconds = float(sys.argv[1])
    rows = main(seconds, (10, 200))
    print(json.dumps([r.as_json() for r in rows]))
