"""The "Use 40+ days" notice in chromium at 1280 and 390 px (issue 40; ICCF Playing Rules 3b): the player on move
presses the button on the game page (no confirmation: the notice ends nothing and is given once a move), the history
shows the notice in the page's language, the button is gone for that move, and the opponent's page shows the notice
too, in the opponent's language. The line is compared with the note the API stores, worded by the pages' one
function (``corr.web.records.record_words``). Nothing scrolls sideways on a phone.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from corr.games import services
from corr.web.records import record_words

from .test_conditional_in_a_browser import api_move
from .test_go_conditional_in_a_browser import api_get, as_user, assert_fits, in_language

pytestmark = pytest.mark.django_db(transaction=True)

ICCF = {"time_control": {"system": "periods", "stages": [{"moves": 10, "time": 100}], "repeat_last": True,
                         "max_per_move": 40, "count": "whole_days"}}
"""100 days for 10 moves and at most 40 for one (ICCF 2.4.2): a tournament that takes the notice."""

CASES = [("desktop", "ru", "en"), ("phone", "en", "ru")]
"""The width, the language of the player who gives the notice and the opponent's: each width and each language once
for each side."""


@pytest.fixture
def iccf_game(arbiter, anna, boris):
    """A server chess game of an ICCF-like tournament begun today, anna white and boris black."""
    today = timezone.localdate()
    cup = services.tournament_create(by=arbiter, name="ICCF cup", official_start=today, mode="server", ruleset=ICCF)
    return services.game_create(by=arbiter, tournament=cup, white=anna, black=boris, today=today)


def days_left(page, user, game) -> int:
    """Black's days until the flag as the API says them (``seconds``; under whole days the day running counts,
    ICCF 2.4.2, so the control's ``days`` is one fewer), the same time as black's card shows it (``41 d 00 h 00 min``
    in any language) within the minutes between the page and the API's answer."""
    seconds = api_get(user, game)["time_left"]["black"]["seconds"]
    shown = page.find("#account-black .time-left").text
    days, hours, minutes = (int(n) for n in re.findall(r"\d+", shown)[:3])
    assert abs(days * 86400 + hours * 3600 + minutes * 60 - seconds) <= 120, (shown, seconds)
    return days


@pytest.mark.parametrize(("width", "language", "partner_language"), CASES)
def test_the_player_on_move_gives_the_notice_and_both_pages_show_it(page, iccf_game, anna, boris, width, language,
                                                                  partner_language):
    game = iccf_game
    api_move(anna, game, 1, "e4")
    as_user(page.width(width), boris, language, f"/games/{game.pk}/")
    assert page.find("#long-move-form").is_displayed()
    limited = days_left(page, boris, game)
    assert_fits(page)
    page.click("#long-move-form button[type=submit]")
    lifted = days_left(page, boris, game)  # the limit for one move no longer bounds this move, on the page too
    assert lifted > limited

    [notice] = [h for h in api_get(boris, game, "history/") if h["kind"] == "long_move"]
    assert (notice["player"], notice["number"]) == ("black", 1)  # boris's next move, as the server counts it
    words = in_language(language, lambda: record_words(notice["note"]))
    assert (words == notice["note"]) == (language == "en")  # said in the reader's language, not as stored
    assert words in page.find(f"#event-{notice['seq']}").text
    assert page.all("#long-move-form") == []  # given: not offered again for this move
    assert page.find("#move-form").is_displayed()  # and boris still moves as before
    assert_fits(page)
    page.screenshot(f"long-move-given-{width}-{language}", whole=True)

    as_user(page, anna, partner_language, f"/games/{game.pk}/")
    words = in_language(partner_language, lambda: record_words(notice["note"]))
    assert words in page.find(f"#event-{notice['seq']}").text
    assert page.all("#long-move-form") == []  # not anna's move
    assert_fits(page)

    # The notice holds for that move only: once boris has moved and it is his turn again, the button is back.
    api_move(boris, game, 1, "e5")
    api_move(anna, game, 2, "Nf3")
    as_user(page, boris, language, f"/games/{game.pk}/")
    assert page.find("#long-move-form").is_displayed()
