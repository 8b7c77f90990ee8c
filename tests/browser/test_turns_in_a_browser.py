"""Who is on move, since and until when, read in chromium at 1280 and 390 px (issue 25, findings 2 and 3).

A move in the post, a player over the control and a server game's first move: each page says the one
answer (``corr.games.turns``), and nothing of it is cut or scrolled sideways on a phone. Real dates,
relative to today (the browser keeps its own clock).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.games import services

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = ["desktop", "phone"]


def day(n: int):
    return timezone.localdate() + timedelta(days=n)


def iso(n: int) -> str:
    return day(n).isoformat()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_move_in_the_post_runs_no_clock_on_the_game_page_and_the_tournament_page(page, arbiter, anna, boris,
                                                                                    width):
    t = services.tournament_create(by=arbiter, name="Browser post", official_start=day(-10), mode="postal",
                                   presumed_transit_days=3)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=day(0))
    services.move_submit(game=game, by=anna, number=1, notation="e4", sent_on=day(-1), mail="ordinary", today=day(0))
    page.width(width).sign_in(boris).open(f"/games/{game.pk}/")
    assert page.find("#turn").text.startswith(f"Waiting: anna's move is presumed in the post until {iso(2)}.")
    assert page.find("#account-black .deadline").text == "-"
    assert "waiting: anna's move is presumed in the post until" in page.find("#account-black .turn").text
    assert "not on move" not in page.text() and "Your move 1" not in page.find("#turn").text
    assert page.layout_problems() == []
    page.sign_in(arbiter).open(f"/tournaments/{t.pk}/")
    assert "No deadline in the next 28 days." in page.text()
    assert all("presumed in the post" in cell.text for cell in page.all("td.turn"))
    assert page.layout_problems() == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_over_the_control_reads_on_move_with_no_day_in_time(page, arbiter, anna, boris, width):
    t = services.tournament_create(by=arbiter, name="Browser e-mail", official_start=day(-40), mode="postal",
                                   presumed_transit_days=0)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=day(0))
    services.move_submit(game=game, by=anna, number=1, notation="e4", sent_on=day(-5), mail="email", today=day(0))
    services.move_submit(game=game, by=boris, number=1, notation="e5", received_on=day(-5), sent_on=day(-3),
                         mail="email", today=day(0))
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    assert page.find("#turn").text.startswith("Your move 2: on move, over the control (no day is in time)")
    assert page.find("#account-white .turn").text == "on move, over the control (no day is in time)"
    assert "not on move" not in page.text() and "time trouble" not in page.find("#account-white").text
    assert page.layout_problems() == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_first_move_of_a_server_game_counts_from_the_start(page, arbiter, anna, boris, width):
    t = services.tournament_create(by=arbiter, name="Browser league", official_start=day(0), mode="server")
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=day(0))
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    assert page.find("#turn").text == (f"Your move 1: on move, deadline {iso(30)} (counted from the start,"
                                       f" {iso(0)}).")
    assert page.find("#account-white .deadline").text == iso(30)
    assert "still on its way" not in page.text()
    assert page.layout_problems() == []
