"""The Content-Security-Policy in chromium (issue 23): the pages work under it and break none of its rules.

Every violation the browser reports (``securitypolicyviolation``, recorded by a script the test adds to
each document before the page's own) fails the test, as does a console message about the policy: on a
game page, the board of a conditional line, the live page with its script and WebSocket (served by daphne), and
the API docs' Swagger UI.
A first test shows the recorder sees a violation when there is one (an inline script added to a page).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.games import services

from .conftest import Page
from .test_live_page import live_game_made, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

RECORDER = ("window.__cspViolations = [];"
            " document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push("
            "e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sourceFile || '')));")


@pytest.fixture
def violations(browser):
    """The page's CSP violations so far (a callable); the recorder is removed after the test."""
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    browser.get_log("browser")  # drop what earlier tests left

    def seen() -> list[str]:
        found = list(browser.execute_script("return window.__cspViolations || []"))
        found += [entry["message"] for entry in browser.get_log("browser")
                  if "Content Security Policy" in entry["message"] or "Content-Security-Policy" in entry["message"]]
        return found

    yield seen
    browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def test_the_recorder_sees_an_inline_script_refused(page, violations, anna):
    page.sign_in(anna).open("/games/")
    page.driver.execute_script("const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
                               " document.body.appendChild(s);")
    wait_for(violations, "the inline script's violation")
    assert page.driver.execute_script("return window.ran") is None


def test_a_game_page_breaks_no_rule_of_the_policy(page, violations, arbiter, anna, boris):
    today = timezone.localdate()
    t = services.tournament_create(by=arbiter, name="CSP postal", official_start=today - timedelta(days=12),
                                   mode="postal", presumed_transit_days=3)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=today)
    page.width("desktop").sign_in(anna).open(f"/games/{game.pk}/")
    assert "CSP postal" in page.text()
    page.sign_in(arbiter).open(f"/tournaments/{t.pk}/")
    assert violations() == []


def test_the_board_of_a_conditional_line_works_under_the_policy(page, violations, server_game, anna):
    from .test_conditional_board_in_a_browser import built, click_squares, open_builder
    from .test_conditional_in_a_browser import api_move

    api_move(anna, server_game, 1, "e4")
    page.width("desktop").sign_in(anna).open(f"/games/{server_game.pk}/")
    open_builder(page)
    click_squares(page, "e7")
    assert "e7 chosen" in page.find("#conditional-board .cb-status").text  # the script ran, from a file of this site
    click_squares(page, "e5")  # chess.js and cm-chessboard, ES modules of this site, ran too
    assert built(page) == ["e5 → your reply?"]
    assert violations() == []


def test_the_api_docs_work_under_the_policy(page, violations):
    from selenium.webdriver.support.ui import WebDriverWait

    page.width("desktop").open("/api/docs/")
    WebDriverWait(page.driver, 20).until(lambda d: "corr API" in d.find_element("tag name", "body").text)
    assert page.all(".opblock")  # Swagger UI ran: its start script is a file of this site
    assert violations() == []


def test_the_live_page_its_script_and_its_websocket_work_under_the_policy(browser, violations, asgi_server,  # noqa: F811
                                                                          arbiter, anna, boris):
    game = live_game_made(asgi_server, arbiter, "Live under CSP")
    page = Page(browser, asgi_server).width("desktop").sign_in(anna).open(f"/games/{game}/")
    wait_for(lambda: page.find("#live").get_attribute("data-connection") == "live", "the WebSocket open")
    white = page.find("#clock-white")
    shown = white.find_element("css selector", ".live-time").text
    wait_for(lambda: white.find_element("css selector", ".live-time").text != shown, "the script counting down")
    assert violations() == []
