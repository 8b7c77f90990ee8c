"""Outages on the production stack (issue 23, item 2): a Redis outage gives nothing back, a server's does.

Real processes on the test database: daphne serving ``corr.asgi`` (the process that takes moves,
beating every second), a Celery worker with its beat (``-B``: the scheduled checks and the sweep),
and a Redis server of this test's own on a free port, so that it can be stopped and started again.
The gap threshold is 5 s (``LIVE_GAP_MS``). No request reaches the server during an outage; the
test reads the database only.

- Redis stopped for 12 s while black's 10 s run out: the server's beat does not need Redis, so no
  gap is recorded, and black's flag is recorded at its instant (the move's instant + 10 s exactly)
  by the server itself, before Redis is back.
- The server stopped for 15 s (Redis, the worker and its beat up) while black's 10 s run out: the
  worker's checks judge only up to the server's last beat and record nothing; the restarted server's
  first beat gives the outage back; black's flag falls later, at the gap's end plus what black had
  left when the server stopped beating.
"""

from __future__ import annotations

import shutil
import time
from datetime import UTC, datetime, timedelta

import pytest
import requests
from rest_framework.authtoken.models import Token

from corr.games import services
from corr.models import Game, LiveEvent

from ..conftest import needs_server
from ..support.stack import Stack

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

CONTROL_S = 10
GAP_MS = 5000
WAIT_S = 90


@pytest.fixture
def stack(tmp_path):
    needs_server("redis-server (the binary)", shutil.which("redis-server") is not None)
    stack = Stack(tmp_path, gap_ms=GAP_MS)
    try:
        for name in ("redis", "worker", "daphne"):
            stack.start(name)
        stack.steady()
        yield stack
    finally:
        stack.stop_all()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def game_started(stack: Stack, arbiter) -> Game:
    """A live game of sudden death ``CONTROL_S`` s, created through daphne, started a second ago.

    Through the server, so that its checks are scheduled by the server's process (through Redis),
    not by this one's eager tasks.
    """
    tournament = services.tournament_create(
        by=arbiter, name="Outage cup", official_start=datetime.now(UTC).date(), mode="live",
        ruleset={"time_control": {"unit": "seconds", "system": "periods",
                                  "stages": [{"moves": None, "time": CONTROL_S}]}})
    token = Token.objects.get_or_create(user=arbiter)[0].key
    starts_at = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    answer = requests.post(stack.url("/api/games/"), json={"tournament": tournament.pk, "white": "anna",
                                                           "black": "boris", "starts_at": starts_at},
                           headers={"Authorization": f"Token {token}"}, timeout=30)
    assert answer.status_code == 201, answer.text
    return Game.objects.get(pk=answer.json()["id"])


def white_moves(stack: Stack, game: Game, anna) -> int:
    """White's first move through daphne; returns its instant (black's clock runs from it)."""
    token = Token.objects.get_or_create(user=anna)[0].key
    answer = requests.post(stack.url(f"/api/games/{game.pk}/moves/"), json={"number": 1, "notation": "e4"},
                           headers={"Authorization": f"Token {token}"}, timeout=30)
    assert answer.status_code == 201, answer.text
    return LiveEvent.objects.get(game=game, kind="move").at_ms


def finished(game: Game) -> Game:
    deadline = time.monotonic() + WAIT_S
    while Game.objects.get(pk=game.pk).status == "ongoing":
        assert time.monotonic() < deadline, "the flag was never recorded"
        time.sleep(0.25)
    return Game.objects.get(pk=game.pk)


def events(game: Game, kind: str) -> list[LiveEvent]:
    return list(LiveEvent.objects.filter(game=game, kind=kind).order_by("seq"))


def test_a_redis_outage_gives_no_time_back_and_the_flag_falls_at_its_instant(stack, arbiter, anna, boris):
    game = game_started(stack, arbiter)
    moved_ms = white_moves(stack, game, anna)
    stack.stop("redis")  # no request reaches the server from now on
    down_ms = now_ms()
    while now_ms() < max(moved_ms + CONTROL_S * 1000, down_ms + GAP_MS) + 2000:  # beyond the flag and the gap threshold
        time.sleep(0.25)
    stack.start("redis")
    back_ms = now_ms()
    assert back_ms - down_ms > GAP_MS
    game = finished(game)
    assert not events(game, "gap"), stack.log("daphne")
    [flag] = events(game, "flag")
    assert flag.player == "black" and flag.at_ms == moved_ms + CONTROL_S * 1000  # at its instant, to the ms
    assert flag.entered_at.timestamp() * 1000 < back_ms  # recorded by the server while Redis was still down
    assert game.result == "1-0"


def test_a_server_outage_is_given_back(stack, arbiter, anna, boris):
    game = game_started(stack, arbiter)
    moved_ms = white_moves(stack, game, anna)
    stack.stop("daphne")  # the worker, its beat and Redis stay up: they cannot take moves
    down_ms = now_ms()
    while now_ms() < down_ms + 15_000:  # black's flag would fall within it
        time.sleep(0.25)
    assert Game.objects.get(pk=game.pk).status == "ongoing"  # the worker judged only up to the last beat
    assert not events(game, "flag")
    restart_ms = now_ms()
    stack.start("daphne")
    game = finished(game)
    [gap] = events(game, "gap")
    assert moved_ms <= gap.from_ms <= down_ms  # the server's last beat (or the move, if later)
    assert gap.at_ms >= restart_ms  # the restarted server's first beat
    [flag] = events(game, "flag")
    used_before_ms = gap.from_ms - moved_ms
    assert flag.player == "black" and flag.at_ms == gap.at_ms + CONTROL_S * 1000 - used_before_ms
