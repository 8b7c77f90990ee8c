"""A conditional line built on the game page's board in chromium at 1280 and 390 px (issue 28, on issue 36's board):
anna plays 1. e4, clicks boris's expected moves and her replies on cm-chessboard (one of them by the keyboard's
list alone, a castling among them), sees the line as an indented list, sends it, sees it stored in SAN, and boris's
expected move through the API fires it; the board takes only legal moves (chess.js in the page), asks a promotion,
and the server still refuses a typed illegal line naming it; nothing scrolls sideways on a phone."""

from __future__ import annotations

import time

import pytest

from .test_conditional_in_a_browser import NOTE, api_move

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = "#conditional-board"


def open_builder(page, summary: str = "#conditional-build summary") -> None:
    """Open the builder's details and wait until cm-chessboard has drawn its squares."""
    from selenium.webdriver.support.ui import WebDriverWait

    page.click(summary, navigates=False)
    WebDriverWait(page.driver, 10).until(lambda d: len(page.all(f"{BOARD} rect[data-square]")) == 64)
    time.sleep(.3)  # drawn again at the width the opened details give it


def click_squares(page, *names: str) -> None:
    """Clicks on the board's squares (under the pieces: pieces take no pointer), one after the other."""
    from selenium.webdriver.common.action_chains import ActionChains

    for name in names:
        target = page.find(f'{BOARD} rect[data-square="{name}"]')
        page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
        ActionChains(page.driver).move_to_element(target).click().perform()
        time.sleep(.2)  # the board draws the move's position a moment after the click


def built(page) -> list[str]:
    return [b.text for b in page.all(f"{BOARD} .cb-branch")]


def status(page) -> str:
    return page.find(f"{BOARD} .cb-status").text


def pieces(page) -> dict[str, str]:
    """The board's pieces, ``{square: cm-chessboard's name}`` (``wk``: the white king), once the drawing is still
    (cm-chessboard draws a position a moment after the script asked for it)."""
    from selenium.webdriver.support.ui import WebDriverWait

    script = """return Object.fromEntries([...document.querySelectorAll(arguments[0])]
        .map((g) => [g.getAttribute("data-square"), g.getAttribute("data-piece")]))"""
    css = f"{BOARD} g[data-square][data-piece]"

    def drawn(driver):
        first = driver.execute_script(script, css)
        time.sleep(.3)
        return first if first and first == driver.execute_script(script, css) else False

    return WebDriverWait(page.driver, 10).until(drawn)


def top(page, square: str) -> int:
    """The row ``square`` is drawn on, counted from the top of the board (0 to 7)."""
    return round(page.driver.execute_script("""
        const board = document.querySelector(arguments[0]).getBoundingClientRect()
        const square = document.querySelector(arguments[1]).getBoundingClientRect()
        return (square.top - board.top) / board.height * 8
    """, f"{BOARD} .cb-board svg", f'{BOARD} rect[data-square="{square}"]'))


