"""ICCF's whole 24-hour days in a server game (issue 22, ICCF Playing Rules 2.4.2), through the service.

White sends 1. d4 at 20:00Z on 2 March (23:00 in Moscow, the tournament's zone);
black answers 23 h 59 min later, across Moscow's midnight. ICCF charges 0 days:
no whole 24-hour period passed. A tournament created before the preset counted
whole days (no ``count`` stored) counts the dates, as it always did: 1 day.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from corr.models import Tournament

from .conftest import game_of, instant_tournament, move_at, read_at

pytestmark = pytest.mark.django_db

SENT = datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc)
REPLY = SENT + timedelta(hours=23, minutes=59)


def black_after_reply(api, game, anna, boris) -> dict:
    assert move_at(api(anna), game, 1, "d4", SENT).status_code == 201
    assert move_at(api(boris), game, 1, "d5", REPLY).status_code == 201
    return read_at(api(boris), f"/api/games/{game.pk}/", REPLY + timedelta(minutes=1)).json()["clock"]["players"]


def test_a_reply_in_23_hours_59_across_midnight_costs_iccf_no_day(api, arbiter, anna, boris):
    game = game_of(arbiter, instant_tournament(arbiter, preset="iccf_10_50"), anna, boris)
    black = black_after_reply(api, game, anna, boris)["black"]
    assert black["thinking_days"] == 0
    assert black["control"]["remaining_days"] == 50


def test_the_same_reply_in_a_tournament_created_before_costs_its_date(api, arbiter, anna, boris):
    old = instant_tournament(arbiter, preset="iccf_10_50")
    stored = {k: v for k, v in old.time_control.items() if k != "count"}
    Tournament.objects.filter(pk=old.pk).update(time_control=stored)
    game = game_of(arbiter, Tournament.objects.get(pk=old.pk), anna, boris)
    black = black_after_reply(api, game, anna, boris)["black"]
    assert black["thinking_days"] == 1  # 2 March to 3 March in Moscow: article 50.4.4's dates
