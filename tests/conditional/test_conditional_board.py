"""The board a conditional line is built on, on the game page (issue 28, on issue 36's board; the clicking itself is
in tests/browser/test_conditional_board_in_a_browser.py): shown to the player whose partner is to move in a server
chess game, the move board's cm-chessboard with chess.js for the rules, with the position, the owner's side, the
game's last move and their line in SAN and UCI, in the reader's language; the line it writes (SAN, one branch a
line; UCI read too) is checked again at every node and stored in SAN; no board where the position is not read,
nor for draughts."""

from __future__ import annotations

from ..support.legal_moves import store_unchecked

import json
import re

import pytest

from corr.games import services
from corr.models import ConditionalTree

from ..conftest import TODAY
from .test_conditional_api import move
from .test_conditional_page import client, page, send, text

pytestmark = pytest.mark.django_db

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def config(html: str) -> dict | None:
    found = re.search(r'<script id="conditional-config" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1)) if found else None


def test_the_player_whose_partner_is_to_move_builds_a_line_on_a_board(server_game, anna, boris):
    html = page(anna, server_game)
    assert config(html) is None and "Build a conditional line" not in text(html)  # on move: the move form's text
    send(anna, server_game, 1, "e4")
    html = page(anna, server_game)
    assert "Build a conditional line" in text(html) and 'id="conditional-board"' in html
    assert "corr/conditional.css" in html and "vendor/cm-chessboard/assets/chessboard.css" in html
    assert re.search(r'<script type="module" src="[^"]*corr/conditional\.js"', html)  # imports board.js, chess.js
    board = config(html)
    assert (board["fen"], board["player"], board["tree"], board["last"]) == (AFTER_E4, "white", [], ["e2", "e4"])
    assert board["sprite"].endswith("vendor/cm-chessboard/assets/pieces/standard.svg")
    assert board["assets"].endswith("vendor/cm-chessboard/assets/")
    assert board["words"]["start"] == "Back to the start position" and board["promotions"]["n"] == "knight"
    assert board["words"]["play"] == "Play this move"  # the move board's words for the keyboard's list
    words = text(page(boris, server_game))  # on move: no line to build, and never anna's
    assert config(page(boris, server_game)) is None and "Build a conditional line" not in words


def test_the_line_the_board_writes_is_checked_and_stored_in_san(server_game, anna, boris):
    send(anna, server_game, 1, "e4")
    url = f"/games/{server_game.pk}/conditional/"
    # What the board writes: one branch a line, in SAN, a promotion and a check as SAN writes them.
    response = client(anna).post(url, {"conditional": "e5 Nf3\n  Nc6 Bb5\n    Nf6 O-O\nf6 Qh5+"})
    assert response.status_code == 302
    assert ConditionalTree.objects.get(game=server_game, player="white").tree[1] == {
        "if": "f6", "then": "Qh5+", "next": []}
    # What it wrote before chess.js, and reads back from the text: UCI, castling as the king's two squares.
    response = client(anna).post(url, {"conditional": "e7e5 g1f3\n  b8c6 f1b5\n    g8f6 e1g1\nc7c5 g1f3"})
    assert response.status_code == 302
    stored = ConditionalTree.objects.get(game=server_game, player="white")
    assert stored.tree == [{"if": "e5", "then": "Nf3", "next": [{"if": "Nc6", "then": "Bb5", "next": [
        {"if": "Nf6", "then": "O-O", "next": []}]}]}, {"if": "c5", "then": "Nf3", "next": []}]
    assert stored.sent_with_move == 1
    html = page(anna, server_game)
    assert "Your conditional line, sent with move 1" in text(html)
    assert "e5 → Nf3 Nc6 → Bb5 Nf6 → O-O c5 → Nf3" in text(html)
    board = config(html)  # the replace form's board starts from the line, each move in SAN and UCI
    assert board["tree"][0]["if"] == {"san": "e5", "uci": "e7e5"}
    assert board["tree"][0]["next"][0]["next"][0]["then"] == {"san": "O-O", "uci": "e1g1"}
    response = client(anna).post(url, {"conditional": "e7e5 g1f3\n  b8c6 f1b6"})  # a square the bishop cannot reach
    assert response.status_code == 400
    assert "Line 2: white's move 3 f1b6 is not a legal move after 2... Nc6" in text(response.content.decode())


def test_the_server_checks_again_every_node_whatever_the_board_let_through(server_game, anna):
    """The page's rules (chess.js) are a convenience: a line posted past them, in SAN as the board writes it,
    is refused at the node that breaks the rules, nothing stored."""
    send(anna, server_game, 1, "e4")
    url = f"/games/{server_game.pk}/conditional/"
    for line, refusal in (
            ("e5 Nf3\n  Nc6 Rh3", "Line 2: white's move 3 Rh3 is not a legal move after 2... Nc6"),  # through a pawn
            ("e5 Nf3\n  Nc6 Bb5\n    a6 O-O-O", "Line 3: white's move 4 O-O-O is not a legal move"),
            ("e5 Nf3\nd5 exd6", "Line 2: white's move 2 exd6 is not a legal move after 1... d5")):  # no e.p.
        response = client(anna).post(url, {"conditional": line})
        assert response.status_code == 400 and refusal in text(response.content.decode()), line
    assert not ConditionalTree.objects.filter(game=server_game, player="white").exists()


@pytest.mark.parametrize("language, start, knight, unread", [
    ("ru", "Вернуться к начальной позиции", "конь", "ход, который там невозможен"),
    ("fr", "Revenir à la position de départ", "cavalier", "un coup qu'il ne peut pas jouer"),
])
def test_the_boards_words_are_in_the_readers_language(server_game, anna, language, start, knight, unread):
    send(anna, server_game, 1, "e4")
    board = config(page(anna, server_game, language))
    assert board["words"]["start"] == start and board["promotions"]["n"] == knight
    assert unread in board["words"]["unread"]
    assert board["colours"]["black"] != "black"
    assert board["words"]["play"] != "Play this move"  # the move board's words, shared, translated too


def test_no_board_where_corr_cannot_read_the_position_and_in_draughts(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4")
    store_unchecked(server_game, boris, "black", 1, "e5?!x")  # stored before issue 36 checked server moves
    move(api, anna, server_game, 2, "Nf3")
    html = page(anna, server_game)
    assert "Build a conditional line" in text(html) and config(html) is None  # the text lines stay
    league = services.tournament_create(by=arbiter, name="Draughts league", official_start=TODAY, mode="server",
                                        kind="draughts")
    game = services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)
    move(api, anna, game, 1, "c3-d4")
    html = page(anna, game)
    assert "Build a conditional line" in text(html) and config(html) is None
