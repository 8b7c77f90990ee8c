"""HTTP benchmarks through the real stack: gunicorn (2 workers), PostgreSQL, a load generator on loopback.

Run by ``bench/run.py`` in its own process with ``DATABASE_URL`` naming a
fresh database. 32 concurrent players each drive their own server game
(white and black in turn); the floor endpoint, in the same gunicorn process,
authenticates and inserts one row. Every phase is bounded in time.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")

from common import ROOT, Row, free_port, percentile, service_env, wait_for_port  # noqa: E402

CLIENTS = 32


def setup(read_moves: tuple[int, ...]) -> dict:
    import django

    django.setup()
    from datetime import date

    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services

    today = timezone.localdate()
    arbiter = User.objects.create_superuser("bench-arbiter", "a@example.org", "x")
    tournament = services.tournament_create(by=arbiter, name="Bench server league", official_start=date(2026, 1, 1),
                                            mode="server")
    players = [User.objects.create_user(f"p{i}", f"p{i}@example.org", "x") for i in range(2 * CLIENTS + 4)]
    token = {u.pk: Token.objects.create(user=u).key for u in players}
    games = []
    for i in range(CLIENTS):
        white, black = players[2 * i], players[2 * i + 1]
        game = services.game_create(by=arbiter, tournament=tournament, white=white, black=black, today=today)
        games.append({"id": game.pk, "white": token[white.pk], "black": token[black.pk]})
    readers = {}
    for k, moves in enumerate(read_moves):
        white, black = players[2 * CLIENTS + 2 * k], players[2 * CLIENTS + 2 * k + 1]
        game = services.game_create(by=arbiter, tournament=tournament, white=white, black=black, today=today)
        for n in range(1, moves + 1):
            services.move_submit(game=game, by=white, number=n, notation="e4", today=today)
            services.move_submit(game=game, by=black, number=n, notation="e5", today=today)
        readers[moves] = {"id": game.pk, "token": token[white.pk]}
    return {"games": games, "readers": readers}


def request(port: int, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.perf_counter() - started


def phase(seconds: float, work) -> dict:
    """Run ``work(client, i)`` in CLIENTS threads for ``seconds``; collect statuses and latencies."""
    latencies: list[float] = []
    errors: list[int] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def loop(client: int):
        i = 0
        while time.monotonic() < stop:
            status, latency = work(client, i)
            with lock:
                (latencies if status in (200, 201) else errors).append(latency if status in (200, 201) else status)
            i += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=loop, args=(c,)) for c in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    return {"ok": len(latencies), "errors": len(errors), "error_codes": sorted(set(errors))[:5],
            "per_second": len(latencies) / elapsed, "p50_ms": percentile(latencies, 50) * 1000,
            "p99_ms": percentile(latencies, 99) * 1000}


def main(seconds: float, read_moves: tuple[int, int]) -> list[Row]:
    data = setup(read_moves)
    port = free_port()
    env = service_env({"BENCH_ENDPOINTS": "1"})
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "corr.wsgi", "--workers", "2",
                               "--bind", f"127.0.0.1:{port}", "--log-level", "error", "--backlog", "256"],
                              cwd=ROOT, env=env)
    try:
        wait_for_port(port)
        games = data["games"]
        request(port, "POST", "/api/bench/floor/", games[0]["white"])  # warm both workers' imports
        request(port, "GET", f"/api/games/{games[0]['id']}/", games[0]["white"])
        floor = phase(seconds, lambda c, i: request(port, "POST", "/api/bench/floor/", games[c]["white"]))
        moves = phase(seconds, lambda c, i: request(
            port, "POST", f"/api/games/{games[c]['id']}/moves/", games[c]["white" if i % 2 == 0 else "black"],
            {"number": i // 2 + 1, "notation": "Nf3"}))
        reads = {}
        for n, reader in data["readers"].items():
            reads[n] = phase(seconds, lambda c, i, r=reader: request(port, "GET", f"/api/games/{r['id']}/",
                                                                     r["token"]))
    finally:
        server.terminate()
        server.wait(timeout=30)
    from corr.models import GameEvent

    stored = GameEvent.objects.filter(game_id__in=[g["id"] for g in data["games"]], kind="move").count()
    short, long = read_moves
    ratio_tp = moves["per_second"] / floor["per_second"]
    ratio_p99 = moves["p99_ms"] / floor["p99_ms"]
    ratio_read = reads[long]["p50_ms"] / reads[short]["p50_ms"]
    return [
        Row(name="move submission: moves stored per second (32 players, gunicorn 2 workers, PostgreSQL)",
            figure=round(moves["per_second"], 1), floor=round(floor["per_second"], 1), unit="requests/s",
            ratio=round(ratio_tp, 2), target=">= 0.5x floor", met=ratio_tp >= 0.5 and stored == moves["ok"],
            note=f"{moves['ok']} moves answered 201, {stored} stored, {moves['errors']} errors;"
                 f" floor {floor['ok']} inserts, {floor['errors']} errors"),
        Row(name="move submission: p99 latency", figure=round(moves["p99_ms"], 1), floor=round(floor["p99_ms"], 1),
            unit="ms", ratio=round(ratio_p99, 2), target="<= 2x floor p99", met=ratio_p99 <= 2,
            note=f"p50 {moves['p50_ms']:.1f} ms, floor p50 {floor['p50_ms']:.1f} ms"),
        Row(name=f"clock read: GET /api/games/{{id}}/, {short}-move game, p50", figure=round(reads[short]["p50_ms"], 1),
            floor=round(floor["p50_ms"], 1), unit="ms", ratio=round(reads[short]["p50_ms"] / floor["p50_ms"], 2),
            target="(reference)", met=None, note=f"{reads[short]['per_second']:.0f} reads/s"),
        Row(name=f"clock read: {long}-move game vs {short}-move game, p50", figure=round(reads[long]["p50_ms"], 1),
            floor=round(reads[short]["p50_ms"], 1), unit="ms", ratio=round(ratio_read, 2),
            target=f"{long}-move game <= 1.2x the {short}-move game", met=ratio_read <= 1.2,
            note=f"{reads[long]['per_second']:.0f} reads/s; floor endpoint p50 {floor['p50_ms']:.1f} ms"),
    ]


if __name__ == "__main__":
    seconds = float(sys.argv[1])
    rows = main(seconds, (10, 200))
    print(json.dumps([r.as_json() for r in rows]))
