"""An instant deadline in a real browser (issue 22): the local time, and a countdown that runs, at 1280 and 390 px.

A server game on lichess's 1 day per move (counted exactly), in Moscow's tournament: white moved 3 h 12 min
ago by the server's real clock (the browser keeps its own time), so black's flag falls in 20 h 48 min and the
countdown shows seconds. ``make screenshots`` saves the pages into screenshots/ (``-k screenshots``).
"""

from __future__ import annotations

import re
import time
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone, translation

from corr.games import services
from corr.games.clockstate import local_today
from corr.models import GameEvent
from corr.web.describe import deadline_text

pytestmark = pytest.mark.django_db(transaction=True)

ZONE = "Europe/Moscow"
COUNTDOWN = "time[data-countdown] .countdown"


@pytest.fixture
def instant_game(arbiter, anna, boris):
    now = timezone.now().replace(microsecond=0)  # the service keeps instants to the second
    moved = now - timedelta(hours=3, minutes=12)
    # Started on the day of white's move (00:00 in Moscow): white's 1. e4 is within its own day.
    start = moved.astimezone(ZoneInfo(ZONE)).date()
    t = services.tournament_create(by=arbiter, name="Browser lichess", official_start=start,
                                   mode="server", preset="lichess_days_1", time_zone=ZONE)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=start)
    services.move_submit(game=game, by=anna, number=1, notation="e4", today=local_today(t, moved), now=moved)
    return game


def expected_deadline(game) -> str:
    """The words the page must show: 24 h after white's move, in Moscow's time, in English."""
    sent_at = GameEvent.objects.get(game=game, kind="move").sent_at
    with translation.override("en"):
        return deadline_text(at=sent_at + timedelta(days=1), zone=ZONE)


def changes_within(page, css: str, seconds: float) -> tuple[str, str]:
    """The text of ``css`` now, and the first different text it shows within ``seconds`` (polled, not slept)."""
    first = page.find(css).text
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        now = page.find(css).text
        if now != first:
            return first, now
        time.sleep(0.2)
    raise AssertionError(f"{css} still says {first!r} after {seconds} s")


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_screenshots_of_an_instant_deadline_counting_down(page, instant_game, boris, width):
    page.width(width).sign_in(boris).open(f"/games/{instant_game.pk}/")
    deadline = page.find("time[data-countdown]")
    assert page.find("time[data-countdown] .deadline-text").text == expected_deadline(instant_game)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", deadline.get_attribute("datetime"))
    first, later = changes_within(page, COUNTDOWN, 10)
    for text in (first, later):  # under a day: to the second, 20 h 48 min or a little less
        assert re.fullmatch(r"20 h 4[78] min \d\d s left", text), text
    assert page.visible_in_width("time[data-countdown]") and page.visible_in_width(".card .remaining")
    assert page.no_horizontal_scroll(), width
    assert page.screenshot(f"instant-game-{width}").stat().st_size > 0
    # My games lists the same deadline, counting down as well.
    page.open("/games/")
    assert page.find("time[data-countdown] .deadline-text").text == expected_deadline(instant_game)
    changes_within(page, COUNTDOWN, 10)
    assert page.no_horizontal_scroll(), width
    assert page.screenshot(f"instant-my-games-{width}").stat().st_size > 0


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_screenshots_of_an_instant_deadline_for_the_arbiter_and_in_russian(page, instant_game, arbiter, boris, width):
    page.width(width).sign_in(arbiter).open(f"/tournaments/{instant_game.tournament_id}/")
    assert page.find("time[data-countdown] .deadline-text").text == expected_deadline(instant_game)
    changes_within(page, COUNTDOWN, 10)
    assert page.no_horizontal_scroll(), width
    assert page.screenshot(f"instant-tournament-{width}").stat().st_size > 0
    # Russian, the longest words of the three languages: still nothing sideways.
    page.sign_in(boris)
    page.driver.add_cookie({"name": "django_language", "value": "ru", "path": "/"})
    page.open(f"/games/{instant_game.pk}/")
    assert page.find("time[data-countdown] .deadline-text").text.startswith("отправить до ")
    first, later = changes_within(page, COUNTDOWN, 10)
    assert re.fullmatch(r"осталось 20 ч 4[78] мин \d\d с", later), later
    assert page.no_horizontal_scroll(), width
    assert page.screenshot(f"instant-game-ru-{width}").stat().st_size > 0


def test_without_the_script_the_page_keeps_the_servers_countdown(page, instant_game, boris):
    page.width("phone").sign_in(boris)
    page.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        page.open(f"/games/{instant_game.pk}/")
        assert page.find("time[data-countdown] .deadline-text").text == expected_deadline(instant_game)
        assert re.fullmatch(r"20 h 4[78] min \d\d s left", page.find(COUNTDOWN).text)
    finally:
        page.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_a_player_sends_the_move_in_real_time_and_the_partners_countdown_starts(page, instant_game, boris, anna):
    page.width("desktop").sign_in(boris).open(f"/games/{instant_game.pk}/")
    page.fill("#move-notation", "c5")
    page.click("#move-form button[type=submit]")
    assert page.find("#turn").text.startswith("anna's move 2: on move, deadline")
    page.sign_in(anna).open(f"/games/{instant_game.pk}/")
    first, later = changes_within(page, COUNTDOWN, 10)
    # Opened within the second of the move, the page has the whole day left ("1 d 00 h 00 min left").
    assert first == "1 d 00 h 00 min left" or re.fullmatch(r"23 h 59 min \d\d s left", first), first
    assert re.fullmatch(r"23 h 59 min \d\d s left", later), later


def test_the_countdown_says_time_is_up_when_it_reaches_zero(page, arbiter, anna, boris):
    now = timezone.now().replace(microsecond=0)
    moved = now - timedelta(days=1) + timedelta(seconds=4)  # black's flag falls 4 s from now
    start = moved.astimezone(ZoneInfo(ZONE)).date()
    t = services.tournament_create(by=arbiter, name="Browser lichess, last seconds", official_start=start,
                                   mode="server", preset="lichess_days_1", time_zone=ZONE)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=start)
    services.move_submit(game=game, by=anna, number=1, notation="e4", today=local_today(t, moved), now=moved)
    page.width("phone").sign_in(boris).open(f"/games/{game.pk}/")
    until = time.monotonic() + 10
    while page.find(COUNTDOWN).text != "time is up":
        assert time.monotonic() < until, page.find(COUNTDOWN).text
        time.sleep(0.2)
    assert "time-up" in page.find("time[data-countdown]").get_attribute("class")
