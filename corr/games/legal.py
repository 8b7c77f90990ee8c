"""A server move checked on the game's board (issue 36): legal, it is stored as corr writes it; else refused.

The server is the board in a server game, as on the ICCF webserver, lichess or OGS: a move that is not legal
there, or not written so corr reads it, is refused with a 400 naming ``notation``, the move and the position
(``"Ke2 is not a legal move for white after 1. e4 e5"``), and nothing is stored or charged: it is not the
impossible move of 50.4.9.1, which a postal player writes and the arbiter penalises. Postal and e-mail games
record what the players wrote and are not checked here.

Chess by python-chess (SAN or UCI, stored in SAN), Russian draughts by pydraughts (``c3-d4``, ``c3:e5``), Go on
sgfmill's board with the suicide and simple-ko rules (``D4``, ``pass``): ``corr.games.boards``.
"""

from __future__ import annotations

import chess
from django.utils.translation import gettext_lazy as _
from draughts import Board as PyDraughts

from corr.live.position import DRAUGHTS_VARIANT, draughts_square

from .boards import ChessBoard, DraughtsBoard, GoBoard
from .errors import InvalidInput, colour_word
from .replay import PlayBoard, Replay

FIELD = "notation"


def position_words(replay: Replay) -> str:
    """The position as a score says it: ``1. e4 e5``, ``12... Nf6``, ``3. D4`` (Go: black's move first)."""
    moves = replay.last_moves
    if not moves:
        return ""
    colour, number, text, _seq = moves[-1]
    if len(moves) > 1 and moves[-2][1] == number and moves[-2][0] != colour:
        return f"{number}. {moves[-2][2]} {text}"
    first = replay.board is not None and colour == _first_colour(replay.board)
    return f"{number}. {text}" if first else f"{number}... {text}"


def _first_colour(board: PlayBoard) -> str:
    return "black" if isinstance(board, GoBoard) else "white"


def move_checked(replay: Replay, notation: str):
    """``notation``'s legal move on ``replay.board`` (a whole replay: the game's position).

    :raises InvalidInput: (``field: "notation"``) unreadable, ambiguous or illegal there, in the reader's
        language, naming the move, the mover and the position.
    """
    board = replay.board
    move = board.move_of(notation)
    if move is not None:
        return move
    params = {"move": notation.strip(), "colour": colour_word(board.turn), "moves": position_words(replay)}
    why = _why(board, notation)
    start = not replay.read
    if why == "unreadable":
        raise InvalidInput(_UNREADABLE[board.kind][start], field=FIELD, **params)
    if why == "ambiguous":
        raise InvalidInput(_AMBIGUOUS[start], field=FIELD, **params)
    if why == "ways":
        params["ways"] = board.ways(notation)
        raise InvalidInput(_WAYS[start], field=FIELD, **params)
    if why == "capture":
        params["captures"] = ", ".join(_draughts_captures(board))
    reason = _REASONS.get(why)
    if reason is None:
        raise InvalidInput(_ILLEGAL[start], field=FIELD, **params)
    raise InvalidInput(_ILLEGAL_BECAUSE[start], field=FIELD, reason=_Reason(reason, params), **params)


class _Reason:
    """A reason said in the language the message is read in (lazy: the message is translated when read)."""

    def __init__(self, text, params: dict) -> None:
        self.text, self.params = text, params

    def __str__(self) -> str:
        return str(self.text) % self.params


def _why(board: PlayBoard, notation: str) -> str | None:
    """What is wrong with ``notation`` on ``board`` (not a legal move there), as a key of the messages below."""
    if isinstance(board, GoBoard):
        return board.why_not(notation)
    if isinstance(board, DraughtsBoard):
        if not board.readable(notation):
            return "unreadable"
        if board.ways(notation):
            return "ways"
        return "capture" if _draughts_captures(board) else None
    return _chess_why(board, notation)


