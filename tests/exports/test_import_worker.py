"""A background import on the production stack (issue 37): a real Celery worker killed mid-import leaves neither a
partial game nor a duplicate once it is started again.

Real processes on the test database: daphne serving ``corr.asgi``, a Celery worker with its beat (the resume sweep
every second, a claim stale after 3 s), and a Redis server of this test's own. The arbiter uploads through the
API; the test reads the job's progress over HTTP, kills the worker (SIGKILL, as a crash) while it imports, checks
the database holds none of the event's games, starts a worker again and waits for the job to end.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
import requests
from rest_framework.authtoken.models import Token

from accounts.models import User
from corr.games import services
from corr.models import Game, ImportJob

from ..support.stack import Stack
from .import_pgn import event_pgn

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]
GAMES, MOVES_EACH = 60, 40
START = datetime(2026, 1, 20, 6, 0, tzinfo=UTC)


def wait_for(probe, seconds: float = 120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_a_worker_killed_mid_import_leaves_no_partial_game_and_no_duplicate(tmp_path, arbiter):
    stack = Stack(tmp_path)
    stack.env.update({"IMPORT_INLINE_GAMES": "20", "IMPORT_RESUME_SECONDS": "1", "IMPORT_JOB_STALE_SECONDS": "3"})
    players = [User.objects.create_user(f"p{i}", f"p{i}@example.org", f"p{i}-pass-123") for i in range(2 * GAMES)]
    tournament = services.tournament_create(by=arbiter, name="Big event", official_start=START.date(),
                                            mode="server", preset="iccf_10_50", time_zone="UTC")
    pgn = event_pgn([(players[i].username, players[i + 1].username) for i in range(0, 2 * GAMES, 2)], MOVES_EACH,
                    START)
    headers = {"Authorization": f"Token {Token.objects.get_or_create(user=arbiter)[0].key}"}
    try:
        for name in ("redis", "daphne", "worker"):
            stack.start(name)
        r = requests.post(stack.url(f"/api/tournaments/{tournament.pk}/import/"), json={"pgn": pgn},
                          headers=headers, timeout=60)
        assert r.status_code == 202, r.text
        job_url = stack.url(r.headers["Location"])

        def read():
            return requests.get(job_url, headers=headers, timeout=10).json()

        progress = wait_for(lambda: (lambda j: j if j["done"] and j["done"] >= 3 else None)(read()))
        assert progress["status"] == "running" and progress["done"] < GAMES, progress
        stack.stop("worker")  # a crash in the middle of the import
        assert read()["status"] == "running"
        assert Game.objects.filter(tournament=tournament).count() == 0  # its transaction died with it
        stack.start("worker")
        ended = wait_for(lambda: (lambda j: j if j["status"] in ("done", "refused") else None)(read()))
        assert (ended["status"], ended["done"], len(ended["games"])) == ("done", GAMES, GAMES), ended
        assert Game.objects.filter(tournament=tournament).count() == GAMES  # each game once
        assert ImportJob.objects.get().attempts == 2
    finally:
        stack.stop_all()
