"""Live games under test: a server clock moved by hand (no sleeps), its timers fired as it passes them."""

from __future__ import annotations

import heapq
import itertools
import threading
from datetime import date, datetime, timezone

import pytest

from corr.games import services
from corr.live import timesource

START = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
START_MS = int(START.timestamp() * 1000)
S = 1000
MIN = 60 * S


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat()


class FakeTime:
    """The injected ``timesource``: ``now_ms`` is set by the test; ``call_at`` timers fire as time passes them.

    ``lose_timers``: every timer set from now on is dropped (a lost Celery message, a dead worker).
    """

    def __init__(self, now_ms: int) -> None:
        self.now = now_ms
        self.timers: list = []
        self.order = itertools.count()
        self.lock = threading.Lock()
        self.lose_timers = False
        self.fired: list[int] = []

    def now_ms(self) -> int:
        return self.now

    def call_at(self, at_ms: int, callback) -> None:
        with self.lock:
            if not self.lose_timers:
                heapq.heappush(self.timers, (at_ms, next(self.order), callback))

    def advance_to(self, at_ms: int) -> None:
        """Move the clock to ``at_ms``, firing each timer due on the way at its own instant (a precise timer)."""
        while True:
            with self.lock:
                if not self.timers or self.timers[0][0] > at_ms:
                    break
                when, _, callback = heapq.heappop(self.timers)
            self.now = max(self.now, when)
            self.fired.append(when)
            callback()
        self.now = max(self.now, at_ms)

    def advance(self, ms: int) -> None:
        self.advance_to(self.now + ms)


@pytest.fixture
def clock(monkeypatch, settings):
    """The server's clock at ``START`` minus one minute; no in-process sweep thread (tests run the sweep)."""
    settings.LIVE_INPROCESS_SWEEP = False
    fake = FakeTime(START_MS - MIN)
    monkeypatch.setattr(timesource, "now_ms", fake.now_ms)
    monkeypatch.setattr(timesource, "call_at", fake.call_at)
    return fake


def live_tournament(arbiter, time_control: dict, kind: str = "chess", name: str = "Live cup"):
    return services.tournament_create(by=arbiter, name=name, official_start=date(2026, 3, 1), mode="live",
                                      ruleset={"time_control": {"unit": "seconds", **time_control}}, kind=kind)


FISCHER_5_2 = {"system": "fischer", "initial": 300, "increment": 2}
SUDDEN_DEATH_60 = {"system": "periods", "stages": [{"moves": None, "time": 60}]}
ONE_HOUR = {"system": "periods", "stages": [{"moves": None, "time": 3600}]}


@pytest.fixture
def create_game(api, arbiter, anna, boris):
    """POST /api/games/ for a live game of ``tournament`` starting at ``START``; returns its id."""

    def create(tournament, white="anna", black="boris", starts_at=None):
        r = api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": white, "black": black,
                                             "starts_at": starts_at or START.isoformat()}, format="json")
        assert r.status_code == 201, r.json()
        return r.json()["id"]

    return create
