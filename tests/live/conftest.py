"""A live game and WebSocket connections to its page, through the real ASGI application (corr.asgi)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from corr.live import timesource

# An instant of the injected server clock (ms since the epoch): 2026-11-30 10:00:00 UTC.
T0_MS = 1_796_032_800_000


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
    """A WebSocket to game ``game_id``'s live page, signed in as ``user`` (None: anonymous)."""
    from corr.asgi import application

    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        headers.append((b"cookie", session_cookie(user)))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/live/", headers=headers)


@pytest.fixture
def live_tournament(arbiter):
    from datetime import date

    from corr.models import Tournament

    t = Tournament.objects.create(name="Live blitz", official_start=date(2026, 11, 30), mode="live", created_by=arbiter,
                                  time_control={"unit": "seconds", "system": "fischer", "initial": 300,
                                                "increment": 2})
    t.arbiters.add(arbiter)
    return t


@pytest.fixture
def live_game(live_tournament, anna, boris, server_clock):
    """anna (white) against boris, white's clock running since 10 s ago by the server's clock."""
    from corr.models import Game, LiveEvent, LiveGame

    game = Game.objects.create(tournament=live_tournament, white=anna, black=boris, mode="live")
    LiveGame.objects.create(game=game, starts_at_ms=server_clock.ms - 10_000, version=1)
    LiveEvent.objects.create(game=game, seq=1, kind="start", at_ms=server_clock.ms - 10_000)
    return game


def move_made(game, user, number: int, notation: str = "") -> dict:
    """``user`` presses the clock: POST /api/games/{id}/moves/ (the service pushes after commit)."""
    from corr.live import push
    from corr.models import LiveEvent, LiveGame
    from corr.live import timesource

    live = LiveGame.objects.get(game=game)
    seq = LiveEvent.objects.filter(game=game).count() + 1
    LiveEvent.objects.create(game=game, seq=seq, kind="move", player=game.colour_of(user), number=number,
                             notation=notation, at_ms=timesource.now_ms())
    live.version += 1
    live.save()
    push.game_changed(game.pk)
    return {}
