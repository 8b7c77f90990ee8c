"""Every table and form fits the screen, at 1280 px and on a 390 px phone, with the longest real content
(issue 25, finding 1): open cases, long names, long notes, corrected history lines, error messages.

``Page.layout_problems`` says what does not fit: sideways scroll, an element past the screen's edge, a
button squeezed taller than three lines (the case's "Confirm" was one letter per line, 670 px tall), a
picture's text cut by its edge (the timeline's names and its last day).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.models import OverstepCase

from .crowded import crowded_create

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = ["desktop", "phone"]


@pytest.fixture
def crowded(arbiter):
    return crowded_create(arbiter=arbiter)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_tournament_page_with_open_cases_fits_the_screen(page, crowded, arbiter, width):
    assert OverstepCase.objects.filter(game__tournament=crowded.tournament, status="open").count() >= 2
    page.width(width).sign_in(arbiter).open(f"/tournaments/{crowded.tournament.pk}/")
    assert page.layout_problems() == []
    # Each case's two decisions can be read and pressed: a button as wide as its words need.
    for button in page.all("td.actions button"):
        assert button.size["width"] >= 80 and button.size["height"] <= 70, (button.text, button.size)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_game_page_with_a_corrected_history_fits_the_screen(page, crowded, arbiter, width):
    page.width(width).sign_in(arbiter).open(f"/games/{crowded.history_game.pk}/")
    assert page.layout_problems() == []
    # "corrected by #N" reads as words on one line, not one syllable per line.
    corrected = page.find("#history em")
    assert corrected.size["height"] <= 2 * 24, corrected.size
    if width == "phone":  # the ledger's days read like every other card's figures, from the left
        aligns = {page.driver.execute_script("return getComputedStyle(arguments[0]).textAlign", cell)
                  for cell in page.all("table.cards td.num")}
        assert aligns == {"left"}, aligns


@pytest.mark.parametrize("width", WIDTHS)
def test_a_refused_move_with_its_error_fits_the_screen(page, crowded, width):
    game = crowded.history_game
    page.width(width).sign_in(crowded.black).open(f"/games/{game.pk}/")
    page.fill("#move-notation", "Nc6")
    page.fill("#move-received_on", (timezone.localdate() - timedelta(days=59)).isoformat())
    page.fill("#move-sent_on", timezone.localdate().isoformat())
    page.click("#move-form button[type=submit]")
    assert page.find("#error-summary").text
    assert page.layout_problems() == []


@pytest.mark.parametrize("width", WIDTHS)
def test_my_games_and_my_leave_fit_the_screen(page, crowded, width):
    page.width(width).sign_in(crowded.white).open("/games/")
    assert page.layout_problems() == []
    page.open("/leave/")
    assert page.layout_problems() == []