def _chess_why(board: ChessBoard, notation: str) -> str | None:
    text = notation.strip().rstrip("!?").replace("0", "O")
    try:
        board.board.parse_san(text)
    except chess.AmbiguousMoveError:
        return "ambiguous"
    except chess.InvalidMoveError:
        return "unreadable"
    except chess.IllegalMoveError:
        pass
    # A move the pieces could make but the king may not (into, through or out of check: FIDE 3.9, 3.8.2).
    bare = text.rstrip("+#")
    position = board.board
    if bare in ("O-O", "O-O-O"):
        king_side = bare == "O-O"
        rights = (position.has_kingside_castling_rights if king_side else position.has_queenside_castling_rights)
        king, rook = position.king(position.turn), position.castling_rights & position.occupied_co[position.turn]
        between = chess.SquareSet(chess.between(king, chess.H1 if king_side else chess.A1) if position.turn
                                  else chess.between(king, chess.H8 if king_side else chess.A8))
        if rights(position.turn) and rook and not between & position.occupied:
            return "in_check" if position.is_check() else "check"
        return None
    for move in position.pseudo_legal_moves:
        if position.is_legal(move):
            continue
        if move.uci() == bare.lower() or _pseudo_san(position, move) == bare:
            return "in_check" if position.is_check() else "check"
    return None


def _pseudo_san(board: chess.Board, move: chess.Move) -> str:
    """SAN of a move the pieces could make, without its check mark (python-chess writes it for legal moves)."""
    try:
        return board.san(move).rstrip("+#")
    except (AssertionError, ValueError):  # pragma: no cover - python-chess refuses to name it
        return ""


def _draughts_captures(board: DraughtsBoard) -> list[str]:
    """The captures open to the side to move, as corr writes them (blank: none, any move may be made)."""
    pieces = PyDraughts(variant=DRAUGHTS_VARIANT, fen=board.fen)
    captures = [move for move in pieces.legal_moves() if move.captures]
    return sorted({":".join(draughts_square(n) for n in move.steps_move) for move in captures})


_UNREADABLE = {
    "chess": {
        False: _("%(move)s is not written as a chess move (SAN such as Nf3, exd5, O-O, e8=Q, or UCI such as g1f3):"
                 " %(colour)s to move after %(moves)s"),
        True: _("%(move)s is not written as a chess move (SAN such as Nf3, exd5, O-O, e8=Q, or UCI such as g1f3):"
                " %(colour)s to move in the starting position"),
    },
    "draughts": {
        False: _("%(move)s is not written as a Russian draughts move (c3-d4, or c3:e5 for a capture): %(colour)s to"
                 " move after %(moves)s"),
        True: _("%(move)s is not written as a Russian draughts move (c3-d4, or c3:e5 for a capture): %(colour)s to"
                " move in the starting position"),
    },
    "go": {
        False: _("%(move)s is not written as a Go move (a point such as D4: a letter A-T without I and a number"
                 " 1-19; or pass): %(colour)s to move after %(moves)s"),
        True: _("%(move)s is not written as a Go move (a point such as D4: a letter A-T without I and a number"
                " 1-19; or pass): %(colour)s to move in the starting position"),
    },
}
_AMBIGUOUS = {
    False: _("%(move)s could be several moves for %(colour)s after %(moves)s: name the piece's file or rank (Nbd2)"),
    True: _("%(move)s could be several moves for %(colour)s in the starting position: name the piece's file or rank"),
}
_WAYS = {
    False: _("%(move)s fits several captures for %(colour)s after %(moves)s: name the squares between (%(ways)s)"),
    True: _("%(move)s fits several captures for %(colour)s in the starting position: name the squares between"
            " (%(ways)s)"),
}
_ILLEGAL = {
    False: _("%(move)s is not a legal move for %(colour)s after %(moves)s"),
    True: _("%(move)s is not a legal move for %(colour)s in the starting position"),
}
_ILLEGAL_BECAUSE = {
    False: _("%(move)s is not a legal move for %(colour)s after %(moves)s: %(reason)s"),
    True: _("%(move)s is not a legal move for %(colour)s in the starting position: %(reason)s"),
}
_REASONS = {
    "check": _("the king would be in check (FIDE 3.9; castling may not pass through or out of check, 3.8.2)"),
    "in_check": _("the king is in check and the move does not end it (FIDE 3.9)"),
    "capture": _("capturing is compulsory in Russian draughts: %(captures)s"),
    "occupied": _("the point is occupied"),
    "suicide": _("a stone may not be played where it or its group would have no liberty (suicide)"),
    "ko": _("ko: the stone just captured may not be retaken at once; play elsewhere first"),
}


def go_reason(why: str):
    """The rule a Go move broke (``GoBoard.why_not``: ``occupied``, ``suicide``, ``ko``), in the reader's language:
    one wording for a server move and a live one."""
    return _REASONS[why]
