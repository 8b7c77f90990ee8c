"""A Go server game runs a conditional line in chromium at 1280 and 390 px (issue 40, as OGS takes conditional
moves): black (boris, first to move) sends a two-level line with his first stone from the game page, white (anna)
plays the expected stone on her page, and both pages show the line fired: the reply stored in the history with its
note in the page's language, what is left of the line, whose move it is and the clock, each compared with what the
API answers for the same game. Nothing scrolls sideways on a phone in any of these states.

The line is typed: the page's board builder is chess's (cm-chessboard, ``corr.web.conditional_board``).
"""

from __future__ import annotations

from datetime import date

import pytest
from django.conf import settings as django_settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from corr.games import services
from corr.web.describe import deadline_text
from corr.web.forms import CONDITIONAL_EXAMPLES
from corr.web.records import record_words

from ..conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

CASES = [("desktop", "en"), ("phone", "ru")]
"""Each width once, each language once (the layout of a phone in Russian, the longer words)."""


@pytest.fixture
def go_game(arbiter, anna, boris):
    """A Go server game begun today: boris black, first to move (Go rules 12.5), anna white."""
    today = timezone.localdate()
    league = services.tournament_create(by=arbiter, name="Go league", official_start=today, mode="server", kind="go")
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=today, first="black")


def as_user(page, user, language: str, path: str):
    """``page`` signed in as ``user`` reading in ``language`` (the account's and the switcher's cookie)."""
    user.language = language
    user.save(update_fields=["language"])
    page.sign_in(user)
    page.driver.add_cookie({"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    return page.open(path)


def api_get(user, game, path: str = ""):
    response = client_for(user).get(f"/api/games/{game.pk}/{path}")
    assert response.status_code == 200, response.json()
    return response.json()


def branches_of(tree: list[dict]) -> list[str]:
    """The API's tree as the page lists it, depth first: ``Q16 → D16``."""
    return [line for node in tree for line in [f"{node['if']} → {node['then']}", *branches_of(node["next"])]]


def shown_branches(page) -> list[str]:
    return [li.text.split("\n")[0] for li in page.all("#conditional-line .branch")]


def in_language(language: str, words):
    with translation.override(language):
        return words()


def assert_fits(page) -> None:
    assert page.no_horizontal_scroll() and page.layout_problems() == []


def assert_clock_as_the_api_says(page, user, game, language: str) -> None:
    """Each player's card: the deadline of the one on move and the days used of the allowed, as the API has them."""
    body = api_get(user, game)
    for colour, account in body["clock"]["players"].items():
        card = page.find(f"#account-{colour}").text
        assert f"{account['total_days']} / {account['control']['allowed_days']}" in card, card
        if account["on_move"]:
            until = date.fromisoformat(body["turn"][colour]["until"])
            assert in_language(language, lambda until=until: deadline_text(day=until)) in card, card


@pytest.mark.parametrize(("width", "language"), CASES)
def test_a_go_line_sent_from_the_page_fires_on_the_partners_stone_and_both_pages_show_it(
        page, go_game, anna, boris, width, language):
    game = go_game
    as_user(page.width(width), boris, language, f"/games/{game.pk}/")
    # A line that is not two moves a branch is refused before anything is stored, with a Go example (it once
    # named chess's "e5 Nf3" in every game).
    page.fill("#move-notation", "D4")
    page.fill("#move-conditional", "Q16")
    page.click("#move-form button[type=submit]")
    refused = page.find("#move-form").text
    example = CONDITIONAL_EXAMPLES["go"][0]
    assert example in refused and "e5 Nf3" not in refused and "SAN" not in refused, refused
    assert in_language(language, lambda: str(_("line %(number)s") % {"number": 1})).lower() in refused.lower()
    assert api_get(boris, game, "history/") == []
    # A branch the board refuses (D4 is boris's own stone) is named by its line, in the words the API says it.
    page.fill("#move-notation", "D4")
    page.fill("#move-conditional", "Q16 D16\nD4 Q4")
    page.click("#move-form button[type=submit]")
    said = client_for(boris).post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "D4", "conditional": [
        {"if": "Q16", "then": "D16"}, {"if": "D4", "then": "Q4"}]}, format="json").json()
    assert said["field"] == "conditional[1].if", said
    refused = page.find("#move-form").text
    assert said["detail"].split(": ", 1)[1] in refused, (said, refused)
    assert in_language(language, lambda: str(_("line %(number)s") % {"number": 2})).lower() in refused.lower()
    assert api_get(boris, game, "history/") == []
    assert_fits(page)

    page.fill("#move-notation", "D4")
    page.fill("#move-conditional", "q16 D16\n  Q4 C3\npass pass")  # a point in lower case is read as one
    assert_fits(page)
    page.click("#move-form button[type=submit]")
    sent = api_get(boris, game, "conditional/")
    assert sent["sent_with_move"] == 1 and branches_of(sent["conditional"]) == ["Q16 → D16", "Q4 → C3", "pass → pass"]
    assert shown_branches(page) == branches_of(sent["conditional"])
    assert_fits(page)
    page.screenshot(f"go-conditional-sent-{width}-{language}", whole=True)

    # anna, on move, plays the stone boris expected, on her own page.
    as_user(page, anna, language, f"/games/{game.pk}/")
    page.fill("#move-notation", "Q16")
    page.click("#move-form button[type=submit]")
    body = api_get(anna, game)
    assert body["to_move"] == "white" and body["pending"]["number"] == 2  # boris's reply was played at once
    reply = [h for h in api_get(anna, game, "history/") if h["kind"] == "move"][-1]
    assert (reply["player"], reply["number"], reply["notation"], reply["variant"]) == ("black", 2, "D16", "conditional")
    note = in_language(language, lambda: record_words(reply["note"]))
    assert note != reply["note"] or language == "en"  # said in the reader's language
    row = page.find(f"#event-{reply['seq']}").text
    assert "D16" in row and note in row, row
    assert page.find("#move-form input[name=number]").get_attribute("value") == str(body["pending"]["number"])
    assert page.all("#conditional-line") == []  # the line is boris's alone
    assert_clock_as_the_api_says(page, anna, game, language)
    assert_fits(page)
    page.screenshot(f"go-conditional-fired-white-{width}-{language}", whole=True)

    # boris's page: the reply in his history, what is left of his line, and he waits.
    as_user(page, boris, language, f"/games/{game.pk}/")
    left = api_get(boris, game, "conditional/")
    assert branches_of(left["conditional"]) == ["Q4 → C3"]
    assert shown_branches(page) == branches_of(left["conditional"])
    row = page.find(f"#event-{reply['seq']}").text
    assert "D16" in row and note in row, row
    assert page.all("#move-form") == []  # not his move
    assert_clock_as_the_api_says(page, boris, game, language)
    assert_fits(page)
    page.screenshot(f"go-conditional-fired-black-{width}-{language}", whole=True)
