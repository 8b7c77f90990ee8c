"""Issue 28 in chromium at 1280 and 390 px: a received postal variant recorded from the game page (refused with
its error, then stored), and the warning on a conditional line whose position an arbiter changed, replaced
from the page; nothing scrolls sideways on a phone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.games import services

from ..conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def api_post(user, game, path, body, status=201):
    response = client_for(user).post(f"/api/games/{game.pk}/{path}", body, format="json")
    assert response.status_code == status, response.json()
    return response.json()


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_received_variant_is_refused_then_recorded_from_the_page(page, arbiter, anna, boris, width):
    today = timezone.localdate()
    t = services.tournament_create(by=arbiter, name="Browser postal", official_start=today - timedelta(days=20),
                                   mode="postal", presumed_transit_days=4)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=today)
    day = (today - timedelta(days=18)).isoformat()
    api_post(anna, game, "moves/", {"number": 1, "notation": "e4", "sent_on": day})
    api_post(boris, game, "moves/", {"number": 1, "notation": "e5", "received_on": (today - timedelta(days=14))
                                     .isoformat(), "sent_on": (today - timedelta(days=13)).isoformat()})
    api_post(anna, game, "moves/", {"number": 2, "notation": "Nf3", "received_on": (today - timedelta(days=9))
                                    .isoformat(), "sent_on": (today - timedelta(days=8)).isoformat()})
    page.width(width).sign_in(boris).open(f"/games/{game.pk}/")
    assert "Your next move is 2." in page.find("#variant-form").text
    page.fill("#variant-line", "2... Nc6 3. Bb5 a6 4. Ba4")
    page.fill("#variant-accepted_through", "7")
    page.click("#variant-form button[type=submit]")
    summary = page.find("#error-summary").text
    assert "Accepted through your move" in summary and "Correspondence rules 50.4.8" in summary
    assert page.layout_problems() == []
    page.fill("#variant-accepted_through", "3")
    page.click("#variant-form button[type=submit]")
    history = page.find("#history").text
    assert "Ba4" in history and "Bb5" in history
    assert "Your next move is 4." in page.find("#variant-form").text
    assert page.no_horizontal_scroll() and page.layout_problems() == []


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_line_whose_position_changed_is_warned_and_replaced_from_the_page(page, server_game, arbiter, anna, boris,
                                                                           width):
    game = server_game
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    page.fill("#move-notation", "e4")
    page.fill("#move-conditional", "e5 Nf3")
    page.click("#move-form button[type=submit]")
    assert page.all("#conditional-warning") == []
    api_post(arbiter, game, "corrections/", {"event": 1, "notation": "d4", "note": "the card reads d4"})
    page.open(f"/games/{game.pk}/")
    warning = page.find("#conditional-warning").text
    assert "built for the position after white's move 1" in warning and "it will not fire" in warning
    assert page.find("#conditional-form").is_displayed()  # "Replace the line" is open, prefilled
    assert page.no_horizontal_scroll() and page.layout_problems() == []
    page.click("#conditional-form button[type=submit]")
    assert page.all("#conditional-warning") == []
    api_post(boris, game, "moves/", {"number": 1, "notation": "e5"})
    page.open(f"/games/{game.pk}/")
    assert "conditional reply from the line sent with move 1" in page.find("#history").text
