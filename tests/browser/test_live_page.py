"""The live page in a real browser (chromium), served by daphne with its WebSocket (corr/asgi.py).

The server runs in its own process (``daphne.testing.DaphneProcess``, as Channels'
``ChannelsLiveServerTestCase`` runs it) on the test database, with the in-memory channel layer of
the embedded run: the move made through the API and the push it causes happen in that process, as
in ``make run``. Real time here (no injected clock): the server's clock is the only clock.
"""

from __future__ import annotations

import time

import pytest
import requests
from django.utils import timezone
from rest_framework.authtoken.models import Token

from corr.models import LiveEvent

from .conftest import Page

pytestmark = pytest.mark.django_db(transaction=True)


def api_post(base: str, user, path: str, body: dict) -> requests.Response:
    token, _ = Token.objects.get_or_create(user=user)
    return requests.post(base + path, json=body, headers={"Authorization": f"Token {token.key}"}, timeout=20)


FISCHER_5_5 = {"system": "fischer", "initial": 300, "increment": 5}
"""Five minutes and 5 s a move, in seconds: the live tests' usual clock."""


def live_game_made(base: str, arbiter, name: str, control: dict = FISCHER_5_5) -> int:
    """Through the API: a live tournament ``name`` with ``control`` (seconds) and its game anna (white) against
    boris starting now; the game's id."""
    t = api_post(base, arbiter, "/api/tournaments/", {
        "name": name, "official_start": timezone.now().date().isoformat(), "mode": "live",
        "ruleset": {"time_control": {"unit": "seconds", **control}}})
    assert t.status_code == 201, t.text
    g = api_post(base, arbiter, "/api/games/", {"tournament": t.json()["id"], "white": "anna", "black": "boris",
                                                "starts_at": timezone.now().isoformat()})
    assert g.status_code == 201, g.text
    return g.json()["id"]