def marked(page) -> set[str]:
    """The squares marked as the last move's."""
    return set(page.driver.execute_script("""return [...document.querySelectorAll(arguments[0])]
        .map((u) => u.parentNode.getAttribute("data-square"))""", f"{BOARD} use.marker-square"))


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_line_built_on_the_board_is_sent_shown_indented_and_fires(page, server_game, anna, boris, width):
    from selenium.webdriver.common.keys import Keys

    game = server_game
    page.width(width).sign_in(anna).open(f"/games/{game.pk}/")
    page.fill("#move-notation", "e4")
    page.click("#move-form button[type=submit]")
    open_builder(page)
    assert page.find(BOARD).is_displayed() and not page.find("#conditional-text").is_displayed()
    assert "Your partner's expected move (black)" in status(page)
    assert "No branch yet" in page.find(f"{BOARD} .cb-list").text
    assert pieces(page)["e4"] == "wp" and marked(page) == {"e2", "e4"}  # the game's last move

    click_squares(page, "e7", "e5")
    assert built(page) == ["e5 → your reply?"]
    assert "Your reply (white)" in status(page)
    assert marked(page) == {"e7", "e5"}
    # The reply by the keyboard alone: the list of the legal moves, typed to Nf3, Tab to "Play this move", Enter.
    listed = page.find("#conditional-board-list")
    assert "Ke2" in listed.text and "Ke3" not in listed.text  # only the legal moves are listed
    listed.send_keys("Nf3")
    listed.send_keys(Keys.TAB)
    focused = page.driver.switch_to.active_element
    assert "cb-play" in focused.get_attribute("class")
    focused.send_keys(Keys.ENTER)
    assert built(page) == ["e5 → Nf3"]
    assert pieces(page)["f3"] == "wn"
    click_squares(page, "b8", "c6", "f1", "b5")  # deeper: 2... Nc6 3. Bb5
    click_squares(page, "g8", "f6", "e1", "g1")  # deeper still: 3... Nf6 4. O-O, the king's two squares
    assert "Added: O-O." in status(page)
    placed = pieces(page)
    assert (placed.get("g1"), placed.get("f1"), placed.get("h1")) == ("wk", "wr", None)  # the rook went over
    page.click(f"{BOARD} .cb-start", navigates=False)
    click_squares(page, "c7", "c5", "g1", "f3")  # another branch from the start: 1... c5 2. Nf3
    assert built(page) == ["e5 → Nf3", "Nc6 → Bb5", "Nf6 → O-O", "c5 → Nf3"]
    nested = page.all(f"{BOARD} .cb-list > ul > li > ul .cb-branch")  # the indented list: 2... Nc6 under 1... e5
    assert [b.text for b in nested] == ["Nc6 → Bb5", "Nf6 → O-O"]
    assert page.find("#conditional-text textarea").get_attribute("value") == (
        "e5 Nf3\n  Nc6 Bb5\n    Nf6 O-O\nc5 Nf3")
    assert page.no_horizontal_scroll() and page.layout_problems() == []
    page.screenshot(f"conditional-board-{width}")

    page.click("#conditional-form button[type=submit]")
    line = page.find("#conditional-line")
    assert "Your conditional line, sent with move 1" in line.text
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == [
        "e5 → Nf3", "Nc6 → Bb5", "Nf6 → O-O", "c5 → Nf3"]
    assert [b.text for b in page.all("#conditional-line > .conditional-tree > li > .conditional-tree .branch")] == [
        "Nc6 → Bb5", "Nf6 → O-O"]

    api_move(boris, game, 1, "e5")
    page.open(f"/games/{game.pk}/")
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == ["Nc6 → Bb5", "Nf6 → O-O"]
    history = page.find("#history").text
    assert "Nf3" in history and NOTE in history
    open_builder(page, "#conditional-line summary")  # the replace form's board starts from what is left
    assert built(page) == ["Nc6 → Bb5", "Nf6 → O-O"]
    assert pieces(page)["f3"] == "wn" and marked(page) == {"g1", "f3"}
    assert page.no_horizontal_scroll() and page.layout_problems() == []


