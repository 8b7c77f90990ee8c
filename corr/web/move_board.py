"""The board a player moves on in a server chess or Russian draughts game (issue 36; ``static/corr/move_board.js``).

The board judges no rule: the server lists the legal moves of the position here (python-chess for chess,
pydraughts' ``legal_moves`` with their ``steps_move`` for draughts) and the page lets only those be made.
Each move carries what the script needs and nothing it must work out: its squares, the text the typed move
form takes (chess in UCI, ``e7e8q``, which the service reads and stores in SAN; draughts ``c3-d4`` or a
capture with every landing square, ``c3:e5:g7``, so that no capture is ambiguous), the words a player reads
(SAN, or the draughts text) and the placement after it, drawn on the board while the player confirms.
On confirm the script writes that text into the move form's notation field and submits the same form:
the server takes the move by the one path the typed move takes, and checks it again there.

Draughts placements are written as chess placements, so that one board library draws both: a man is a pawn
(``P``/``p``) and a king a king (``K``/``k``), on the dark squares; ``corr/static/corr/draughts.svg`` draws
them as men and kings.
"""

from __future__ import annotations

import chess
from draughts import Board as PyDraughtsBoard
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _

from corr.games.boards import Board, ChessBoard
from corr.live.position import DRAUGHTS_SQUARE, DRAUGHTS_VARIANT, draughts_square
from corr.templatetags.corr_i18n import word

WORDS = {
    "board": _("Board: choose a piece, then the square it goes to"),
    "choose": _("Choose a piece of yours to move, or a move from the list below."),
    "chosen": _("%(square)s chosen: now the square it goes to."),
    "not_legal": _("That is not a legal move here."),
    "which": _("Which move?"),
    "confirm": _("Your move: %(move)s. A correspondence move cannot be taken back: send it?"),
    "send": _("Send %(move)s"),
    "again": _("Choose again"),
    "sending": _("Sending %(move)s…"),
    "list": _("Or choose the move from the list"),
    "list_none": _("a legal move…"),
    "play": _("Play this move"),
}
PROMOTIONS = {"q": _("queen"), "r": _("rook"), "b": _("bishop"), "n": _("knight")}


def chess_moves(board: chess.Board) -> list[dict]:
    """Every legal move of ``board`` as the script takes it (module docstring), in SAN order."""
    moves = []
    for move in board.legal_moves:
        san = board.san(move)
        after = board.copy(stack=False)
        after.push(move)
        moves.append({"from": chess.square_name(move.from_square), "to": chess.square_name(move.to_square),
                      "promotion": chess.piece_symbol(move.promotion) if move.promotion else "",
                      "notation": move.uci(), "label": san, "after": after.board_fen()})
    return sorted(moves, key=lambda m: m["label"])


def draughts_placement(fen: str) -> str:
    """A Russian draughts FEN (pydraughts', ``W:Wa1,Kc3:Bb6``) as a chess placement: men ``P``/``p``, kings ``K``."""
    pieces: dict[str, str] = {}
    for part in fen.split(":")[1:]:
        if not part or part[0] not in "WB":
            continue
        for item in part[1:].split(","):
            square = DRAUGHTS_SQUARE.search(item)
            if square is not None:
                letter = "K" if item.strip().upper().startswith("K") else "P"
                pieces[square.group()] = letter if part[0] == "W" else letter.lower()
    rows = []
    for rank in "87654321":
        row, empty = "", 0
        for file in "abcdefgh":
            piece = pieces.get(file + rank)
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def draughts_moves(fen: str) -> list[dict]:
    """Every legal Russian draughts move from ``fen`` (pydraughts), written with every square it lands on:
    ``c3-d4``, or a capture ``c3:e5:g7`` (what ``corr.live.position.draughts_move`` reads back as this move)."""
    board = PyDraughtsBoard(variant=DRAUGHTS_VARIANT, fen=fen)
    moves = []
    for move in board.legal_moves():
        path = [draughts_square(number) for number in move.steps_move]
        after = board.copy()
        after.push(move)
        text = ":".join(path) if move.captures else f"{path[0]}-{path[-1]}"
        moves.append({"from": path[0], "to": path[-1], "promotion": "", "notation": text, "label": text,
                      "after": draughts_placement(after.fen)})
    return sorted(moves, key=lambda m: m["label"])


def placement(board: Board) -> str:
    """The position of ``board`` as a chess placement (a draughts one by ``draughts_placement``)."""
    return board.board.board_fen() if isinstance(board, ChessBoard) else draughts_placement(board.fen)


def last_squares(board: Board) -> list[str]:
    """The squares the last move left and reached (``[]``: no move yet), to be marked on the board."""
    if isinstance(board, ChessBoard):
        if not board.board.move_stack:
            return []
        move = board.board.peek()
        return [chess.square_name(move.from_square), chess.square_name(move.to_square)]
    squares = DRAUGHTS_SQUARE.findall((board.last() or "").split(" ")[-1])
    return [squares[0], squares[-1]] if squares else []


def check_square(board: Board) -> str | None:
    """Chess: the square of the king in check (the side to move's); else None."""
    if isinstance(board, ChessBoard) and board.board.is_check():
        king = board.board.king(board.board.turn)
        return None if king is None else chess.square_name(king)
    return None


def sprite_of(kind: str) -> str:
    """The piece sprite's URL of a board of ``kind`` (``chess``: cm-chessboard's; ``draughts``: corr's)."""
    return static("vendor/cm-chessboard/assets/pieces/standard.svg" if kind == "chess" else "corr/draughts.svg")


def move_board_config(board: Board, colour: str) -> dict:
    """What ``move_board.js`` needs (``json_script``): the kind, the placement, the side the board is drawn from
    (``colour``, the player to move), the last move and the king in check, the legal moves (``chess_moves`` or
    ``draughts_moves``), the piece sprite and the words in the active language.
    """
    chess_kind = isinstance(board, ChessBoard)
    return {
        "kind": "chess" if chess_kind else "draughts", "placement": placement(board), "player": colour,
        "last": last_squares(board), "check": check_square(board),
        "moves": chess_moves(board.board) if chess_kind else draughts_moves(board.fen),
        "sprite": sprite_of("chess" if chess_kind else "draughts"),
        "assets": static("vendor/cm-chessboard/assets/"),
        "words": {key: str(text) for key, text in WORDS.items()},
        "promotions": {key: str(text) for key, text in PROMOTIONS.items()},
        "colours": {"white": str(word("white")), "black": str(word("black"))},
    }
