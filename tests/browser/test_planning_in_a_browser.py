"""Planning ahead (issue 41) on the game page in chromium at 1280 and 390 px, in English and Russian.

The player opens "Planning ahead", asks for N days a move (and T in the post), then changes N: each time the
table's rows are ``GET /api/games/{id}/plan/``'s for that N and T (player, control, move, the day in its
``<time datetime>`` and, on screen, in the locale's short form; in time or not), and the days move with N.
Every page state is checked for layout problems (``layout_problems.js``); the page's date inputs carry ISO
values whatever the language.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from corr.games import services

from ..conftest import client_for
from .test_previews_in_a_browser import CASES, speak

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(arbiter, anna, boris):
    """A postal game started 12 days ago (30 days a control, 4 days' transit): white (anna) to move."""
    today = timezone.localdate()
    t = services.tournament_create(by=arbiter, name="Planning cup", official_start=today - timedelta(days=12),
                                   mode="postal", presumed_transit_days=4)
    return services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=today)


def plan_api(user, game, think: int, post: int) -> list[dict]:
    answer = client_for(user).get(f"/api/games/{game.pk}/plan/", {"think_days": think, "post_days": post})
    assert answer.status_code == 200, answer.content
    return answer.json()["control_ends"]


def table_rows(page) -> list[dict]:
    """The plan table's rows as the API writes them, read from the page, with each day's text on screen."""
    rows = []
    for tr in page.all("#plan-table tr:not(.head)"):
        cells = tr.find_elements("css selector", "td")
        sent = cells[3].find_element("css selector", "time")
        rows.append({"player_text": cells[0].text, "control": int(cells[1].text), "through_move": int(cells[2].text),
                     "sent": sent.get_attribute("datetime"), "sent_text": sent.text,
                     "in_time": not cells[4].find_elements("css selector", ".danger")})
    return rows


def ask(page, think: int, post: int) -> None:
    """Open "Planning ahead" (a <details>) if closed, type N and T, and show the table."""
    if page.find("#plan").get_attribute("open") is None:
        page.click("#plan > summary", navigates=False)
    page.fill("#plan-think_days", str(think))
    page.fill("#plan-post_days", str(post))
    page.click("#plan-form button[type=submit]")


def check(page, rows: list[dict], want: list[dict], language: str) -> None:
    assert want and [{k: r[k] for k in ("control", "through_move", "sent", "in_time")} for r in rows] == [
        {k: w[k] for k in ("control", "through_move", "sent", "in_time")} for w in want]
    with translation.override(language):
        from corr.games.errors import colour_word

        for row, wanted in zip(rows, want, strict=True):
            assert row["sent_text"] == date_format(date.fromisoformat(wanted["sent"]), "SHORT_DATE_FORMAT")
            assert row["player_text"] == str(colour_word(wanted["player"]))


@pytest.mark.parametrize(("width", "language"), CASES)
def test_the_plan_table_follows_the_days_a_move_takes_as_the_api_does(page, game, anna, width, language):
    page.width(width).sign_in(anna)
    speak(page, language)
    page.open(f"/games/{game.pk}/")
    # Date inputs carry ISO values in every language (the browser shows them in its own way).
    # A browser shows a value that is not YYYY-MM-DD as empty: the sent date is prefilled with today, ISO.
    assert page.find("#move-sent_on").get_attribute("value") == timezone.localdate().isoformat()
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}|", d.get_attribute("value"))
               for d in page.all("input[type=date]"))
    assert page.layout_problems() == []

    ask(page, 2, 4)
    first = table_rows(page)
    check(page, first, plan_api(anna, game, 2, 4), language)
    # White's 12 days used, move 1 sent today, then nine moves of 2 days: 30 of 30, in time with move 10.
    assert next(r for r in first if r["control"] == 1 and r["through_move"] == 10 and r["sent"] == (
        timezone.localdate() + timedelta(days=9 * 12)).isoformat())["in_time"]
    assert page.layout_problems() == []
    page.screenshot(f"plan-table-{width}-{language}", whole=True)

    ask(page, 9, 4)
    slower = table_rows(page)
    check(page, slower, plan_api(anna, game, 9, 4), language)
    assert [r["sent"] for r in slower] != [r["sent"] for r in first]
    # Nine days a move instead of two: the first and the last control to end both end later.
    assert min(r["sent"] for r in slower) > min(r["sent"] for r in first)
    assert max(r["sent"] for r in slower) > max(r["sent"] for r in first)
    assert page.layout_problems() == []

    ask(page, 9, 1)
    quicker_post = table_rows(page)
    check(page, quicker_post, plan_api(anna, game, 9, 1), language)
    assert [r["sent"] for r in quicker_post] != [r["sent"] for r in slower]
    assert page.find("#plan-think_days").get_attribute("value") == "9"  # the form keeps the question asked
    assert page.layout_problems() == []
