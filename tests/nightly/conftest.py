from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine

from corr.games import services

START = date(2026, 1, 10)


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc)


@pytest.fixture
def make_game(arbiter, anna, boris, postal, settings):
    """A postal game in which white's move 1 is pending from the start, or one with penalties added."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    def make(white=None, black=None):

        white = white or anna
        black = black or boris
        with time_machine.travel(at(START), tick=False):
            return services.game_create(by=arbiter, tournament=postal, white=white, black=black, today=START)

    return make


def day(n: int) -> date:
    """The n-th day after the start (01-10): day(25) = 02-04."""
    return START + timedelta(days=n)
