"""A player's pause (OGS) and own calendar (OGS, DGS) over HTTP (issue 40): a pause within its budget stops that
player's clock only, one past the budget is refused naming the field; a calendar set before the player's first
move stops the clock at night and on the weekend in the player's own zone, not the partner's.

Times: 1. e4 is sent at 10:00Z on Monday 2 March 2026 (``WHITE_SENT``): black is to move from then.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import time_machine

from corr.models import EventKind, GameEvent, PlayerCalendar

from ..server_instants.conftest import game_of, instant_tournament, move_at, read_at, z
from .conftest import DAY, WHITE_SENT

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def left(client, game, at, colour="black") -> int:
    """The player's own clock in seconds as the API reads it at ``at``: the system's clock (Fischer's
    ``clock_seconds``, byo-yomi's ``main_seconds``), the time its rules have left the player."""
    r = read_at(client, f"/api/games/{game.pk}/", at)
    assert r.status_code == 200, r.content
    clock = r.json()["clock"]["players"][colour]["clock"]
    return clock["clock_seconds"] if clock["system"] == "fischer" else clock["main_seconds"]


def flag_at(client, game, at, colour="black") -> str:
    return read_at(client, f"/api/games/{game.pk}/", at).json()["clock"]["players"][colour]["flag_at"]


def post_at(client, game, path: str, body: dict, at, language="en"):
    with time_machine.travel(at, tick=False):
        return client.post(f"/api/games/{game.pk}/{path}/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)


@pytest.fixture
def ogs_game(arbiter, anna, boris, api):
    """OGS correspondence Fischer (3 days, +1 a move, at most 7), 4 pauses a game: black to move since WHITE_SENT."""
    game = game_of(arbiter, instant_tournament(arbiter, preset="ogs_fischer_corr"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game


@pytest.fixture
def dgs_new(arbiter, anna, boris):
    """Dragon Go Server's byo-yomi (30 days' main time), players' own calendars: white on move from the
    tournament's start, black's clock not yet run."""
    return game_of(arbiter, instant_tournament(arbiter, preset="dgs_byoyomi_corr"), anna, boris)


@pytest.fixture
def dgs_game(dgs_new, anna, api):
    """``dgs_new`` with 1. e4: black to move since WHITE_SENT."""
    assert move_at(api(anna), dgs_new, 1, "e4", WHITE_SENT).status_code == 201
    return dgs_new


def calendar_then_e4(api, game, anna, boris, body):
    """Black sets ``body`` as his calendar an hour before white's first move (his clock has not run), then 1. e4."""
    r = post_at(api(boris), game, "calendar", body, WHITE_SENT - HOUR)
    assert r.status_code == 201, r.content
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201


def test_a_pause_stops_only_the_pausing_players_clock(ogs_game, anna, boris, api):
    start = WHITE_SENT + HOUR
    black_before, white_before = left(api(anna), ogs_game, start), left(api(anna), ogs_game, start, "white")
    r = post_at(api(boris), ogs_game, "pauses", {"until": z(start + DAY)}, start)
    assert r.status_code == 201, r.content
    # A day later, at the pause's end, black's time left is what it was when he paused: his clock stood still.
    for client in (api(anna), api(boris)):
        assert left(client, ogs_game, start + DAY) == black_before
        assert left(client, ogs_game, start + DAY, "white") == white_before
    # An hour after it his clock runs again, second for second.
    assert left(api(anna), ogs_game, start + DAY + HOUR) == black_before - 3600
    assert [h["kind"] for h in api(anna).get(f"/api/games/{ogs_game.pk}/history/").json()][-1] == "pause"


def test_a_pause_moves_the_flag_by_its_length(ogs_game, boris, api):
    start = WHITE_SENT + HOUR
    before = flag_at(api(boris), ogs_game, start)
    assert post_at(api(boris), ogs_game, "pauses", {"until": z(start + DAY)}, start).status_code == 201
    assert flag_at(api(boris), ogs_game, start) == z(datetime.fromisoformat(before) + DAY)


def test_the_partners_pause_does_not_stop_the_player_on_move(ogs_game, anna, api):
    start = WHITE_SENT + HOUR
    black_before = left(api(anna), ogs_game, start)
    assert post_at(api(anna), ogs_game, "pauses", {"until": z(start + DAY)}, start).status_code == 201
    assert left(api(anna), ogs_game, start + 2 * HOUR) == black_before - 2 * 3600


@pytest.mark.parametrize("language, words", [("en", "pause"), ("ru", "пауз"), ("fr", "pause")])
def test_a_pause_past_the_games_budget_is_refused_naming_the_field(ogs_game, boris, api, language, words):
    at = WHITE_SENT + HOUR
    for _n in range(4):  # the preset's 4 pauses, an hour each, an hour apart
        assert post_at(api(boris), ogs_game, "pauses", {"until": z(at + HOUR)}, at).status_code == 201
        at += 2 * HOUR
    r = post_at(api(boris), ogs_game, "pauses", {"until": z(at + HOUR)}, at, language)
    assert r.status_code == 400, r.content
    assert r.json()["field"] == "until", r.json()
    assert words in r.json()["detail"].lower(), r.json()
    assert GameEvent.objects.filter(game=ogs_game, kind=EventKind.PAUSE).count() == 4
    # A pause that ends before it starts is refused naming until too, nothing stored.
    r = post_at(api(boris), ogs_game, "pauses", {"until": z(at - HOUR)}, at)
    assert (r.status_code, r.json()["field"]) == (400, "until"), r.content
    assert GameEvent.objects.filter(game=ogs_game, kind=EventKind.PAUSE).count() == 4


def test_a_pause_where_the_rules_have_none_is_refused(dgs_game, boris, api):
    r = post_at(api(boris), dgs_game, "pauses", {"until": z(WHITE_SENT + DAY)}, WHITE_SENT + HOUR, "ru")
    assert r.status_code == 400 and r.json()["field"] == "until", r.content
    assert "pauses_per_game" in r.json()["detail"]


def test_a_calendar_stops_the_clock_at_night_in_the_players_zone(dgs_new, anna, boris, api):
    # Black's night in Tokyo (UTC+9, no summer time) is 22:00-07:00: 13:00Z to 22:00Z.
    dgs_game = dgs_new
    calendar_then_e4(api, dgs_game, anna, boris, {"time_zone": "Asia/Tokyo", "night_from": "22:00",
                                                  "night_hours": 9})
    assert PlayerCalendar.objects.get(game=dgs_game, player="black").time_zone == "Asia/Tokyo"
    # From 11:00Z to 23:00Z, 12 hours of which 9 are his night: 3 hours charged, by both players' reading.
    before = left(api(anna), dgs_game, WHITE_SENT + HOUR)
    for client in (api(anna), api(boris)):
        assert left(client, dgs_game, WHITE_SENT + 13 * HOUR) == before - 3 * 3600
    # White's clock keeps no night of black's: her own night is none, and her move's time is untouched.
    assert move_at(api(boris), dgs_game, 1, "e5", WHITE_SENT + 13 * HOUR).status_code == 201
    white = left(api(anna), dgs_game, WHITE_SENT + 13 * HOUR, "white")
    assert left(api(anna), dgs_game, WHITE_SENT + 23 * HOUR, "white") == white - 10 * 3600


def test_a_calendar_stops_the_clock_on_the_players_own_weekend(dgs_new, anna, boris, api):
    dgs_game = dgs_new
    calendar_then_e4(api, dgs_game, anna, boris, {"time_zone": "Asia/Tokyo", "weekend_days": ["saturday"]})
    # Saturday 7 March in Tokyo is 15:00Z on Friday to 15:00Z on Saturday. Friday 14:00Z to Saturday 16:00Z:
    # 26 hours, 24 of them his Saturday: 2 hours charged (in UTC's Saturday it would be 16 hours charged).
    friday = WHITE_SENT.replace(day=6, hour=14)
    before = left(api(anna), dgs_game, friday)
    assert left(api(anna), dgs_game, friday + 26 * HOUR) == before - 2 * 3600


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_calendar_after_the_players_first_move_or_with_a_bad_field_is_refused(dgs_new, anna, boris, api,
                                                                               language):
    dgs_game = dgs_new
    r = post_at(api(boris), dgs_game, "calendar", {"time_zone": "Mars/Olympus"}, WHITE_SENT - HOUR, language)
    assert r.status_code == 400 and r.json()["field"] == "time_zone", r.content
    r = post_at(api(boris), dgs_game, "calendar", {"night_from": "25:00", "night_hours": 9}, WHITE_SENT - HOUR,
                language)
    assert r.status_code == 400 and r.json()["field"] == "night_from", r.content
    assert move_at(api(anna), dgs_game, 1, "e4", WHITE_SENT).status_code == 201
    assert move_at(api(boris), dgs_game, 1, "e5", WHITE_SENT + 2 * HOUR).status_code == 201
    r = post_at(api(boris), dgs_game, "calendar", {"weekend_days": ["sunday"]}, WHITE_SENT + 3 * HOUR, language)
    assert r.status_code == 400 and r.json()["field"] == "calendar", r.content
    assert not PlayerCalendar.objects.filter(game=dgs_game).exists()


LATE_WORDS = {"en": "your clock has run already", "ru": "ваши часы уже шли", "fr": "votre pendule a déjà tourné"}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_a_calendar_once_the_players_clock_has_run_is_refused_giving_back_no_night_or_weekend(
        dgs_game, anna, boris, api, language):
    # Issue 40 review: the calendar counts for the whole game. Black has been on move since WHITE_SENT (a
    # Monday): set on Saturday with Monday to Friday as his weekend, it would give back the week already charged.
    saturday = WHITE_SENT.replace(day=7)
    before = left(api(anna), dgs_game, saturday)
    weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"]
    r = post_at(api(boris), dgs_game, "calendar", {"weekend_days": weekdays}, saturday, language)
    assert r.status_code == 400 and r.json()["field"] == "calendar", r.content
    assert LATE_WORDS[language] in r.json()["detail"], r.json()
    assert not PlayerCalendar.objects.filter(game=dgs_game).exists()
    assert not GameEvent.objects.filter(game=dgs_game, kind=EventKind.CALENDAR).exists()
    assert left(api(anna), dgs_game, saturday) == before
    # White, the first mover, has been on move since the game's clock start (00:00 on 2 March in Moscow).
    r = post_at(api(anna), dgs_game, "calendar", {"weekend_days": ["sunday"]}, saturday, language)
    assert r.status_code == 400 and r.json()["field"] == "calendar", r.content
