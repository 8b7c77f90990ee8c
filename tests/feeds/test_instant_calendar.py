"""Instant deadlines in the calendar feeds (issue 22): an event at the flag's time in UTC, not a whole day.

The game of ``tests/web/test_instant_deadlines.py``: lichess's 1 day per move, counted exactly, Moscow's
tournament; white sent 1. e4 at 2026-03-02T10:00:00Z, so black must send before 2026-03-03T10:00:00Z.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlsplit

import pytest
from icalendar import Calendar

from corr.feeds.ics import ALARM_BEFORE_INSTANT, INSTANT_EVENT

from ..server_instants.conftest import BLACK_FLAG, UTC, WHITE_SENT, game_of, instant_tournament, move_at, read_at

pytestmark = pytest.mark.django_db

READ = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def exact_game(arbiter, anna, boris, api):
    game = game_of(arbiter, instant_tournament(arbiter), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game


def feed(client, api, user, *, tournament=None) -> bytes:
    if tournament is None:
        url = read_at(api(user), "/api/users/me/", READ).json()["calendar_url"]
    else:
        url = read_at(api(user), f"/api/tournaments/{tournament.pk}/calendar/", READ).json()["calendar_url"]
    response = read_at(client, urlsplit(url).path, READ)
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    return response.content


def test_an_instant_deadline_is_an_event_at_its_time_in_utc(client, api, exact_game, boris):
    body = feed(client, api, boris)
    text = body.decode().replace("\r\n ", "")  # RFC 5545 folds long lines: unfold before reading them
    # The exported text itself: a UTC time (the Z form), no all-day VALUE=DATE.
    assert "DTSTART:20260303T100000Z\r\n" in text and "DTEND:20260303T101500Z\r\n" in text
    assert "DTSTART;VALUE=DATE" not in text
    (event,) = Calendar.from_ical(body).walk("VEVENT")
    assert event.decoded("dtstart") == BLACK_FLAG
    assert event.decoded("dtend") - event.decoded("dtstart") == INSTANT_EVENT == timedelta(minutes=15)
    assert event["uid"] == f"corr-game-{exact_game.pk}-black-move-1@127.0.0.1"
    # The words are the pages' (the tournament's zone: boris has none of his own).
    assert "Move 1: on move, deadline Tue 3 Mar 2026, 13:00, Europe/Moscow;" in str(event["description"])
    (alarm,) = event.walk("VALARM")
    assert alarm.decoded("trigger") == -ALARM_BEFORE_INSTANT == timedelta(hours=-2)


def test_the_feed_words_the_instant_in_its_readers_zone_and_language(client, api, exact_game, boris):
    boris.time_zone, boris.language = "America/New_York", "fr"  # UTC-5 in March, before the US switch (8 March)
    boris.save(update_fields=["time_zone", "language"])
    (event,) = Calendar.from_ical(feed(client, api, boris)).walk("VEVENT")
    assert event.decoded("dtstart") == BLACK_FLAG  # the instant does not move with the reader
    assert "au trait, échéance mar 3 mars 2026, 05:00, New York" in str(event["description"])


def test_the_arbiters_feed_puts_the_instant_at_its_time_too(client, api, exact_game, arbiter):
    (event,) = Calendar.from_ical(feed(client, api, arbiter, tournament=exact_game.tournament)).walk("VEVENT")
    assert event.decoded("dtstart") == BLACK_FLAG
    assert "boris" in str(event["summary"]) and "Europe/Moscow" in str(event["description"])
