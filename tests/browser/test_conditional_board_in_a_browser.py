"""A conditional line built on the game page's board diagram in chromium at 1280 and 390 px (issue 28): anna plays
1. e4, clicks boris's expected moves and her replies on the board (one of them by the keyboard alone), sees the
line as an indented list, sends it, sees it stored in SAN, and boris's expected move through the API fires it;
nothing scrolls sideways on a phone."""

from __future__ import annotations

import pytest

from .test_conditional_in_a_browser import NOTE, api_move

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = "#conditional-board"


def click_squares(page, *names: str) -> None:
    for name in names:
        page.click(f'{BOARD} button[data-square="{name}"]', navigates=False)


def built(page) -> list[str]:
    return [b.text for b in page.all(f"{BOARD} .cb-branch")]


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_line_built_on_the_board_is_sent_shown_indented_and_fires(page, server_game, anna, boris, width):
    from selenium.webdriver.common.keys import Keys

    game = server_game
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    page.fill("#move-notation", "e4")
    page.click("#move-form button[type=submit]")
    page.click("#conditional-build summary", navigates=False)
    assert page.find(BOARD).is_displayed() and not page.find("#conditional-text").is_displayed()
    assert "Your partner's expected move (black)" in page.find(f"{BOARD} .cb-status").text
    assert "No branch yet" in page.find(f"{BOARD} .cb-list").text

    click_squares(page, "e7", "e5")
    assert built(page) == ["e7-e5 → your reply?"]
    assert "Your reply (white)" in page.find(f"{BOARD} .cb-status").text
    # The reply by the keyboard alone: Enter on g1, the arrow keys to f3 (up two ranks, left one file), Enter.
    page.find(f'{BOARD} button[data-square="g1"]').send_keys(Keys.ENTER)
    focused = page.driver.switch_to.active_element
    for key in (Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_LEFT):
        focused.send_keys(key)
        focused = page.driver.switch_to.active_element
    assert focused.get_attribute("data-square") == "f3" and focused.get_attribute("aria-label") == "f3, empty"
    focused.send_keys(Keys.ENTER)
    assert built(page) == ["e7-e5 → Ng1-f3"]
    click_squares(page, "b8", "c6", "f1", "b5")  # deeper: 2... Nc6 3. Bb5
    page.click(f"{BOARD} .cb-start", navigates=False)
    click_squares(page, "c7", "c5", "g1", "f3")  # another branch from the start: 1... c5 2. Nf3
    assert built(page) == ["e7-e5 → Ng1-f3", "Nb8-c6 → Bf1-b5", "c7-c5 → Ng1-f3"]
    nested = page.all(f"{BOARD} .cb-list > ul > li > ul .cb-branch")  # the indented list: 2... Nc6 under 1... e5
    assert [b.text for b in nested] == ["Nb8-c6 → Bf1-b5"]
    assert page.find("#conditional-text textarea").get_attribute("value") == "e7e5 g1f3\n  b8c6 f1b5\nc7c5 g1f3"
    assert page.no_horizontal_scroll() and page.layout_problems() == []
    page.screenshot(f"conditional-board-{width}")

    page.click("#conditional-form button[type=submit]")
    line = page.find("#conditional-line")
    assert "Your conditional line, sent with move 1" in line.text
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == [
        "e5 → Nf3", "Nc6 → Bb5", "c5 → Nf3"]
    assert [b.text for b in page.all("#conditional-line > .conditional-tree > li > .conditional-tree .branch")] == [
        "Nc6 → Bb5"]

    api_move(boris, game, 1, "e5")
    page.open(f"/games/{game.pk}/")
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == ["Nc6 → Bb5"]
    history = page.find("#history").text
    assert "Nf3" in history and NOTE in history
    page.click("#conditional-line summary", navigates=False)  # the replace form's board starts from what is left
    assert built(page) == ["Nc6 → Bb5"]
    assert page.no_horizontal_scroll() and page.layout_problems() == []


def square_label(page, name: str) -> str:
    return page.find(f'{BOARD} button[data-square="{name}"]').get_attribute("aria-label")


