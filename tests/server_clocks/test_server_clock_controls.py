"""The game page's controls for each server's own clock (issue 40), through the test client: shown only where the
tournament's rules allow them, refusals beside the field they name in the reader's language, and the API's
``vacation_text`` the page's own sentence.
"""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from corr.models import EventKind, GameEvent, PlayerCalendar

from ..server_instants.conftest import game_of, instant_tournament, move_at, read_at
from .conftest import DAY, WHITE_SENT

pytestmark = pytest.mark.django_db
FORMS = ("pause-form", "vacation-form", "calendar-form", "gift-form")


def client_of(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def page(user, game, at, language="en") -> str:
    with time_machine.travel(at, tick=False):
        r = client_of(user, language).get(f"/games/{game.pk}/")
    assert r.status_code == 200
    return r.content.decode()


@pytest.fixture
def server_game(arbiter, anna, boris, api):
    def make(preset, moved=True):
        game = game_of(arbiter, instant_tournament(arbiter, preset=preset), anna, boris)
        if moved:
            assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
        return game
    return make


@pytest.mark.parametrize("preset, shown", [  # black on move: his calendar's time is past (the next test)
    ("ogs_fischer_corr", {"pause-form"}),
    ("dgs_byoyomi_corr", {"vacation-form", "gift-form"}),
    ("chesscom_daily_3", {"vacation-form"}),
    ("lichess_corr_3", {"gift-form"}),
    ("lichess_days_3", set()),
])
def test_each_control_is_shown_only_where_the_rules_allow_it(server_game, boris, preset, shown):
    text = page(boris, server_game(preset), WHITE_SENT + timedelta(hours=2))
    assert {f for f in FORMS if f'id="{f}"' in text} == shown


def test_the_calendar_control_goes_once_the_players_clock_has_run(server_game, anna, boris, api):
    game = server_game("ogs_fischer_corr", moved=False)
    before = WHITE_SENT - timedelta(hours=1)
    assert 'id="calendar-form"' not in page(anna, game, before)  # white's clock runs from the game's start
    assert 'id="calendar-form"' in page(boris, game, before)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    assert 'id="calendar-form"' not in page(boris, game, WHITE_SENT + timedelta(hours=1))  # black is on move


@pytest.mark.parametrize("language, words", [("en", "Pause until"), ("ru", "Пауза до")])
def test_a_pause_in_the_past_is_refused_beside_until_in_the_readers_language(server_game, boris, language, words):
    game = server_game("ogs_fischer_corr")
    at = WHITE_SENT + timedelta(hours=2)
    with time_machine.travel(at, tick=False):  # boris's zone is the tournament's, Moscow (UTC+3): 13:00 local
        r = client_of(boris, language).post(f"/games/{game.pk}/pause/", {"until": "2026-03-02T12:00"})
    assert r.status_code == 400
    text = html.unescape(r.content.decode())
    assert f"{words}: " in text and "until" in text, text[:3000]
    assert not GameEvent.objects.filter(game=game, kind=EventKind.PAUSE).exists()
    # A value the datetime-local input would never send is refused by the form, naming the format.
    with time_machine.travel(at, tick=False):
        r = client_of(boris, language).post(f"/games/{game.pk}/pause/", {"until": "07.03.2026 12:00"})
    assert r.status_code == 400 and "2026-03-07T12:00" in r.content.decode()


def test_a_pause_and_a_calendar_through_the_page_are_the_apis(server_game, anna, boris, api):
    game = server_game("ogs_fischer_corr", moved=False)
    with time_machine.travel(WHITE_SENT - timedelta(hours=1), tick=False):  # before black's clock runs
        r = client_of(boris).post(f"/games/{game.pk}/calendar/", {"time_zone": "Australia/Brisbane",
                                                                "weekend_days": ["saturday", "sunday"]})
        assert r.status_code == 302, r.content.decode()[:2000]
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    at = WHITE_SENT + timedelta(hours=2)
    with time_machine.travel(at, tick=False):
        # 15:00 in Moscow is 12:00Z: a day's pause from the page ends at the instant typed, in the reader's zone.
        r = client_of(boris).post(f"/games/{game.pk}/pause/", {"until": "2026-03-03T15:00"})
        assert r.status_code == 302, r.content.decode()[:2000]
    calendar = PlayerCalendar.objects.get(game=game, player="black")
    assert (calendar.time_zone, calendar.weekend_days) == ("Australia/Brisbane", ["saturday", "sunday"])
    pause = GameEvent.objects.get(game=game, kind=EventKind.PAUSE)
    assert pause.sent_at.isoformat() == "2026-03-03T12:00:00+00:00"
    assert "3 pauses of 4 left" in page(boris, game, at + timedelta(minutes=1))


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_apis_vacation_text_is_the_pages_sentence(server_game, anna, boris, api, language):
    game = server_game("chesscom_daily_3")
    later = WHITE_SENT + 4 * DAY  # a day past black's flag: on automatic vacation
    body = read_at(api(anna), f"/api/games/{game.pk}/", later, HTTP_ACCEPT_LANGUAGE=language).json()
    sentence = body["vacation_text"]["black"]
    assert body["vacation_text"]["white"] is None
    assert str(body["clock"]["players"]["black"]["vacation"]["left_hours"]) in sentence
    for user in (anna, boris):
        assert html.escape(sentence) in page(user, game, later, language)
    # Before the flag there is none, in GET and on the page.
    body = read_at(api(anna), f"/api/games/{game.pk}/", WHITE_SENT + DAY, HTTP_ACCEPT_LANGUAGE=language).json()
    assert body["vacation_text"] == {"white": None, "black": None}
