"""The live page after events it did not make (issue 24 item 8), in a real browser at 1280 and 390 px.

Two players' pages open at once in two windows of the one chromium, each signed in on its own host name
(127.0.0.1 and localhost keep their cookies apart); four windows, each player at 1280 and at 390 px, where a
test watches both at both widths. A flag found by the server, a stop, a call of the arbiter, the arbiter's pause,
result and reopening redraw the players' pages by the push alone: no reload (a mark set in each window
survives). The stop, call-arbiter and confirm-result controls are used through the pages; the spoken
warnings follow each player's vision (001 1.7.9), the byo-yomi count (Go rules 12.16) is spoken to whoever
switches a clock on, and the arbiter's view marks the warnings owed now. Real time, as
tests/browser/test_live_page.py, except the byo-yomi count, heard on a page whose clock its own ticks drive
(FAST_CLOCK_JS).
"""

from __future__ import annotations

import pytest

from .conftest import Page
from .test_live_page import api_post, live_game_made, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


class Windows:
    """``count`` windows, the even ones on 127.0.0.1 and the odd ones on localhost (two cookie jars: one player
    each, a player's two windows sharing their sign-in)."""

    def __init__(self, driver, base: str, count: int = 2):
        self.driver = driver
        self.handles = [driver.current_window_handle]
        for _ in range(count - 1):
            driver.switch_to.new_window("window")
            self.handles.append(driver.current_window_handle)
        self.bases = [base, base.replace("127.0.0.1", "localhost")]

    def page(self, i: int, width: str) -> Page:
        self.driver.switch_to.window(self.handles[i])
        return Page(self.driver, self.bases[i % 2]).width(width)

    def close(self) -> None:
        for handle in self.handles[1:]:
            self.driver.switch_to.window(handle)
            self.driver.close()
        self.driver.switch_to.window(self.handles[0])


# The four pages of the tests that watch both players at both widths: (window, width, player's colour).
FOUR = [(0, "desktop", "white"), (1, "desktop", "black"), (2, "phone", "white"), (3, "phone", "black")]


def live_game(base, arbiter, control: dict, name: str) -> int:
    """``live_game_made``, its clocks paused while the pages open (the test resumes them)."""
    game = live_game_made(base, arbiter, name, control)
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


def test_a_flag_updates_both_players_pages_at_both_widths_and_speaks_to_the_blind_player(browser, asgi_server,
                                                                                         arbiter, anna, boris):
    windows = Windows(browser, asgi_server, 4)
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
        opened(windows.page(2, "phone"), anna, game)
        opened(windows.page(3, "phone"), boris, game)

        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).status_code == 201
        assert api_post(asgi_server, anna, f"/api/games/{game}/moves/", {"number": 1, "notation": "e4"}).ok
        # Black's 5 s run out; the server's check records the flag and pushes: every page redraws itself.
        for i, width, _colour in FOUR:
            page = windows.page(i, width)
            wait_for(lambda: page.find("#live-status").text == "game over", f"the flag on page {i}", seconds=20)  # noqa: B023
            assert page.find("#game-state").text == "finished 1-0 (black lost on time (FIDE Laws 6.9))"
            assert page.find("#live-result-line").text == "Result: 1-0 — black lost on time (FIDE Laws 6.9)"
            assert "fallen" in page.find("#clock-black").get_attribute("class")
            assert page.find("#clock-black .live-flag").is_displayed()
            assert not page.find("#live-player").is_displayed() and not_reloaded(page)
            wait_for(lambda: "flag fall" in page.find("#live-history").text.lower(),  # noqa: B023
                     "the history brought up to date")
            assert page.visible_in_width("#live-result-line") and page.no_horizontal_scroll()
        white = windows.page(0, "desktop")
        assert "black: flag fallen" in spoken(white)  # the opponent's flag, owed to a blind player
        assert "black: flag fallen" in spoken(windows.page(2, "phone"))
        assert spoken(windows.page(1, "desktop")) == []  # boris set no vision and switched nothing on
        white.screenshot("live-flag-desktop")
        windows.page(3, "phone").screenshot("live-flag-phone")
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
        # The result was a mistake: the arbiter reopens the game from the page (asked first), and the player's page
        # redraws it as ongoing, its clocks standing until the arbiter resumes them.
        referee = windows.page(0, "desktop")
        assert referee.find("#live-reopen-form").is_displayed()
        referee.fill("#live-reopen-note", "the result was entered on the wrong board")
        referee.click("#live-reopen", navigates=False)
        assert referee.find("#live-confirm").is_displayed() and "Reopen" in referee.find("#live-confirm-question").text
        referee.click("#live-confirm-yes", navigates=False)
        wait_for(lambda: referee.find("#game-state").text == "ongoing", "the reopening on the arbiter's page")
        assert not referee.find("#live-reopen-form").is_displayed() and referee.find("#live-resume").is_displayed()
        player = windows.page(1, "phone")
        wait_for(lambda: player.find("#game-state").text == "ongoing", "the reopening on boris's page")
        assert player.find("#live-status").text == "clocks paused by the arbiter" and not_reloaded(player)
        wait_for(lambda: "the result was entered on the wrong board" in player.find("#live-history").text,
                 "the reopening in the history")
    finally:
        windows.close()


