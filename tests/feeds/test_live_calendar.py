"""Live games have no day deadlines: the calendars leave them out (their clocks run in seconds on the page)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import Client

from corr.clock.presets import PRESETS
from corr.games import services

from ..live.conftest import START, START_MS, S
from .test_calendar import calendar_path, events

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_users_calendar_keeps_the_correspondence_deadline_and_leaves_out_the_live_game(
        api, postal_game, arbiter, anna, boris, clock, create_game):
    live = services.tournament_create(by=arbiter, name="Live cup", official_start=START.date(), mode="live",
                                      ruleset=PRESETS["fide_classical_live"])
    live_id = create_game(live, white="boris", black="anna")  # boris's clock runs from the start
    clock.advance_to(START_MS + 5 * S)
    client = Client()
    # Before: the feed computed a days clock for the live game too and failed (RulesetError, a 500).
    boris_events = events(client.get(calendar_path(api(boris))))
    assert [str(e["uid"]) for e in boris_events] == []  # he owes nothing in the postal game yet
    anna_events = events(client.get(calendar_path(api(anna))))
    assert [str(e["uid"]) for e in anna_events] == [f"corr-game-{postal_game.pk}-white-move-1@127.0.0.1"]
    assert all(f"/games/{live_id}/" not in str(e["url"]) for e in anna_events + boris_events)


def test_a_live_tournaments_calendar_is_empty(api, arbiter, clock, create_game):
    live = services.tournament_create(by=arbiter, name="Live cup", official_start=START.date(), mode="live",
                                      ruleset=PRESETS["draughts_live"], kind="draughts")
    create_game(live)
    clock.advance_to(START_MS + 5 * S)
    url = api(arbiter).get(f"/api/tournaments/{live.pk}/calendar/").json()["calendar_url"]
    assert events(Client().get(urlsplit(url).path)) == []
