"""A live game and WebSocket connections to its page, through the real ASGI application (corr.asgi)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from corr.live import timesource

# An instant of the injected server clock (ms since the epoch): 2026-11-30 10:00:00 UTC.
T0_MS = 1_796_032_800_000


@pytest.fixture(autouse=True)
def no_sweep_thread(settings):
    """No in-process sweep thread from these tests: once started it outlives the test and would sweep
    later tests' games on their injected clocks (the service's own tests drive the sweep by hand)."""
    settings.LIVE_INPROCESS_SWEEP = False


@pytest.fixture
def server_clock(monkeypatch):
    """The service's clock, moved by hand: ``server_clock.ms`` is what ``timesource.now_ms()`` answers."""

    class Clock:
        ms = T0_MS

        def advance(self, ms: int) -> int:
            self.ms += ms
            return self.ms

    clock = Clock()
    monkeypatch.setattr(timesource, "now_ms", lambda: clock.ms)
    return clock


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(game_id: int, user=None, origin: bytes | None = b"http://testserver") -> WebsocketCommunicator:
    """A WebSocket to game ``game_id``'s live page, signed in as ``user`` (None: anonymous).

    Its tests connect with ``timeout=10``: the handshake reads the session and the game from the database, which
    on a loaded shared machine (CI's PostgreSQL pass) took longer than the communicator's default 1 s.
    """
    from corr.asgi import application

    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        headers.append((b"cookie", session_cookie(user)))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/live/", headers=headers)


def iso(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat().replace("+00:00", "Z")


# Five minutes and 2 s a move (FIDE 6.2's Fischer), in seconds: a live tournament's clock.
FISCHER_5_2 = {"unit": "seconds", "system": "fischer", "initial": 300, "increment": 2}


@pytest.fixture
def live_tournament(arbiter, api, server_clock):
    """A live tournament made through the API (mode live, a clock in seconds)."""
    from corr.models import Tournament

    r = api(arbiter).post("/api/tournaments/", {"name": "Live blitz", "official_start": iso(server_clock.ms)[:10],
                                                "mode": "live", "ruleset": {"time_control": FISCHER_5_2}},
                          format="json")
    assert r.status_code == 201, r.json()
    return Tournament.objects.get(pk=r.json()["id"])


def live_game_create(api, arbiter, tournament, white: str, black: str, starts_at_ms: int):
    from corr.models import Game

    r = api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": white, "black": black,
                                          "starts_at": iso(starts_at_ms)}, format="json")
    assert r.status_code == 201, r.json()
    return Game.objects.get(pk=r.json()["id"])


@pytest.fixture
def live_game(live_tournament, arbiter, anna, boris, api, server_clock):
    """anna (white) against boris, white's clock running since 10 s ago by the server's clock."""
    game = live_game_create(api, arbiter, live_tournament, "anna", "boris", server_clock.ms)
    server_clock.advance(10_000)
    return game


def move_made(game, user, number: int, notation: str = "") -> dict:
    """``user`` presses the clock: POST /api/games/{id}/moves/ (the service pushes after commit)."""
    from tests.conftest import client_for

    r = client_for(user).post(f"/api/games/{game.pk}/moves/", {"number": number, "notation": notation},
                              format="json")
    assert r.status_code in (200, 201), r.json()
    return r.json()