def test_the_arbiters_pause_result_and_reopening_redraw_both_players_pages_at_both_widths(browser, asgi_server,
                                                                                          arbiter, anna, boris):
    windows = Windows(browser, asgi_server, 4)
    players = {"white": anna, "black": boris}
    try:
        game = live_game(asgi_server, arbiter, {"system": "sudden_death", "time": 3600}, "Arbiter's acts in a browser")
        for i, width, colour in FOUR:
            opened(windows.page(i, width), players[colour], game)

        def on_every_page(what: str, condition) -> None:
            for i, width, colour in FOUR:
                page = windows.page(i, width)
                wait_for(lambda: condition(page), f"{what} on {colour}'s page at {width}")  # noqa: B023
                assert not_reloaded(page), (what, colour, width)

        def move_button(page) -> bool:
            return page.find("#move-made").is_enabled()

        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).status_code == 201
        on_every_page("the clocks running", lambda p: p.find("#live-status").text == "live"
                      and "running" in p.find("#clock-white").get_attribute("class"))

        # The arbiter's pause (002 6.12): both clocks stop on every page, anna's button is disabled.
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/pause/", {"reason": "a phone rang"}).ok
        on_every_page("the pause", lambda p: p.find("#live-status").text == "clocks paused by the arbiter")
        for i, width, _colour in FOUR:
            page = windows.page(i, width)
            assert "paused" in page.find("#live").get_attribute("class")
            assert not page.all("#clock-white.running, #clock-black.running")
            assert not move_button(page) and page.find("#game-state").text == "ongoing"
            wait_for(lambda: "a phone rang" in page.find("#live-history").text, "the pause in the history")  # noqa: B023
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).ok
        on_every_page("the clocks restarted", lambda p: p.find("#live-status").text == "live")
        assert move_button(windows.page(0, "desktop")) and not move_button(windows.page(1, "desktop"))

        # The arbiter records the result: both players' pages say it, their controls gone.
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/result/",
                        {"result": "1/2-1/2", "termination": "agreed"}).ok
        on_every_page("the result", lambda p: p.find("#game-state").text == "finished 1/2-1/2 (agreed)")
        for i, width, _colour in FOUR:
            page = windows.page(i, width)
            assert page.find("#live-status").text == "game over"
            assert page.find("#live-result-line").text == "Result: 1/2-1/2 — agreed"
            assert not page.find("#live-player").is_displayed()
            assert page.visible_in_width("#live-result-line") and page.no_horizontal_scroll()
        windows.page(3, "phone").screenshot("live-result-player-phone")

        # The arbiter reopens it (a result entered by mistake): ongoing again on every page, the clocks standing
        # until the arbiter restarts them, then anna's button works again.
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/reopen/",
                        {"note": "the result was entered on the wrong board"}).ok
        on_every_page("the reopening", lambda p: p.find("#game-state").text == "ongoing")
        for i, width, _colour in FOUR:
            page = windows.page(i, width)
            assert page.find("#live-status").text == "clocks paused by the arbiter"
            assert not page.find("#live-result-line").is_displayed() and page.find("#live-player").is_displayed()
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).ok
        on_every_page("the clocks restarted after the reopening", lambda p: p.find("#live-status").text == "live")
        assert not move_button(windows.page(3, "phone"))
        white = windows.page(2, "phone")  # the driver's window: a Page speaks to the window switched to last
        assert move_button(white)
        white.click("#move-made", navigates=False)
        on_every_page("anna's move after the reopening",
                      lambda p: "running" in p.find("#clock-black").get_attribute("class"))
    finally:
        windows.close()


# The page's clock driven by the page's own ticks, in one window (CDP, before the page's scripts): from the instant
# the test sets ``window.corrFastFrom``, each tick of live.js's 100 ms interval moves Date.now by STEP_MS and
# nothing else moves it. The count of a 16 s byo-yomi period is then heard in 40 ticks (4 s when ticks are on
# time), and each second of the count is crossed in a tick of its own however late a tick comes on a busy machine
# (a clock that ran FAST times real time skipped "4" when one tick came 0.4 s late under CI's load, and the page
# rightly speaks one figure per tick). The server keeps real time: white's flag falls 32 s after the start, well
# after the page's 80 ticks unless ticks average 0.4 s late.
TICK_MS, STEP_MS = 100, 400
FAST_CLOCK_JS = ("(function () { var real = Date.now.bind(Date), ticks = 0, every = window.setInterval;"
                 " window.corrFastFrom = null;"
                 " Date.now = function () { var from = window.corrFastFrom;"
                 f" return from === null ? real() : from + ticks * {STEP_MS}; }};"
                 " window.setInterval = function (callback, ms) { var rest = [].slice.call(arguments, 2);"
                 " return every.call(window, function () {"
                 f" if (ms === {TICK_MS} && window.corrFastFrom !== null) ticks += 1;"
                 " return callback.apply(this, rest); }, ms); }; })();")
