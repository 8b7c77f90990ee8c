"""Server games on the clock of the instant (issue 22): a tournament counting exact time, moves at set instants."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine

from corr.games import services

UTC = timezone.utc
START = date(2026, 3, 2)  # 00:00 in Moscow is 2026-03-01T21:00:00Z
WHITE_SENT = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
DAY = timedelta(days=1)
BLACK_FLAG = WHITE_SENT + DAY
"""lichess's 1 day per move, counted exactly: black received 1. e4 at 10:00:00Z and falls 86,400 s later."""


def z(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def instant_tournament(arbiter, *, preset: str = "lichess_days_1", timeouts: str = "arbiter", official_start=START,
                       **extra):
    return services.tournament_create(by=arbiter, name=f"{preset} {timeouts}", official_start=official_start,
                                      mode="server", preset=preset, time_zone="Europe/Moscow", timeouts=timeouts,
                                      **extra)


def game_of(arbiter, tournament, anna, boris):
    with time_machine.travel(datetime(2026, 3, 1, 12, tzinfo=UTC), tick=False):
        return services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris,
                                    today=date(2026, 3, 1))


def move_at(client, game, number: int, notation: str, at: datetime):
    """POST the move through the API with the server's clock at ``at``."""
    with time_machine.travel(at, tick=False):
        return client.post(f"/api/games/{game.pk}/moves/", {"number": number, "notation": notation}, format="json")


def read_at(client, path: str, at: datetime, **extra):
    with time_machine.travel(at, tick=False):
        return client.get(path, **extra)


@pytest.fixture
def exact(arbiter):
    return instant_tournament(arbiter)


@pytest.fixture
def exact_game(exact, arbiter, anna, boris, api):
    """1. e4 sent by white at ``WHITE_SENT``: black to move, flag at ``BLACK_FLAG``."""
    game = game_of(arbiter, exact, anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game
