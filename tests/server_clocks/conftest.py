"""Server games under each server's own clock (issue 40): chess.com's vacation, lichess's "+", OGS's pauses."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ..server_instants.conftest import game_of, instant_tournament, move_at

UTC = timezone.utc
WHITE_SENT = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
"""1. e4, sent at 10:00:00Z: black is to move from then."""
DAY = timedelta(days=1)


@pytest.fixture
def chesscom_game(arbiter, anna, boris, api):
    """chess.com daily, 3 days a move, automatic vacation (7 days for a new account): black to move since
    ``WHITE_SENT``, his flag at ``WHITE_SENT + 3 days`` but for his allowance. Lost on time automatically."""
    game = game_of(arbiter, instant_tournament(arbiter, preset="chesscom_daily_3", timeouts="automatic"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game


@pytest.fixture
def lichess_game(arbiter, anna, boris, api):
    """lichess correspondence, 3 days a move, its "+": black to move since ``WHITE_SENT``."""
    game = game_of(arbiter, instant_tournament(arbiter, preset="lichess_corr_3"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game