"""Date.now is real until ``window.corrFastFrom`` is set, then moves STEP_MS at each tick of the page's TICK_MS
interval (live.js) and only then."""


def test_the_byoyomi_count_is_spoken_in_each_period_to_whoever_switches_the_clock_on(browser, asgi_server, arbiter,
                                                                                    anna, boris):
    # No main time: white is in byo-yomi from the start, two periods of 16 s (Go rules 12.16: "15, 10, 5, 4, 3,
    # 2, 1" in each).
    game = live_game(asgi_server, arbiter, {"system": "byoyomi", "main": 0, "periods": 2, "period_time": 16},
                     "Byo-yomi in a browser")
    page = Page(browser, asgi_server).width("phone").sign_in(boris)
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAST_CLOCK_JS})
    try:
        opened(page, boris, game)
        # boris (no vision set) switches on his partner's clock: the count is for whoever turns it on.
        assert not page.find("#speak-white").is_selected()
        page.click("#speak-white", navigates=False)
        assert page.find("#speak-white").is_selected()
        assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).status_code == 201
        # The page's ticks drive its time only once the resumed clock is on the page: set before, the ticks ran 4x
        # while the resume and its push were on their way, and the page's first view of the period could be past
        # its "15" (CI, 2026-12-05: the count began at "10"). Set after, the page's time runs on from real time.
        wait_for(lambda: "running" in page.find("#clock-white").get_attribute("class"), "white's clock running")
        browser.execute_script("window.corrFastFrom = Date.now()")
        count = ["15", "10", "5", "4", "3", "2", "1"]
        # The last period's "15": 15 s of the page's time (37 ticks) before that period ends, when the detail,
        # read now, must say one period is left (read after the whole count, it raced the period's end).
        wait_for(lambda: len(spoken(page)) > len(count), "the last period's count", seconds=30)
        assert "byo-yomi periods left: 1" in page.find("#clock-white .live-detail").text
        wait_for(lambda: len(spoken(page)) >= 2 * len(count), "the count of both periods", seconds=30)
        assert spoken(page)[:2 * len(count)] == count + count
        page.screenshot("live-byoyomi-phone")
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_the_arbiters_view_marks_the_warnings_owed_now(browser, asgi_server, arbiter, anna, boris):
    anna.vision, boris.vision = "blind", "low"
    anna.save(update_fields=["vision"])
    boris.save(update_fields=["vision"])
    # 601 s each: anna (totally blind) is owed her warning 1 s after the start (001 1.7.9: 10 minutes), boris
    # (visually impaired) is owed his at 5 minutes, which his clock, not running, never reaches.
    game = live_game(asgi_server, arbiter, {"system": "sudden_death", "time": 601}, "Warnings owed in a browser")
    referee = opened(Page(browser, asgi_server).width("desktop").sign_in(arbiter), arbiter, game)

    def owed_now(side: str) -> str:
        return referee.find(f"#owed-{side} .owed-now").text

    assert "white (anna), totally blind: at 10 minutes to the control" in referee.find("#owed-white").text
    assert "black (boris), visually impaired: at 5 minutes to the control" in referee.find("#owed-black").text
    assert owed_now("white") == owed_now("black") == ""
    assert api_post(asgi_server, arbiter, f"/api/games/{game}/resume/", {}).status_code == 201
    wait_for(lambda: owed_now("white") == "owed now: 10 minutes to the control", "anna's warning owed")
    assert "due" in referee.find("#owed-white").get_attribute("class")
    assert owed_now("black") == "" and "due" not in referee.find("#owed-black").get_attribute("class")
    # White's clock cut to a few seconds: her flag falls, and the warning owed is boris's, of it.
    assert api_post(asgi_server, arbiter, f"/api/games/{game}/time-adjustments/",
                    {"player": "white", "seconds": -596, "reason": "a test of the warnings owed"}).status_code == 201
    wait_for(lambda: owed_now("black") == "owed now: white's flag has fallen", "boris owed the flag's warning",
             seconds=20)
    assert owed_now("white") == "" and "due" in referee.find("#owed-black").get_attribute("class")
    assert referee.find("#game-state").text.startswith("finished 0-1")
    referee.screenshot("live-owed-arbiter-desktop")
