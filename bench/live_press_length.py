"""A live press over HTTP late in a long game against one early in a short game (issue 42): its cost must not grow
with the game.

Run by ``bench/run.py`` (``live`` section) in its own process, ``DATABASE_URL`` naming a fresh database. Each round
has two live games of its own (Fischer 3600+10, so no flag falls): one played to press 40, one to press 560, by the
live service in this process (real time, real PostgreSQL: the events and the snapshots a press leaves). Then, over
HTTP through gunicorn (``corr.wsgi``, the production stack's web server), one client presses 41-80 in the first
and 561-600 in the second, one press after the other, the two sides' order alternating from round to round (ABBA)
so that the shared machine's other work falls on both alike. Each press's latency is from sending to the answer;
each round's ratio is its long game's median over its short game's; the ratios are quoted as the median with
min-max. Prints JSON.

Usage: python bench/live_press_length.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")

from common import percentile  # noqa: E402
from http_load import request, server  # noqa: E402

SHORT, LONG, TIMED = 40, 560, 40
"""The presses each game has before the timed ones, and the timed presses (41-80 against 561-600)."""
TARGET = 1.2


def setup(rounds: int) -> list[dict]:
    """Per round, the short and the long game played to their presses: ids and both players' tokens."""
    import django

    django.setup()
    from datetime import date

    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services
    from corr.live import services as live, timesource

    arbiter = User.objects.create_superuser("bench-arbiter", "a@example.org", "x")
    tournament = services.tournament_create(
        by=arbiter, name="Bench live league", official_start=date.today(), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "fischer", "initial": 3600, "increment": 10}})
    made = 0

    def game_played(presses: int) -> dict:
        nonlocal made
        white, black = (User.objects.create_user(f"p{made + i}", f"p{made + i}@example.org", "x") for i in (0, 1))
        made += 2
        now = timesource.now_ms()
        game = live.live_game_create(by=arbiter, tournament=tournament, white=white, black=black,
                                     starts_at_ms=now, now_ms=now)
        for n in range(1, presses + 1):
            live.live_move(game_id=game.pk, by=white if n % 2 else black, number=(n + 1) // 2)
        return {"id": game.pk, "tokens": [Token.objects.create(user=u).key for u in (white, black)],
                "next": presses + 1}

    return [{"short": game_played(SHORT), "long": game_played(LONG)} for _ in range(rounds)]


def presses(port: int, game: dict) -> list[float]:
    """The game's next ``TIMED`` presses over HTTP, one after the other: their latencies (ms)."""
    latencies = []
    for n in range(game["next"], game["next"] + TIMED):
        status, seconds = request(port, "POST", f"/api/games/{game['id']}/moves/", game["tokens"][(n - 1) % 2],
                                  {"number": (n + 1) // 2, "notation": ""})
        if status != 201:
            raise RuntimeError(f"press {n} of game {game['id']} answered {status}")
        latencies.append(seconds * 1000)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    games = setup(args.rounds)
    setup_seconds = time.perf_counter() - started
    from django.db import connection

    connection.close()
    ratios, short_ms, long_ms = [], [], []
    with server() as port:
        for warm in range(4):  # every worker imported and connected before the first timed press
            request(port, "GET", f"/api/games/{games[0]['short']['id']}/", games[0]["short"]["tokens"][warm % 2])
        for r, pair in enumerate(games):
            order = ("short", "long") if r % 2 == 0 else ("long", "short")
            measured = {side: presses(port, pair[side]) for side in order}
            short_ms.append(measured["short"])
            long_ms.append(measured["long"])
            ratios.append(statistics.median(measured["long"]) / statistics.median(measured["short"]))
    pooled_short = [v for r in short_ms for v in r]
    pooled_long = [v for r in long_ms for v in r]
    print(json.dumps({
        "rounds": args.rounds, "setup_seconds": round(setup_seconds, 1),
        "short_p50_ms": [round(statistics.median(r), 2) for r in short_ms],
        "long_p50_ms": [round(statistics.median(r), 2) for r in long_ms],
        "short_p99_ms": round(percentile(pooled_short, 99), 2), "long_p99_ms": round(percentile(pooled_long, 99), 2),
        "ratios": [round(x, 3) for x in ratios], "ratio_median": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3), "ratio_max": round(max(ratios), 3), "target": TARGET,
        "presses": {"short": [SHORT + 1, SHORT + TIMED], "long": [LONG + 1, LONG + TIMED]}}))


if __name__ == "__main__":
    main()
