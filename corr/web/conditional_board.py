"""The board diagram a player builds a conditional line on (issue 28; ``corr/static/corr/conditional.js``).

The script draws the position the line is read from and lets the player click a piece, then its square:
the partner's expected move, then their reply, branch after branch. It knows where the pieces stand and
nothing of the rules (no chess library runs in the page): it writes the line into the same text area the
text path uses, one branch a line, each move in UCI (``e2e4``, ``e1g1``, ``e7e8q``), which the service
reads as it reads SAN (python-chess's ``parse_san`` takes coordinates), checks at every node and stores in
SAN. The server stays the only judge: a branch the board let through and the rules refuse is refused with
its line named, as a typed one is.

Chess only: draughts lines are typed (``c3-d4``), and a game whose position cannot be read has no board.
"""

from __future__ import annotations

import chess
from django.utils.translation import gettext_lazy as _

from corr.games.boards import ChessBoard

from corr.templatetags.corr_i18n import word

WORDS = {
    "partner": _("Your partner's expected move (%(colour)s): choose a piece, then the square it goes to."),
    "reply": _("Your reply (%(colour)s): choose a piece, then the square it goes to."),
    "chosen": _("%(square)s chosen: now the square it goes to (the same square again drops it)."),
    "not_mover": _("No %(colour)s piece on %(square)s: choose one of the pieces that move now."),
    "added": _("Added: %(move)s."),
    "board": _("Board: the position after the moves chosen"),
    "empty": _("empty"),
    "start": _("Back to the start position"),
    "undo": _("Take back the last move"),
    "here": _("Add replies after this branch"),
    "here_short": _("go on here"),
    "remove": _("Remove this branch"),
    "remove_short": _("remove"),
    "waiting": _("your reply?"),
    "none": _("No branch yet: click your partner's expected move on the board."),
    "list": _("Your line so far"),
    "promote": _("A pawn reaching the last rank becomes"),
    "as_text": _("Type the line as text"),
    "as_board": _("Build on the board"),
    "unread": _("The text has moves the board cannot show (SAN): the board keeps its own line."),
}
PIECES = {"K": _("white king"), "Q": _("white queen"), "R": _("white rook"), "B": _("white bishop"),
          "N": _("white knight"), "P": _("white pawn"), "k": _("black king"), "q": _("black queen"),
          "r": _("black rook"), "b": _("black bishop"), "n": _("black knight"), "p": _("black pawn")}
"""A square's piece as the board says it to a screen reader (its FEN letter: upper case white)."""
PROMOTIONS = {"q": _("a queen"), "r": _("a rook"), "b": _("a bishop"), "n": _("a knight")}


def builder_config(board: ChessBoard, colour: str, tree: list | None) -> dict:
    """What the board script needs (``json_script``): the position (FEN), the owner's colour (the board is
    drawn from their side), the line to start from (``tree``, stored SAN, read on ``board``; None: none) with
    each move in SAN and UCI, and its words in the active language.
    """
    return {
        "fen": board.key(), "player": colour, "tree": tree_moves(tree or [], board.board),
        "words": {key: str(text) for key, text in WORDS.items()},
        "colours": {"white": str(word("white")), "black": str(word("black"))},
        "pieces": {key: str(text) for key, text in PIECES.items()},
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
