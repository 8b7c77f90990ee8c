"""A live game's start is bounded (issue 42): at most ``LIVE_START_AHEAD_DAYS_MAX`` days after its creation, at most a
minute before it. A game could start in the year 9999, and the embedded flag timer scheduled at that instant raised.
"""

from __future__ import annotations

import pytest

from corr.limits import LIVE_START_AHEAD_DAYS_MAX
from corr.models import Game, LiveGame

from .conftest import FISCHER_5_2, MIN, START_MS, iso, live_tournament

DAY_MS = 86_400_000


@pytest.mark.parametrize("starts_at", ["9999-12-31T23:59:59Z", "2100-01-01T00:00:00+01:00"])
@pytest.mark.parametrize("language, words", [
    ("en", f"starts_at is more than {LIVE_START_AHEAD_DAYS_MAX} days ahead: a live game is created at most that long"
           " before it starts"),
    ("ru", f"starts_at более чем на {LIVE_START_AHEAD_DAYS_MAX} дней вперёд"),
    ("fr", f"starts_at est à plus de {LIVE_START_AHEAD_DAYS_MAX} jours"),
])
def test_a_start_in_the_year_9999_is_refused_naming_starts_at_and_nothing_is_stored(
        api, arbiter, anna, boris, starts_at, language, words):
    # The real server clock and timers (no fixture): a stored start would schedule the embedded flag timer.
    tournament = live_tournament(arbiter, FISCHER_5_2)
    r = api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": "anna", "black": "boris",
                                          "starts_at": starts_at}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400 and r.json()["field"] == "starts_at", r.json()
    assert r.json()["detail"].startswith(words)
    assert not Game.objects.exists() and not LiveGame.objects.exists()


def test_a_start_a_leap_year_ahead_is_taken_and_a_millisecond_more_refused(api, arbiter, anna, boris, clock):
    tournament = live_tournament(arbiter, FISCHER_5_2)
    now_ms = START_MS - MIN  # the clock fixture's instant
    limit_ms = now_ms + LIVE_START_AHEAD_DAYS_MAX * DAY_MS
    answers = [api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": "anna", "black": "boris",
                                                 "starts_at": iso(ms)}, format="json")
               for ms in (limit_ms + 1, limit_ms)]
    assert [a.status_code for a in answers] == [400, 201]
    assert LiveGame.objects.get().starts_at_ms == limit_ms
