"""Moving on the board in chromium at 1280 and 390 px (issue 36): a player makes a server chess move by clicking the
board, a promotion asked and the move confirmed before it is sent, and a Russian draughts capture the same way;
the partner's page shows it; the typed form works with JavaScript off; "Next game where it's my move" goes to
the most urgent game. Screenshots as the other browser tests take them (``make screenshots``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.games import services
from corr.models import GameEvent

from .test_conditional_in_a_browser import api_move

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = "#move-board"


def click_square(page, square: str) -> None:
    """A click on ``square`` of the board to move on (its square, under the piece: pieces take no pointer)."""
    from selenium.webdriver.common.action_chains import ActionChains

    target = page.find(f'{BOARD} rect[data-square="{square}"]')
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    ActionChains(page.driver).move_to_element(target).click().perform()


def wait_for(page, css: str):
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(page.driver, 10).until(lambda d: page.all(css) and page.find(css).is_displayed())
    return page.find(css)


def diagram_pieces(page) -> dict[str, str]:
    """The server's diagram's pieces, ``{square: FEN letter}``."""
    return {u.get_attribute("data-square"): u.get_attribute("data-piece") for u in page.all("#diagram-svg use")}


@pytest.fixture
def draughts_server_game(arbiter, anna, boris):
    today = timezone.localdate()
    league = services.tournament_create(by=arbiter, name="Draughts browser", mode="server", kind="draughts",
                                        official_start=today - timedelta(days=1))
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=today)


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_promotion_clicked_on_the_board_is_asked_confirmed_sent_and_seen_by_the_partner(
        page, server_game, anna, boris, width):
    game = server_game
    for number, white, black in ((1, "a4", "b5"), (2, "axb5", "a6"), (3, "bxa6", "Bb7"), (4, "axb7", "Nc6")):
        api_move(anna, game, number, white)
        api_move(boris, game, number, black)
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    wait_for(page, f"{BOARD} .mb-board svg")
    assert not page.find("#diagram-svg").is_displayed()  # the board takes the diagram's place
    assert "Choose a piece" in page.find(f"{BOARD} .mb-status").text

    click_square(page, "b7")
    assert "b7 chosen" in page.find(f"{BOARD} .mb-status").text
    click_square(page, "b8")
    which = wait_for(page, f"{BOARD} .mb-choices")
    assert "Which move?" in which.text
    assert [b.text for b in page.all(f"{BOARD} .mb-choice")] == [
        "b8=Q (queen)", "b8=R (rook)", "b8=B (bishop)", "b8=N (knight)"]
    page.click(f'{BOARD} .mb-choice[data-notation="b7b8q"]', navigates=False)
    wait_for(page, f"{BOARD} .mb-confirm")
    assert "cannot be taken back" in page.find(f"{BOARD} .mb-status").text
    assert GameEvent.objects.filter(game=game, kind="move").count() == 8  # nothing sent before the confirmation
    assert page.no_horizontal_scroll() and page.layout_problems() == []
    page.screenshot(f"move-board-promotion-{width}")
    page.click(f"{BOARD} .mb-send")
    assert "Saved." in page.text()
    assert diagram_pieces(page).get("b8") == "Q" and "b7" not in diagram_pieces(page)

    page.sign_in(boris).open(f"/games/{game.pk}/")
    assert diagram_pieces(page).get("b8") == "Q" and "b7" not in diagram_pieces(page)
    assert page.find("#move-list li:last-child").text.startswith("b8=Q")  # sent in UCI, stored in SAN
    assert page.find(f"{BOARD} .mb-board svg")  # boris, on move, has the board drawn from black's side
    page.screenshot(f"move-board-partner-{width}")


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_draughts_capture_clicked_on_the_board_is_confirmed_and_sent(page, draughts_server_game, anna, boris,
                                                                       width):
    game = draughts_server_game
    api_move(anna, game, 1, "c3-d4")
    api_move(boris, game, 1, "f6-e5")
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    wait_for(page, f"{BOARD} .mb-board svg")
    click_square(page, "e3")  # a man that may not move: the capture is forced
    assert "not a legal move" in page.find(f"{BOARD} .mb-status").text
    click_square(page, "d4")
    click_square(page, "f6")
    wait_for(page, f"{BOARD} .mb-confirm")
    assert "Your move: d4:f6." in page.find(f"{BOARD} .mb-status").text
    page.screenshot(f"move-board-draughts-{width}")
    page.click(f"{BOARD} .mb-send")
    assert "Saved." in page.text()
    assert GameEvent.objects.filter(game=game, kind="move").order_by("seq").last().notation == "d4:f6"

    page.sign_in(boris).open(f"/games/{game.pk}/")
    pieces = diagram_pieces(page)
    assert pieces.get("f6") == "P" and "e5" not in pieces and "d4" not in pieces
    assert page.no_horizontal_scroll() and page.layout_problems() == []


def test_the_typed_form_works_with_javascript_off(page, server_game, anna):
    page.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        page.width("phone").sign_in(anna).open(f"/games/{server_game.pk}/")
        assert page.find("#diagram-svg").is_displayed() and not page.find(BOARD).is_displayed()
        page.fill("#move-notation", "e2e4")
        page.click("#move-form button[type=submit]")
        assert "Saved." in page.text()
        assert diagram_pieces(page).get("e4") == "P" and page.find("#move-list li").text.startswith("e4")
    finally:
        page.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_next_game_where_it_is_my_move_goes_to_the_most_urgent_game(page, arbiter, anna, boris, width):
    today = timezone.localdate()
    games = {}
    for name, days_ago in (("later", 1), ("soonest", 20), ("waiting", 25)):
        tournament = services.tournament_create(by=arbiter, name=f"Cup {name}", mode="server",
                                                official_start=today - timedelta(days=days_ago))
        games[name] = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=today)
    api_move(anna, games["waiting"], 1, "e4")  # anna waits there, though its deadline was the nearest
    page.width(width).sign_in(anna).open("/games/")
    rows = [a.text for a in page.all("table.cards td:first-child a")]
    assert rows == [f"#{games['soonest'].pk}", f"#{games['later'].pk}", f"#{games['waiting'].pk}"]
    page.click("#next-game a")
    assert page.driver.current_url.endswith(f"/games/{games['soonest'].pk}/")
    page.click("#next-game a")  # from the most urgent game, the next one
    assert page.driver.current_url.endswith(f"/games/{games['later'].pk}/")
    assert page.no_horizontal_scroll() and page.layout_problems() == []