def test_black_builds_from_their_side_takes_back_removes_and_switches_to_text_and_back(page, server_game, anna, boris):
    game = server_game
    for user, number, notation in ((anna, 1, "e4"), (boris, 1, "e5"), (anna, 2, "Nf3")):
        api_move(user, game, number, notation)
    api_move(boris, game, 2, "Nc6")
    page.width("desktop").sign_in(boris).open(f"/games/{game.pk}/")
    open_builder(page)
    assert (top(page, "h1"), top(page, "a8")) == (0, 7)  # drawn from black's side: the first rank on top
    assert "Your partner's expected move (white)" in status(page)

    click_squares(page, "c6")  # not the mover's piece
    assert "No white piece on c6" in status(page)
    click_squares(page, "f1", "c4", "g8", "f6")
    assert built(page) == ["Bc4 → Nf6"]
    page.click(f"{BOARD} .cb-back", navigates=False)  # the reply taken back: the partner's move waits for one
    assert built(page) == ["Bc4 → your reply?"] and "Your reply (black)" in status(page)
    click_squares(page, "f8", "f5")  # the bishop cannot go there: the board refuses it
    assert "not a legal move" in status(page) and built(page) == ["Bc4 → your reply?"]
    click_squares(page, "f8", "c5")
    assert built(page) == ["Bc4 → Bc5"]
    page.click(f"{BOARD} .cb-remove", navigates=False)
    assert built(page) == [] and "No branch yet" in page.find(f"{BOARD} .cb-list").text

    page.click(f"{BOARD} .cb-to-text", navigates=False)
    assert not page.find(BOARD).is_displayed() and page.find("#conditional-text").is_displayed()
    page.fill("#conditional-text textarea", "f1c4 g8f6\n  e1g1 f8c5")  # UCI, as the board wrote it before
    page.click(".cb-to-board", navigates=False)
    assert built(page) == ["Bc4 → Nf6", "O-O → Bc5"]
    page.click(f"{BOARD} .cb-list li li .cb-here", navigates=False)  # go on after 4. O-O Bc5: the rook went to f1
    placed = pieces(page)
    assert (placed.get("g1"), placed.get("f1"), placed.get("c5")) == ("wk", "wr", "bb")
    page.click(f"{BOARD} .cb-to-text", navigates=False)
    assert page.find("#conditional-text textarea").get_attribute("value") == "Bc4 Nf6\n  O-O Bc5"  # in SAN
    page.fill("#conditional-text textarea", "Bc4 Nf6\n  Bb6 a6")  # SAN the board reads, but a move it cannot play
    page.click(".cb-to-board", navigates=False)
    assert "the board keeps its own line" in status(page)
    assert built(page) == ["Bc4 → Nf6", "O-O → Bc5"]
    assert page.find("#conditional-text textarea").get_attribute("value") == "Bc4 Nf6\n  O-O Bc5"

    page.click("#conditional-form button[type=submit]")
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == ["Bc4 → Nf6", "O-O → Bc5"]


def test_a_promotion_is_asked_and_a_typed_illegal_line_is_refused_by_the_server_naming_it(page, server_game, anna,
                                                                                         boris):
    game = server_game
    for number, white, black in ((1, "a4", "b5"), (2, "axb5", "a6"), (3, "bxa6", "Bb7")):
        api_move(anna, game, number, white)
        api_move(boris, game, number, black)
    api_move(anna, game, 4, "axb7")
    page.width("phone").sign_in(anna).open(f"/games/{game.pk}/")
    open_builder(page)
    click_squares(page, "b8", "c6", "b7", "b8")
    assert [b.text for b in page.all(f"{BOARD} .cb-choice")] == [
        "b8=Q (queen)", "b8=R (rook)", "b8=B (bishop)", "b8=N (knight)"]
    assert built(page) == ["Nc6 → your reply?"]  # nothing added before the answer
    assert page.no_horizontal_scroll() and page.layout_problems() == []
    page.screenshot("conditional-board-promotion-phone")
    page.click(f'{BOARD} .cb-choice[data-notation="b7b8n"]', navigates=False)
    assert built(page) == ["Nc6 → b8=N"] and pieces(page)["b8"] == "wn"

    # The server stays the judge: a line typed with a move the rules refuse is refused, its line named.
    page.click(f"{BOARD} .cb-to-text", navigates=False)
    page.fill("#conditional-text textarea", "Nc6 b8=N\nNf6 b8=K")
    page.click("#conditional-form button[type=submit]")
    assert "Line 2:" in page.find("#conditional-text").text and "b8=K" in page.find("#conditional-text").text
    assert page.find("#conditional-text").is_displayed() and not page.find(BOARD).is_displayed()
    page.click(".cb-to-board", navigates=False)  # the board cannot play it either, and keeps its own (empty) line
    assert "the board keeps its own line" in status(page) and built(page) == []
    click_squares(page, "b8", "c6", "b7", "a8")
    page.click(f'{BOARD} .cb-choice[data-notation="b7a8q"]', navigates=False)
    assert built(page) == ["Nc6 → bxa8=Q"]
    page.click("#conditional-form button[type=submit]")
    assert [b.text for b in page.all("#conditional-line > .conditional-tree .branch")] == ["Nc6 → bxa8=Q"]