def test_black_builds_from_their_side_takes_back_removes_and_switches_to_text_and_back(page, server_game, anna, boris):
    game = server_game
    for user, number, notation in ((anna, 1, "e4"), (boris, 1, "e5"), (anna, 2, "Nf3")):
        api_move(user, game, number, notation)
    api_move(boris, game, 2, "Nc6")
    page.width("desktop").sign_in(boris).open(f"/games/{game.pk}/")
    page.click("#conditional-build summary", navigates=False)
    squares = [s.get_attribute("data-square") for s in page.all(f"{BOARD} .cb-sq")]
    assert squares[:2] == ["h1", "g1"] and squares[-1] == "a8"  # drawn from black's side
    assert "Your partner's expected move (white)" in page.find(f"{BOARD} .cb-status").text

    click_squares(page, "f1", "c4", "g8", "f6")
    assert built(page) == ["Bf1-c4 → Ng8-f6"]
    page.click(f"{BOARD} .cb-back", navigates=False)  # the reply taken back: the partner's move waits for one
    assert built(page) == ["Bf1-c4 → your reply?"] and "Your reply (black)" in page.find(f"{BOARD} .cb-status").text
    click_squares(page, "f8", "c5")
    assert built(page) == ["Bf1-c4 → Bf8-c5"]
    page.click(f"{BOARD} .cb-remove", navigates=False)
    assert built(page) == [] and "No branch yet" in page.find(f"{BOARD} .cb-list").text

    page.click(f"{BOARD} .cb-to-text", navigates=False)
    assert not page.find(BOARD).is_displayed() and page.find("#conditional-text").is_displayed()
    page.fill("#conditional-text textarea", "f1c4 g8f6\n  e1g1 f8c5")
    page.click(".cb-to-board", navigates=False)  # the text is in the board's own notation: the board reads it
    assert built(page) == ["Bf1-c4 → Ng8-f6", "O-O → Bf8-c5"]
    page.click(f"{BOARD} .cb-list li li .cb-here", navigates=False)  # go on after 4. O-O Bc5: the rook went to f1
    assert (square_label(page, "g1"), square_label(page, "f1")) == ("g1, white king", "f1, white rook")
    page.click(f"{BOARD} .cb-to-text", navigates=False)
    page.fill("#conditional-text textarea", "Bb5 a6")
    page.click(".cb-to-board", navigates=False)  # SAN: the board cannot show it and keeps its own line
    assert "the board keeps its own line" in page.find(f"{BOARD} .cb-status").text
    assert built(page) == ["Bf1-c4 → Ng8-f6", "O-O → Bf8-c5"]
    assert page.find("#conditional-text textarea").get_attribute("value") == "f1c4 g8f6\n  e1g1 f8c5"

    page.click("#conditional-form button[type=submit]")
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == ["Bc4 → Nf6", "O-O → Bc5"]


def test_a_move_the_rules_refuse_is_named_by_its_line_and_the_board_takes_the_line_back(page, server_game, anna):
    game = server_game
    page.width("desktop").sign_in(anna).open(f"/games/{game.pk}/")
    page.fill("#move-notation", "e4")
    page.click("#move-form button[type=submit]")
    page.click("#conditional-build summary", navigates=False)
    click_squares(page, "e7", "e5", "e1", "e3")  # the board knows no rule: the king may "go" two squares up
    page.click("#conditional-form button[type=submit]")
    assert "Line 1: white's move 2 e1e3 is not a legal move after 1... e5" in page.find("#conditional-text").text
    assert page.find("#conditional-text").is_displayed() and not page.find(BOARD).is_displayed()
    page.click(".cb-to-board", navigates=False)
    assert built(page) == ["e7-e5 → Ke1-e3"]
    page.click(f"{BOARD} .cb-here", navigates=False)  # the board starts at the start: go on from the branch,
    page.click(f"{BOARD} .cb-back", navigates=False)  # take its reply back, and give another
    click_squares(page, "g1", "f3")
    assert built(page) == ["e7-e5 → Ng1-f3"]
    page.click("#conditional-form button[type=submit]")
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == ["e5 → Nf3"]
