"""Conditional moves in chromium at 1280 and 390 px (issue 28): anna sends a line with 1. e4 from the game
page, boris's expected moves through the API fire it twice, and the page shows what is left of the line and
the history marks the replies; nothing scrolls sideways on a phone."""

from __future__ import annotations


import pytest


from ..conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

NOTE = "conditional reply from the line sent with move 1 (Correspondence rules 50.4.8)"


def api_move(user, game, number, notation):
    response = client_for(user).post(f"/api/games/{game.pk}/moves/", {"number": number, "notation": notation},
                                     format="json")
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_line_sent_from_the_page_fires_twice_and_the_history_marks_it(page, server_game, anna, boris, width):
    game = server_game
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    assert "One branch a line" in page.find("#move-form").text
    page.fill("#move-notation", "e4")
    page.fill("#move-conditional", "e5 Nf3\n  Nc6 Bb5")
    page.click("#move-form button[type=submit]")
    line = page.find("#conditional-line")
    assert "Your conditional line, sent with move 1" in line.text
    assert [li.text.split("\n")[0] for li in page.all("#conditional-line .branch")] == ["e5 → Nf3", "Nc6 → Bb5"]
    assert page.layout_problems() == []

    api_move(boris, game, 1, "e5")
    page.open(f"/games/{game.pk}/")
    assert [li.text for li in page.all("#conditional-line .branch")] == ["Nc6 → Bb5"]
    assert "Nf3" in page.find("#history").text and NOTE in page.find("#history").text
    assert page.no_horizontal_scroll() and page.layout_problems() == []

    api_move(boris, game, 2, "Nc6")
    page.open(f"/games/{game.pk}/")
    assert page.all("#conditional-line") == []  # the line is used up
    history = page.find("#history").text
    assert history.count(NOTE) == 2 and "Bb5" in history
    assert page.no_horizontal_scroll() and page.layout_problems() == []
    page.screenshot(f"conditional-{width}", whole=True)
