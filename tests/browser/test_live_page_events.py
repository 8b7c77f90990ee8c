"""The live page after events it did not make (issue 24 item 8), in a real browser at 1280 and 390 px.

Two players' pages open at once in two windows of the one chromium, each signed in on its own host name
(127.0.0.1 and localhost keep their cookies apart). A flag found by the server, a stop, a call of the
arbiter and the arbiter's result redraw both pages by the push alone: no reload (a mark set in each window
survives). The stop, call-arbiter and confirm-result controls are used through the pages; the spoken
warnings follow each player's vision (001 1.7.9). Real time, as tests/browser/test_live_page.py.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from .conftest import Page
from .test_live_page import api_post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


class Windows:
    """One window per player, each on its own host name (its own cookies)."""

    def __init__(self, driver, base: str):
        self.driver = driver
        self.handles = [driver.current_window_handle]
        driver.switch_to.new_window("window")
        self.handles.append(driver.current_window_handle)
        self.bases = [base, base.replace("127.0.0.1", "localhost")]

    def page(self, i: int, width: str) -> Page:
        self.driver.switch_to.window(self.handles[i])
        return Page(self.driver, self.bases[i]).width(width)

    def close(self) -> None:
        self.driver.switch_to.window(self.handles[1])
        self.driver.close()
        self.driver.switch_to.window(self.handles[0])


def live_game(base, arbiter, control: dict, name: str) -> int:
    t = api_post(base, arbiter, "/api/tournaments/", {
        "name": name, "official_start": timezone.now().date().isoformat(), "mode": "live",
        "ruleset": {"time_control": {"unit": "seconds", **control}}})
    assert t.status_code == 201, t.text
    g = api_post(base, arbiter, "/api/games/", {"tournament": t.json()["id"], "white": "anna", "black": "boris",
                                                "starts_at": timezone.now().isoformat()})
    assert g.status_code == 201, g.text
    game = g.json()["id"]
    assert api_post(base, arbiter, f"/api/games/{game}/pause/", {"reason": "pages opening"}).status_code == 201
    return game


def opened(page: Page, user, game: int) -> Page:
    page.sign_in(user).open(f"/games/{game}/")
    wait_for(lambda: page.find("#live").get_attribute("data-connection") == "live", f"{user}'s WebSocket open")
    page.driver.execute_script("window.corrMark = 1")  # gone if the page were reloaded
    return page


def not_reloaded(page: Page) -> bool:
    return page.driver.execute_script("return window.corrMark") == 1


def spoken(page: Page) -> list:
    return page.driver.execute_script("return window.corrLiveSpoken.slice()")


def test_a_flag_updates_both_players_pages_and_speaks_to_the_blind_player(browser, asgi_server, arbiter, anna,
                                                                          boris):
    windows = Windows(browser, asgi_server)
    try:
        game = live_game(asgi_server, arbiter, {"system": "sudden_death", "time": 5}, "Flag in a browser")
        white = opened(windows.page(0, "desktop"), anna, game)
        # anna sets her sight on the page: her own clock's switch comes on (001 1.7.9).
        assert not white.find("#speak-white").is_selected()
        white.fill("#live-vision", "blind")
        wait_for(lambda: "saved" in white.find("#vision-message").text, "anna's vision saved")
        assert white.find("#speak-white").is_selected()
        anna.refresh_from_db()
        assert anna.vision == "blind"
        black = opened(windows.page(1, "desktop"), boris, game)
        assert not black.find("#speak-black").is_selected() and not black.find("#speak-white").is_selected()

        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).status_code == 201
        assert api_post(asgi_server, anna, f"/api/games/{game}/moves/", {"number": 1, "notation": "e4"}).ok
        # Black's 5 s run out; the server's check records the flag and pushes: both pages redraw themselves.
        for page in (windows.page(1, "desktop"), windows.page(0, "desktop")):
            wait_for(lambda: page.find("#live-status").text == "game over", "the flag on the page", seconds=20)  # noqa: B023
            assert page.find("#game-state").text == "finished 1-0 (black lost on time (FIDE Laws 6.9))"
            assert page.find("#live-result-line").text == "Result: 1-0 — black lost on time (FIDE Laws 6.9)"
            assert "fallen" in page.find("#clock-black").get_attribute("class")
            assert not page.find("#live-player").is_displayed() and not_reloaded(page)
            wait_for(lambda: "flag fall" in page.find("#live-history").text.lower(),  # noqa: B023
                     "the history brought up to date")
        white = windows.page(0, "desktop")
        assert "black: flag fallen" in spoken(white)  # the opponent's flag, owed to a blind player
        assert spoken(windows.page(1, "desktop")) == []  # boris set no vision and switched nothing on
        white.screenshot("live-flag-desktop")
    finally:
        windows.close()


def test_at_390_px_the_warnings_follow_each_vision_and_the_stop_and_call_controls_work(browser, asgi_server, arbiter,
                                                                                      anna, boris):
    anna.vision, boris.vision = "blind", "low"
    anna.save(update_fields=["vision"])
    boris.save(update_fields=["vision"])
    windows = Windows(browser, asgi_server)
    try:
        # 602 s each; black's cut to 302 s: white crosses 10 minutes 2 s after the start, black 5 minutes 2 s
        # after white's move.
        game = live_game(asgi_server, arbiter, {"system": "sudden_death", "time": 602}, "Warnings in a browser")
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/time-adjustments/",
                        {"player": "black", "seconds": -300, "reason": "a test of the warnings"}).status_code == 201
        white = opened(windows.page(0, "phone"), anna, game)
        black = opened(windows.page(1, "phone"), boris, game)
        assert black.find("#speak-black").is_selected() and not black.find("#speak-white").is_selected()
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).status_code == 201
        white = windows.page(0, "phone")
        wait_for(lambda: "white: 10 minutes left to the control" in spoken(white), "anna warned at 10 minutes")
        assert api_post(asgi_server, anna, f"/api/games/{game}/moves/", {"number": 1, "notation": "e4"}).ok
        black = windows.page(1, "phone")
        wait_for(lambda: "black: 5 minutes left to the control" in spoken(black), "boris warned at 5 minutes")
        assert not any("10 minutes" in s for s in spoken(black))  # a visually impaired player: 5 minutes
        assert not any("5 minutes" in s for s in spoken(windows.page(0, "phone")))

        # boris's refused move: the message names the move, fits the phone, no FEN.
        black = windows.page(1, "phone")
        black.fill("#live-notation", "Ke2")
        black.click("#move-made", navigates=False)
        wait_for(lambda: "Ke2" in black.find("#move-message").text, "the refusal shown")
        message = black.find("#move-message").text
        assert "black's move 1" in message and "/" not in message
        assert black.visible_in_width("#move-message") and black.no_horizontal_scroll()

        # boris calls the arbiter with the button: both pages say so, by the push.
        black.fill("#call-reason", "a noise in the hall")
        black.click("#live-call", navigates=False)
        for page in (windows.page(0, "phone"), windows.page(1, "phone")):
            wait_for(lambda: page.find("#live-status").text == "black stopped the clocks to call the arbiter",  # noqa: B023
                     "the call on the page")
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/live/ruling/", {"ruling": "justified"}).ok
        white = windows.page(0, "phone")
        wait_for(lambda: white.find("#live-status").text == "live", "the clocks restarted on anna's page")

        # anna stops the clock: a question first; "No" keeps the game, "Yes" resigns it (000 12.11).
        white.click("#live-stop", navigates=False)
        assert white.find("#live-confirm").is_displayed() and "resignation" in white.find("#live-confirm-question").text
        assert white.visible_in_width("#live-confirm-yes") and white.no_horizontal_scroll()
        white.click("#live-confirm-no", navigates=False)
        assert not white.find("#live-confirm").is_displayed()
        white.click("#live-stop", navigates=False)
        white.click("#live-confirm-yes", navigates=False)
        for page in (windows.page(0, "phone"), windows.page(1, "phone")):
            wait_for(lambda: page.find("#game-state").text.startswith("finished 0-1"), "the resignation shown")  # noqa: B023
            assert not page.find("#live-player").is_displayed() and not_reloaded(page)
        windows.page(1, "phone").screenshot("live-stop-phone")
    finally:
        windows.close()


def test_the_arbiters_result_asks_first_then_updates_the_players_page(browser, asgi_server, arbiter, anna, boris):
    anna.vision = "blind"
    anna.save(update_fields=["vision"])
    windows = Windows(browser, asgi_server)
    try:
        game = live_game(asgi_server, arbiter, {"system": "sudden_death", "time": 3600}, "Result in a browser")
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).status_code == 201
        player = opened(windows.page(1, "phone"), boris, game)
        referee = opened(windows.page(0, "desktop"), arbiter, game)
        assert "white (anna), totally blind: at 10 minutes to the control" in referee.find("#owed-white").text
        referee.fill("#live-result", "1-0")
        referee.click("#live-record-result", navigates=False)
        assert referee.find("#live-confirm").is_displayed() and "1-0" in referee.find("#live-confirm-question").text
        referee.click("#live-confirm-no", navigates=False)
        assert not referee.find("#live-confirm").is_displayed()
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/pause/", {}).status_code == 201  # still ongoing
        referee.click("#live-record-result", navigates=False)
        referee.click("#live-confirm-yes", navigates=False)
        wait_for(lambda: referee.find("#live-status").text == "game over", "the result on the arbiter's page")
        assert not referee.find("#live-arbiter-ongoing").is_displayed()
        player = windows.page(1, "phone")
        wait_for(lambda: player.find("#game-state").text.startswith("finished 1-0"), "the result on boris's page")
        assert not player.find("#live-player").is_displayed() and not_reloaded(player)
        windows.page(0, "desktop").screenshot("live-result-arbiter-desktop")
    finally:
        windows.close()