def wait_for(condition, what: str, seconds: float = 15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not seen within {seconds} s: {what}")


def test_the_clock_changes_by_a_push_after_a_move_through_the_api_and_the_button_makes_the_next(
        browser, asgi_server, arbiter, anna, boris):
    game = live_game_made(asgi_server, arbiter, "Live in a browser")

    page = Page(browser, asgi_server).width("phone").sign_in(boris).open(f"/games/{game}/")
    wait_for(lambda: page.find("#live").get_attribute("data-connection") == "live", "the WebSocket open")
    white, black = page.find("#clock-white"), page.find("#clock-black")
    assert "running" in white.get_attribute("class") and "running" not in black.get_attribute("class")
    assert page.find("#move-made").get_attribute("disabled") is not None  # white's turn, not boris's
    # White's clock counts down in the page, between pushes.
    shown = white.find_element("css selector", ".live-time").text
    wait_for(lambda: white.find_element("css selector", ".live-time").text != shown, "white's clock counting down")
    version = int(page.find("#live").get_attribute("data-version"))

    # anna moves through the API: the page sees it by the push alone (no reload, no polling).
    r = api_post(asgi_server, anna, f"/api/games/{game}/moves/", {"number": 1, "notation": "e4"})
    assert r.status_code in (200, 201), r.text
    wait_for(lambda: "running" in black.get_attribute("class"), "black's clock running after the push")
    assert "running" not in white.get_attribute("class")
    assert int(page.find("#live").get_attribute("data-version")) > version
    white_after = white.find_element("css selector", ".live-time").text
    time.sleep(1.2)
    assert white.find_element("css selector", ".live-time").text == white_after  # stopped
    assert black.find_element("css selector", ".live-time").text != "5:00"  # counting

    # boris answers with the large button on the phone, notation typed beside it.
    assert page.visible_in_width("#move-made") and page.no_horizontal_scroll()
    assert page.find("#move-made").size["height"] >= 60
    page.fill("#live-notation", "c5")
    page.click("#move-made", navigates=False)
    wait_for(lambda: "running" in white.get_attribute("class"), "white's clock running after boris's move")
    move = wait_for(lambda: LiveEvent.objects.filter(game_id=game, kind="move", player="black").first(),
                    "boris's move stored")
    assert (move.number, move.notation) == (1, "c5")
    assert "1" in page.find("#move-message").text
    page.screenshot("live-game-phone")

    # The spoken countdown's switches: one per clock, kept on this device across a reload.
    switch = page.find("#speak-black")
    assert not switch.is_selected()
    page.click("#speak-black", navigates=False)
    assert page.driver.execute_script(f"return localStorage.getItem('corr.live.speak.{game}.black')") == "1"
    page.driver.refresh()
    wait_for(lambda: page.find("#live").get_attribute("data-connection") == "live", "the WebSocket open again")
    assert page.find("#speak-black").is_selected() and not page.find("#speak-white").is_selected()

    # The arbiter's page at 1280 px: the clocks and the controls; pausing stops both clocks by a push.
    page.width("desktop").sign_in(arbiter).open(f"/games/{game}/")
    wait_for(lambda: page.find("#live").get_attribute("data-connection") == "live", "the arbiter's WebSocket")
    for control in ("#live-pause", "#live-resume", "#live-adjust-form", "#live-illegal-form", "#live-result-form"):
        assert page.find(control).is_displayed(), control
    page.fill("#pause-reason", "a phone rang")
    page.click("#live-pause", navigates=False)
    wait_for(lambda: "paused" in page.find("#live").get_attribute("class"), "the clocks paused by the push")
    assert not page.all("#clock-white.running, #clock-black.running")
    assert LiveEvent.objects.get(game_id=game, kind="pause").reason == "a phone rang"
    page.screenshot("live-game-arbiter-desktop")

    # The arbiter ends the game through the API: the open page redraws itself for it by the push (issue 24).
    r = api_post(asgi_server, arbiter, f"/api/games/{game}/result/", {"result": "1/2-1/2", "termination": "agreed"})
    assert r.status_code in (200, 201), r.text
    wait_for(lambda: page.find("#live-status").text == "game over", "the page told the game ended")
    assert page.find("#game-state").text == "finished 1/2-1/2 (agreed)"
    assert not page.find("#live-arbiter-ongoing").is_displayed()


def test_the_move_button_sends_the_lag_from_the_press_and_the_server_forgives_it_within_the_quota(
        browser, asgi_server, arbiter, anna, boris):
    """live.js sends ``lag_ms``, the time from the press of the button to the request leaving (as lichess's
    client does); the server stores it with the move and forgives it within lichess's quota, never beyond.

    1+0 is estimated at 60 s: the quota's gain is 60 x 2/5 + 15 = 39 cs, so a player starts with 1.17 s and
    regains 0.39 s a move less what was forgiven (corr.clock.live.lag).
    """
    from selenium.webdriver.common.action_chains import ActionChains

    gain, start = 390, 1170
    game = live_game_made(asgi_server, arbiter, "Lag in a browser",
                          {"system": "fischer", "initial": 60, "increment": 0})
    page = Page(browser, asgi_server).width("desktop").sign_in(anna).open(f"/games/{game}/")
    wait_for(lambda: page.find("#live").get_attribute("data-connection") == "live", "the WebSocket open")

    def white_quota() -> int:
        token, _ = Token.objects.get_or_create(user=anna)
        live = requests.get(f"{asgi_server}/api/games/{game}/", headers={"Authorization": f"Token {token.key}"},
                            timeout=20).json()["live"]
        return live["players"]["white"]["lag_quota_ms"]

    def stored(number: int) -> LiveEvent:
        return wait_for(lambda: LiveEvent.objects.filter(game_id=game, kind="move", player="white",
                                                         number=number).first(), f"anna's move {number} stored")

    def sent() -> list:
        return page.driver.execute_script("return window.corrLiveSent.slice()")

    assert white_quota() == start
    # A click: the press and the request a few ms apart. What the page sent is what the server stored.
    page.click("#move-made", navigates=False)
    first = stored(1)
    assert sent()[0]["lag_ms"] == first.lag_ms and 0 <= first.lag_ms < 500
    quota = start + gain - first.lag_ms  # all of it forgiven, the gain regained
    assert white_quota() == quota
    assert api_post(asgi_server, boris, f"/api/games/{game}/moves/", {"number": 1}).status_code == 201
    wait_for(lambda: page.find("#move-made").is_enabled(), "anna's turn again")

    # The button held 2 s before its release sends the move: 2 s of lag claimed, more than the quota. The page
    # sends what it measured; the server forgives the quota and not a millisecond more.
    button = page.find("#move-made")
    ActionChains(page.driver).click_and_hold(button).pause(2).release().perform()
    second = stored(2)
    assert sent()[1]["lag_ms"] == second.lag_ms and 2000 <= second.lag_ms < 3000
    assert second.lag_ms > quota
    assert white_quota() == gain  # the quota spent whole (forgiven: quota, not lag_ms), the gain regained
