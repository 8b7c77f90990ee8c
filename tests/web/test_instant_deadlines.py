"""Instant deadlines on the pages (issue 22): a time in the reader's zone, and a countdown the page runs.

The game: lichess's 1 day per move counted exactly, in a tournament of Europe/Moscow (UTC+3). White sent
1. e4 at 2026-03-02T10:00:00Z, so black's flag falls 86,400 s later, at 2026-03-03T10:00:00Z: Tuesday
13:00 in Moscow. The pages are read at 12:00:00Z, 22 h before it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.test import Client

from corr.web.describe import countdown_text, deadline_text

from ..server_instants.conftest import BLACK_FLAG, UTC, WHITE_SENT, game_of, instant_tournament, move_at, read_at

pytestmark = pytest.mark.django_db

READ = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
LEFT = int((BLACK_FLAG - READ).total_seconds())  # 22 h = 79,200 s


@pytest.fixture
def exact_game(arbiter, anna, boris, api):
    game = game_of(arbiter, instant_tournament(arbiter), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game


def page(user, path: str, *, at: datetime = READ, language: str = "en") -> str:
    client = Client()
    client.force_login(user)
    response = read_at(client, path, at, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def time_element(html: str) -> str:
    (element,) = re.findall(r"<time class=\"deadline-at\".*?</time>", html, re.S)
    return element


def test_the_game_page_says_the_deadline_as_a_time_in_the_tournaments_zone(exact_game, boris):
    html = page(boris, f"/games/{exact_game.pk}/")
    element = time_element(html)
    assert 'datetime="2026-03-03T10:00:00Z"' in element and "data-countdown" in element
    assert f'data-remaining-seconds="{LEFT}"' in element
    assert "send before Tue 3 Mar 2026, 13:00, Europe/Moscow" in element
    # Without the script the server's count stands: true as of the page's second.
    assert '<span class="countdown">22 h 00 min 00 s left</span>' in element
    # The words of the script come with the element: none are in the script.
    assert 'data-long="%(days)s d %(hours)s h %(minutes)s min left"' in element
    assert 'data-up="time is up"' in element
    # The paragraph under the chart says the same deadline the same way.
    assert "The pending move: send before Tue 3 Mar 2026, 13:00, Europe/Moscow." in html


def test_a_reader_with_a_time_zone_reads_the_deadline_in_it(exact_game, boris, anna):
    anna.time_zone = "Asia/Tokyo"  # UTC+9
    anna.save(update_fields=["time_zone"])
    element = time_element(page(anna, f"/games/{exact_game.pk}/"))
    assert "send before Tue 3 Mar 2026, 19:00, Asia/Tokyo" in element
    assert 'datetime="2026-03-03T10:00:00Z"' in element  # the instant itself is the same for every reader
    assert "Europe/Moscow" in time_element(page(boris, f"/games/{exact_game.pk}/"))


@pytest.mark.parametrize("language, deadline, left, up", [
    ("ru", "отправить до Вт, 3 марта 2026, 13:00, Москва", "осталось 22 ч 00 мин 00 с", "время истекло"),
    ("fr", "à envoyer avant le mar 3 mars 2026, 13:00, Moscou", "reste 22 h 00 min 00 s", "temps écoulé"),
])
def test_the_deadline_and_the_countdown_are_in_the_pages_language(exact_game, boris, language, deadline, left, up):
    element = time_element(page(boris, f"/games/{exact_game.pk}/", language=language))
    assert deadline in element and f'<span class="countdown">{left}</span>' in element
    assert f'data-up="{up}"' in element


def test_my_games_and_the_tournament_page_show_the_same_instant(exact_game, boris, arbiter):
    element = time_element(page(boris, "/games/"))
    assert "send before Tue 3 Mar 2026, 13:00, Europe/Moscow" in element and f'"{LEFT}"' in element
    tournament_page = page(arbiter, f"/tournaments/{exact_game.tournament_id}/")
    assert "send before Tue 3 Mar 2026, 13:00, Europe/Moscow" in time_element(tournament_page)


def test_at_the_flag_the_page_says_time_is_up(exact_game, boris):
    element = time_element(page(boris, f"/games/{exact_game.pk}/", at=BLACK_FLAG - timedelta(seconds=1)))
    assert "00 h 00 min 01 s left" in element
    html = page(boris, f"/games/{exact_game.pk}/", at=BLACK_FLAG + timedelta(minutes=5))
    element = time_element(html)
    assert 'data-remaining-seconds="0"' in element and '<span class="countdown">time is up</span>' in element
    # The calculator's overstepped.at, at the instant itself (example 4 of issue 22), in the reader's zone.
    assert "control 1 exceeded: <span class=\"flag-at\">the flag fell on Tue 3 Mar 2026, 13:00, Europe/Moscow" in html


def test_a_whole_days_game_flags_after_its_last_whole_day(arbiter, anna, boris, api):
    # ICCF 2.4.2, example 3 of issue 22: black, L = 50 whole days left and R = 10:00:00Z, falls at
    # R + (L + 1) x 24 h, but 40 days a move at most (max_per_move): R + 41 x 24 h = 2026-04-12T10:00:00Z.
    t = instant_tournament(arbiter, preset="iccf_10_50")
    game = game_of(arbiter, t, anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    clock = read_at(api(boris), f"/api/games/{game.pk}/", READ).json()["clock"]["players"]["black"]
    element = time_element(page(boris, f"/games/{game.pk}/"))
    assert f'datetime="{clock["flag_at"]}"' in element
    assert f'data-remaining-seconds="{clock["remaining_seconds"]}"' in element
    flag = datetime.fromisoformat(clock["flag_at"].replace("Z", "+00:00"))
    assert deadline_text(at=flag, zone="Europe/Moscow") in element


def test_a_dates_game_keeps_its_deadline_as_a_date(postal_game, anna):
    html = page(anna, f"/games/{postal_game.pk}/", at=datetime(2026, 1, 20, 12, tzinfo=UTC))
    assert '<time class="deadline-at"' not in html and "data-countdown" not in html
    assert re.search(r'<b class="big deadline">\d{4}-\d\d-\d\d</b>', html)


@pytest.mark.parametrize("seconds, text", [
    (2 * 86_400 + 3 * 3_600 + 12 * 60 + 59, "2 d 03 h 12 min left"),  # a day or more: to the minute, cut
    (86_400, "1 d 00 h 00 min left"),
    (86_399, "23 h 59 min 59 s left"),  # under a day: to the second
    (5, "00 h 00 min 05 s left"),
    (0, "time is up"),
])
def test_the_countdown_is_worded_to_the_minute_then_to_the_second(seconds, text):
    assert countdown_text(seconds) == text


def test_the_moves_and_the_history_show_the_instants_in_the_readers_zone(exact_game, anna):
    html = page(anna, f"/games/{exact_game.pk}/")
    assert "Times are in Europe/Moscow." in html
    moves = html[html.index("<h2>Moves</h2>"):html.index("<h2>Ledger</h2>")]
    assert "Mon 2 Mar 2026, 13:00" in moves  # white's 1. e4, sent at 10:00:00Z
    history = html[html.index('id="history"'):]
    assert "sent Mon 2 Mar 2026, 13:00" in history
    anna.time_zone = "Asia/Tokyo"
    anna.save(update_fields=["time_zone"])
    html = page(anna, f"/games/{exact_game.pk}/")
    assert "Times are in Asia/Tokyo." in html and "sent Mon 2 Mar 2026, 19:00" in html


def test_the_move_form_of_an_instant_game_says_the_moment_is_the_sent_time(exact_game, boris, server_game, anna):
    assert "the moment you submit the move is its sent time" in page(boris, f"/games/{exact_game.pk}/")
    dates_page = page(anna, f"/games/{server_game.pk}/", at=datetime(2026, 3, 1, 12, tzinfo=UTC))
    assert "today's date is the sent date" in dates_page and "Times are in" not in dates_page


def test_the_countdown_is_a_static_file_and_the_pages_carry_no_inline_script(exact_game, boris, client):
    # A strict Content-Security-Policy (script-src 'self') must be possible: no code in the page itself.
    for path in (f"/games/{exact_game.pk}/", "/games/"):
        scripts = re.findall(r"<script\b[^>]*>", page(boris, path))
        assert scripts and all("src=" in tag or 'type="application/json"' in tag for tag in scripts), scripts
    script = client.get("/static/corr/countdown.js")
    assert script.status_code == 200
    body = b"".join(script.streaming_content).decode() if script.streaming else script.content.decode()
    code = re.sub(r"^\s*//.*$", "", body, flags=re.M)  # the comments may speak English, the strings may not
    strings = re.findall(r'"([^"]*)"', code)
    assert "time[data-countdown]" in strings
    words = {"time", "up", "left", "min", "d", "h", "s"}
    assert not [text for text in strings if set(text.split()) & words], strings


@pytest.mark.parametrize("language, deadline", [
    ("en", "send before Tue 3 Mar 2026, 09:00, UTC-1"),
    ("ru", "отправить до Вт, 3 марта 2026, 09:00, UTC-1"),
    ("fr", "à envoyer avant le mar 3 mars 2026, 09:00, UTC-1"),
])
def test_a_fixed_offset_zone_is_named_by_its_offset_from_utc_not_by_its_posix_sign(exact_game, anna, language,
                                                                                    deadline):
    """``Etc/GMT+1`` is an hour behind UTC (the tz database's POSIX sign); CLDR's "GMT+1" on ru and fr pages read as an
    hour ahead, so the deadline at 09:00 there looked two hours early (the browser walk of 2026-12-06)."""
    anna.time_zone = "Etc/GMT+1"
    anna.save(update_fields=["time_zone"])
    element = time_element(page(anna, f"/games/{exact_game.pk}/", language=language))
    assert deadline in element
    assert "GMT+1" not in element
