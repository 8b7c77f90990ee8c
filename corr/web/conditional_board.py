"""The board a player builds a conditional line on (issue 28, on issue 36's board; ``corr/static/corr/conditional.js``).

The same board as the one a player moves on (cm-chessboard, set up by ``corr/static/corr/board.js``; the move
board is ``corr.web.move_board``): the player clicks or drags a piece to its square, the partner's expected move,
then their reply, branch after branch. The move board's legal moves come from this server; a line walks a tree
of positions, so here the page lists the legal moves of each position itself, with chess.js (vendored,
``corr/static/vendor/chess.js/VENDORED.md``), and writes the line into the same text area the text path uses,
one branch a line, in SAN (``e5 Nf3``). The server stays the only judge: the service reads the line sent (SAN, or
UCI such as ``e1g1``: python-chess's ``parse_san`` takes coordinates), checks it at every node and stores it in
SAN; a branch it refuses is named by its line, as a typed one is.

Chess only: draughts lines are typed (``c3-d4``), and a game whose position cannot be read has no board.
"""

from __future__ import annotations

import chess
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _

from corr.games.boards import ChessBoard
from corr.templatetags.corr_i18n import word

from .move_board import PROMOTIONS, WORDS as MOVE_WORDS, last_squares, sprite_of

WORDS = {
    "partner": _("Your partner's expected move (%(colour)s): choose a piece, then the square it goes to."),
    "reply": _("Your reply (%(colour)s): choose a piece, then the square it goes to."),
    "chosen": _("%(square)s chosen: now the square it goes to (the same square again drops it)."),
    "not_mover": _("No %(colour)s piece on %(square)s: choose one of the pieces that move now."),
    "added": _("Added: %(move)s."),
    "board": _("Board: the position after the moves chosen"),
    "start": _("Back to the start position"),
    "undo": _("Take back the last move"),
    "here": _("Add replies after this branch"),
    "here_short": _("go on here"),
    "remove": _("Remove this branch"),
    "remove_short": _("remove"),
    "waiting": _("your reply?"),
    "none": _("No branch yet: click your partner's expected move on the board."),
    "lines": _("Your line so far"),
    "as_text": _("Type the line as text"),
    "as_board": _("Build on the board"),
    "unread": _("The text has a line the board cannot read or a move it cannot play there: the board keeps "
                "its own line."),
}
SHARED = ("not_legal", "which", "again", "list", "list_none", "play")
"""The move board's words the builder's board says too (``corr.web.move_board.WORDS``)."""


def builder_config(board: ChessBoard, colour: str, tree: list | None) -> dict:
    """What the board script needs (``json_script``): the position (FEN), the owner's colour (the board is
    drawn from their side), the last move of the game, the line to start from (``tree``, stored SAN, read on
    ``board``; None: none) with each move in SAN and UCI, the piece sprite and the board's assets, and its words
    in the active language.
    """
    return {
        "fen": board.key(), "player": colour, "last": last_squares(board),
        "tree": tree_moves(tree or [], board.board),
        "sprite": sprite_of("chess"), "assets": static("vendor/cm-chessboard/assets/"),
        "words": {key: str(text) for key, text in WORDS.items()}
        | {key: str(MOVE_WORDS[key]) for key in SHARED},
        "colours": {"white": str(word("white")), "black": str(word("black"))},
        "promotions": {key: str(text) for key, text in PROMOTIONS.items()},
    }


def tree_moves(tree: list, board: chess.Board) -> list:
    """``tree`` (SAN, checked when stored) with each move as ``{"san", "uci"}``; a branch the board cannot
    play (it never is one: the line was checked on this position) is left out, with its deeper ones."""
    out = []
    for branch in tree:
        after = board.copy()
        moves = []
        for notation in (branch["if"], branch["then"]):
            move = ChessBoard(after).move_of(notation)
            if move is None:
                break
            moves.append({"san": after.san(move), "uci": move.uci()})
            after.push(move)
        if len(moves) == 2:
            out.append({"if": moves[0], "then": moves[1], "next": tree_moves(branch.get("next") or [], after)})
    return out
