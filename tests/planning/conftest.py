"""The planning tests' game (issue 41): one postal game with black's first move pending."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
import time_machine

from corr.games import services

START = date(2026, 1, 10)
"""The postal cup's official start (tests/conftest.py's ``postal``)."""


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc)


@pytest.fixture
def postal_move(arbiter, postal, anna, boris):
    """White's move 1 sent on 01-20 (10 days used); black's move 1 pending from 01-24 (presumed), read on 01-25."""
    with time_machine.travel(noon(date(2026, 1, 25)), tick=False):
        game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=START)
        services.move_submit(game=game, by=anna, number=1, notation="e4", sent_on=date(2026, 1, 20),
                             today=date(2026, 1, 25))
    return game
