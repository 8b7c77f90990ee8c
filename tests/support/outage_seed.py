"""Seed a private database for the PostgreSQL outage test (tests/service/test_postgres_outage.py).

Run inside ``manage.py shell`` with ``DATABASE_URL`` pointing at the test's own cluster: prints one JSON line with,
per live game, its id and each player's API token and session cookie (the socket signs in with the cookie).
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime


def seed(games: int) -> None:
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services
    from corr.live import services as live

    arbiter = User.objects.create_user("arbiter", "arbiter@example.org", "arbiter-pass-1")
    services.arbiter_grant(user=arbiter)
    # An hour each: no flag falls during the test, whatever the machine's load.
    tournament = services.tournament_create(
        by=arbiter, name="Outage cup", official_start=datetime.now(UTC).date(), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "fischer", "initial": 3600, "increment": 0}})

    def signed_in(user) -> dict:
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        return {"token": Token.objects.create(user=user).key, "cookie": f"sessionid={session}"}

    now_ms = time.time_ns() // 1_000_000
    seeded = []
    for index in range(games):
        white = User.objects.create_user(f"white{index}", f"white{index}@example.org", "white-pass-1")
        black = User.objects.create_user(f"black{index}", f"black{index}@example.org", "black-pass-1")
        game = live.live_game_create(by=arbiter, tournament=tournament, white=white, black=black,
                                     starts_at_ms=now_ms - 1000, now_ms=now_ms)
        seeded.append({"id": game.pk, "white": signed_in(white), "black": signed_in(black)})
    print(json.dumps(seeded))
