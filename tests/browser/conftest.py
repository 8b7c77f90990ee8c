"""A real browser for the page tests: Debian's chromium driven by selenium through the system chromedriver.

One headless chromium serves every test of the module (starting it is the slow part). ``.ci/run`` installs
``chromium`` and ``chromium-driver`` through apt when they are missing; a developer without them gets skips
(CI fails instead, see ``needs_server``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from functools import partial
from pathlib import Path

import pytest
from django.test import Client

from ..conftest import needs_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars"]
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
NAVIGATION_S = 45
"""How long a submit may take to replace the page: a readiness wait on a machine shared with CI's other job."""
SHOTS = Path(os.environ.get("CORR_SCREENSHOTS") or tempfile.gettempdir() + "/corr-screenshots")


@pytest.fixture(scope="session")
def browser():
    needs_server("chromium and chromedriver", Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists())
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="corr-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(autouse=True)
def plain_http_cookies(settings):
    # The live server speaks plain HTTP: production's Secure cookies would never come back.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


class Page:
    """The browser at one width, signed in as one user, on the live server."""

    def __init__(self, driver, base_url: str):
        self.driver, self.base_url = driver, base_url
        self.viewport = WIDTHS["desktop"][0]

    def width(self, name: str) -> "Page":
        width, height = WIDTHS[name]
        self.viewport = width
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": name == "phone"})
        return self

    def sign_in(self, user) -> "Page":
        client = Client()
        client.force_login(user)
        self.driver.delete_all_cookies()
        self.open("/login/")
        self.driver.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})
        return self

    def open(self, path: str) -> "Page":
        self.driver.get(self.base_url + path)
        return self

    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def fill(self, css: str, value: str) -> None:
        """Type ``value`` into ``css``, once more if the page was still being replaced (a redirect's GET)."""
        from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

        for attempt in range(3):
            try:
                return self._fill(css, value)
            except (StaleElementReferenceException, WebDriverException):
                if attempt == 2:
                    raise
                time.sleep(0.3)

    def _fill(self, css: str, value: str) -> None:
        field = self.find(css)
        if field.get_attribute("type") == "date":  # typing into a date input depends on the locale
            self.driver.execute_script("arguments[0].value = arguments[1]", field, value)
        elif field.tag_name == "select":
            from selenium.webdriver.support.ui import Select

            Select(field).select_by_value(value)
        else:
            field.clear()
            field.send_keys(value)

    def click(self, css: str, navigates: bool = True) -> None:
        """Click ``css``; when it submits a form, wait until the next page has replaced this one."""
        from selenium.webdriver.support.ui import WebDriverWait

        element = self.find(css)
        page = self.find("html")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        if navigates:
            from selenium.common.exceptions import TimeoutException

            try:
                WebDriverWait(self.driver, NAVIGATION_S).until(lambda d: replaced(page))
                WebDriverWait(self.driver, NAVIGATION_S).until(
                    lambda d: d.execute_script("return document.readyState") == "complete")
            except TimeoutException:
                # Say where the browser stood: one such timeout in CI (a phone case, once in four runs) left
                # nothing to read but Selenium's empty message.
                raise AssertionError(f"clicking {css} did not replace the page within {NAVIGATION_S} s; at "
                                     f"{self.driver.current_url}: {self.text()[:600]!r}") from None

    def text(self) -> str:
        return self.find("body").text


    def no_horizontal_scroll(self) -> bool:
        """Nothing is wider than the emulated screen: the page cannot be scrolled sideways.

        Compared with the width set (``WIDTHS``), not ``window.innerWidth``: a phone's layout viewport
        grows to hold content wider than the screen, so the two grow together on an overflowing page.
        """
        return self.driver.execute_script(
            "return document.documentElement.scrollWidth <= arguments[0]", self.viewport)

    def layout_problems(self) -> list[str]:
        """What does not fit the screen, in words (empty when all fits): sideways scroll, an element
        whose right edge is past the screen, a button squeezed taller than three lines, an SVG text cut
        by its picture's edge or drawn under 9 px high."""
        return self.driver.execute_script(LAYOUT_PROBLEMS_JS, self.viewport)

    def visible_in_width(self, css: str) -> bool:
        """Every element matching ``css`` is displayed and lies within the viewport's width."""
        elements = self.all(css)
        return bool(elements) and all(self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect();"
            " return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth", e) for e in elements)

    def screenshot(self, name: str, whole: bool = False) -> Path:
        """The screen as ``SHOTS/name.png``; ``whole``: the page from its top, at most two phone screens high
        (a tournament's cases stand below its timeline)."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        if not whole:
            self.driver.save_screenshot(str(path))
            return path
        import base64

        height = min(self.driver.execute_script("return document.documentElement.scrollHeight"),
                     2 * WIDTHS["phone"][1])
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": self.viewport, "height": height, "scale": 1}})
        path.write_bytes(base64.b64decode(shot["data"]))
        return path


LAYOUT_PROBLEMS_JS = (Path(__file__).parent / "layout_problems.js").read_text()


@pytest.fixture
def asgi_server(transactional_db, settings):
    """corr.asgi served by daphne in a child process; yields its base URL."""
    from channels.testing.live import make_application, set_database_connection
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    process = DaphneProcess("127.0.0.1", partial(make_application, static_wrapper=ASGIStaticFilesHandler),
                            setup=set_database_connection)
    process.start()
    assert process.ready.wait(timeout=30), "daphne did not start"
    yield f"http://127.0.0.1:{process.port.value}"
    process.terminate()
    process.join(timeout=10)


@pytest.fixture
def page(browser, live_server):
    return Page(browser, live_server.url)


def replaced(element) -> bool:
    """True once ``element``'s page is gone: stale, or (Chromium, mid-navigation) no longer in its document.

    Selenium's ``staleness_of`` knows only the first answer; Chromium sometimes gives the
    second as a plain ``WebDriverException`` while the old document is torn down.
    """
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        if "does not belong to the document" in str(error) or "No node with given id" in str(error):
            return True
        raise
    return False


@pytest.fixture
def server_game(arbiter, anna, boris):
    """A server chess game of a tournament that began yesterday: anna (white, on move) against boris."""
    from datetime import timedelta

    from django.utils import timezone

    from corr.games import services

    today = timezone.localdate()
    tournament = services.tournament_create(by=arbiter, name="Browser server", mode="server",
                                            official_start=today - timedelta(days=1))
    return services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=today)
