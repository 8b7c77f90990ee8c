"""See before you act (issue 41), the rest of the forms, in chromium at 1280 and 390 px, in English and Russian.

A server move, played on the board or typed, is previewed before it is confirmed, and the clock stored by the
confirmation is the clock the preview gave; the arbiter's delay, "Give time back" and result forms preview their
effect before the confirmation, a credit that brings a player back within the control saying that the overstep
case would be withdrawn. What each page shows is compared with what the preview API answers for the same event
in the same language (``test_previews_in_a_browser.api_changes``), never with words written here, and every
page state is checked for layout problems (``layout_problems.js``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.games import services
from corr.models import Game, GameEvent

from ..conftest import client_for
from .test_move_board_in_a_browser import BOARD, click_square, wait_for
from .test_previews_in_a_browser import CASES, shown, speak

pytestmark = pytest.mark.django_db(transaction=True)


def previewed(user, game, event: dict, language: str) -> dict:
    """The preview API's whole answer for ``event`` on ``game``, in ``language``."""
    answer = client_for(user).post(f"/api/games/{game.pk}/preview/", {"events": [event]}, format="json",
                                   HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200, answer.content
    return answer.json()


def stored_clock(user, game) -> dict:
    """The game's clock as ``GET /api/games/{id}/`` gives it now, its players' accounts and time left."""
    body = client_for(user).get(f"/api/games/{game.pk}/").json()
    return {"players": body["clock"]["players"], "time_left": body["time_left"], "to_move": body["to_move"]}


def same_shape(preview: dict) -> dict:
    return {"players": preview["clock"]["players"], "time_left": preview["time_left"],
            "to_move": preview["to_move"]}


def fire(page, css: str) -> None:
    """A change event on ``css``, as a picked date or choice fires it (``Page.fill`` sets date values by script)."""
    page.driver.execute_script(
        "document.querySelector(arguments[0]).dispatchEvent(new Event('change', {bubbles: true}))", css)


# The two ways of moving cross the widths and the languages: each width and each language sees both.
WAYS = [("desktop", "en", "board"), ("desktop", "ru", "typed"), ("phone", "en", "typed"), ("phone", "ru", "board")]


@pytest.mark.parametrize(("width", "language", "way"), WAYS)
def test_a_server_move_is_previewed_before_it_is_confirmed_and_stores_the_clock_previewed(
        page, server_game, anna, width, language, way):
    game = server_game
    page.width(width).sign_in(anna)
    speak(page, language)
    page.open(f"/games/{game.pk}/")
    assert page.find("#move-form output[data-preview]").text == ""  # no move yet: nothing to preview
    if way == "board":
        wait_for(page, f"{BOARD} .mb-board svg")
        click_square(page, "e2")
        click_square(page, "e4")
        wait_for(page, f"{BOARD} .mb-confirm")
        notation = page.find("#move-notation").get_attribute("value")
        assert notation  # the board wrote the move shown into the typed form, so the form previews it
    else:
        page.fill("#move-notation", notation := "e4")
    text = shown(page, "#move-form")
    want = previewed(anna, game, {"kind": "move", "number": 1, "notation": notation}, language)
    assert want["changes"] and text.splitlines() == want["changes"]
    assert not GameEvent.objects.filter(game=game, kind="move").exists()  # nothing stored before the confirmation
    assert page.layout_problems() == []
    page.screenshot(f"preview-server-move-{way}-{width}-{language}")

    page.click(f"{BOARD} .mb-send" if way == "board" else "#move-form button[type=submit]")
    assert GameEvent.objects.filter(game=game, kind="move", player="white", number=1).exists()
    assert stored_clock(anna, game) == same_shape(want)
    assert page.layout_problems() == []


@pytest.fixture
def postal(arbiter, anna, boris):
    """A postal game started ``days_ago`` days ago (30 days a control), white (anna) to move."""
    def make(days_ago: int) -> Game:
        today = timezone.localdate()
        t = services.tournament_create(by=arbiter, name="Preview cup", mode="postal", presumed_transit_days=4,
                                       official_start=today - timedelta(days=days_ago))
        return services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=today)
    return make


@pytest.mark.parametrize(("width", "language"), CASES)
def test_an_arbiters_delay_is_previewed_then_charged_as_previewed(page, postal, arbiter, width, language):
    game = postal(20)
    page.width(width).sign_in(arbiter)
    speak(page, language)
    page.open(f"/games/{game.pk}/")
    page.fill("#delay-player", "white")
    page.fill("#delay-days", "4")
    fire(page, "#delay-days")
    text = shown(page, "#delay-form")
    want = previewed(arbiter, game, {"kind": "delay", "player": "white", "days": 4}, language)
    assert want["changes"] and text.splitlines() == want["changes"]
    assert not GameEvent.objects.filter(game=game, kind="delay").exists()
    assert page.layout_problems() == []

    page.click("#delay-form button[type=submit]")
    assert GameEvent.objects.filter(game=game, kind="delay", player="white", days=4).exists()
    assert stored_clock(arbiter, game) == same_shape(want)


@pytest.mark.parametrize(("width", "language"), CASES)
def test_time_given_back_is_previewed_and_says_the_overstep_case_would_be_withdrawn(page, postal, arbiter,
                                                                                   width, language):
    game = postal(35)  # white has not moved: 35 days used of 30, over the control
    assert stored_clock(arbiter, game)["players"]["white"]["overstepped"]
    page.width(width).sign_in(arbiter)
    speak(page, language)
    page.open(f"/games/{game.pk}/")
    page.fill("#credit-player", "white")
    page.fill("#credit-days", "10")
    page.fill("#credit-reason", "postal strike")
    fire(page, "#credit-reason")
    text = shown(page, "#credit-form")
    want = previewed(arbiter, game, {"kind": "credit", "player": "white", "days": 10, "reason": "postal strike"},
                     language)
    assert text.splitlines() == want["changes"]
    # 25 of 30 days after the credit: back in control 1, the overstep's case withdrawn.
    assert want["clock"]["players"]["white"]["overstepped"] is None
    if language == "en":
        assert "white would be back in control 1: its overstep case would be withdrawn" in want["changes"]
    assert not GameEvent.objects.filter(game=game, kind="credit").exists()
    assert page.layout_problems() == []
    page.screenshot(f"preview-credit-{width}-{language}")

    page.click("#credit-form button[type=submit]")
    assert GameEvent.objects.filter(game=game, kind="credit", player="white").exists()
    assert stored_clock(arbiter, game) == same_shape(want)


@pytest.mark.parametrize(("width", "language"), CASES)
def test_an_arbiters_result_is_previewed_before_its_confirmation(page, postal, arbiter, width, language):
    game = postal(20)
    page.width(width).sign_in(arbiter)
    speak(page, language)
    page.open(f"/games/{game.pk}/")
    page.fill("#result-result", "0-1")
    page.fill("#result-termination", "white resigned")
    fire(page, "#result-result")
    text = shown(page, "#result-form")
    want = previewed(arbiter, game, {"kind": "result", "result": "0-1", "termination": "white resigned"},
                     language)
    assert want["changes"] and text.splitlines() == want["changes"]
    assert want["to_move"] is None  # a finished game: nobody is on move
    game.refresh_from_db()
    assert game.status == "ongoing" and game.result == ""  # nothing stored
    assert page.layout_problems() == []

    page.click("#result-form button[type=submit]")  # the confirmation page: still nothing stored
    game.refresh_from_db()
    assert game.status == "ongoing"
    assert page.layout_problems() == []
