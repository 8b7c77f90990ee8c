"""The CPU of a correspondence move at two lengths of game, counted by cProfile (issue 42): not a timed figure.

``python bench/move_profile.py [--games 40] [--plies 10 80]`` drops and creates the PostgreSQL database
``BENCH_MOVE_PROFILE_DATABASE`` (``corr_bench_move_profile``), makes ``--games`` server games per ply (a
knights' dance, stored by ``move_submit``), then posts the move of each ply through the API in process (the
test client: token authentication, DRF, the view's two round trips, outside any atomic block as in
production) under cProfile, and prints per ply: the moves' profiled CPU in total and a move, the function
calls a move makes (deterministic for given code), the statements a move sends, and the functions of most
own time. The profiler's own overhead is in every figure alike; compare the same script's figures before
and after a change, and a ply with another (a move's cost should not grow with the game).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import database_url, knight_move, recreate_database, service_env  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games profiled at each ply")
    parser.add_argument("--plies", type=int, nargs="+", default=[10, 80],
                        help="the plies whose move is profiled (the game has ply - 1 moves before it)")
    parser.add_argument("--top", type=int, default=12, help="functions listed by own time")
    parser.add_argument("--dump", metavar="PREFIX", help="write each ply's profile to PREFIX-PLY.pstats")
    args = parser.parse_args()
    name = os.environ.get("BENCH_MOVE_PROFILE_DATABASE", "corr_bench_move_profile")
    recreate_database(name)
    os.environ.update(service_env({"DATABASE_URL": database_url(name), "DJANGO_SETTINGS_MODULE": "corr.settings",
                                "ALLOWED_HOSTS": "testserver"}))
    import django

    django.setup()
    for ply in args.plies:
        profile_ply(ply, args.games, args.top, args.dump)


def profile_ply(ply: int, games: int, top: int, dump: str | None) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from accounts.models import User
    from corr.games import services

    today = timezone.localdate()
    arbiter, _ = User.objects.get_or_create(username="profile-arbiter", defaults={"is_superuser": True})
    tournament = services.tournament_create(by=arbiter, name=f"Profile league {ply}", official_start=today,
                                            mode="server")
    posts = []
    for g in range(games):
        white = User.objects.create_user(f"w{ply}-{g}", f"w{ply}-{g}@example.org", "x")
        black = User.objects.create_user(f"b{ply}-{g}", f"b{ply}-{g}@example.org", "x")
        game = services.game_create(by=arbiter, tournament=tournament, white=white, black=black, today=today)
        for index in range(ply - 1):
            colour, player = ("white", white) if index % 2 == 0 else ("black", black)
            services.move_submit(game=game, by=player, number=index // 2 + 1,
                                 notation=knight_move(colour, index // 2 + 1), today=today)
        colour, mover = ("white", white) if (ply - 1) % 2 == 0 else ("black", black)
        posts.append((Token.objects.create(user=mover).key, f"/api/games/{game.pk}/moves/",
                      {"number": (ply - 1) // 2 + 1, "notation": knight_move(colour, (ply - 1) // 2 + 1)}))
    # One unprofiled move first: the session's prepared statements and the modules' first use.
    # One client (its handler's middleware, whitenoise's file scan included, is built once, as a server's is).
    client = APIClient()
    warm_token, warm_path, warm_body = posts.pop()
    client.credentials(HTTP_AUTHORIZATION=f"Token {warm_token}")
    assert client.post(warm_path, warm_body, format="json").status_code == 201
    profile = cProfile.Profile(time.thread_time)  # this thread's CPU: not the wall clock of a shared machine
    with CaptureQueriesContext(connection) as queries:
        for token, path, body in posts:
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            profile.enable()
            response = client.post(path, body, format="json")
            profile.disable()
            assert response.status_code == 201, response.json()
    stats = pstats.Stats(profile)
    if dump:
        stats.dump_stats(f"{dump}-{ply}.pstats")
    moves = len(posts)
    statements = len([q for q in queries.captured_queries if not q["sql"].startswith("PREPARE ")])
    print(f"ply {ply}: {moves} moves, CPU {stats.total_tt:.3f} s profiled ({1000 * stats.total_tt / moves:.2f} ms a"
          f" move), {stats.total_calls / moves:,.0f} function calls a move, {statements / moves:g} statements a move")
    out = io.StringIO()
    stats.stream = out
    stats.sort_stats("tottime").print_stats(top)
    print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


if __name__ == "__main__":
    main()
