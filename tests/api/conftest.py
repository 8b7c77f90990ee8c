"""Fixtures shared by the API's clock-read tests."""

from __future__ import annotations

from datetime import timedelta

import pytest

from corr.games import services
from corr.games.selectors import game_get
from corr.models import Leave

from ..conftest import TODAY


@pytest.fixture
def played(postal_game, arbiter, anna, boris):
    """A postal game with moves, a penalty (a ledger line with a note) and leave; white's move 2 pending."""
    day = TODAY - timedelta(days=20)
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=day, today=TODAY)
    services.move_submit(game=postal_game, by=boris, number=1, notation="e5", received_on=day + timedelta(days=3),
                         sent_on=day + timedelta(days=5), today=TODAY)
    services.penalty_assess(game=postal_game, by=arbiter, player="white", reason="address_error", today=TODAY)
    Leave.objects.create(user=anna, first=TODAY - timedelta(days=2), last=TODAY - timedelta(days=1),
                         tournament=postal_game.tournament)
    return game_get(game_id=postal_game.pk)
