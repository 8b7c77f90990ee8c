"""The position of a live game, where corr reads its notation: chess SAN (python-chess), Russian draughts (pydraughts),
Go (sgfmill's board with suicide and ko, ``corr.games.goboard``; issue 36).

A position is a FEN string (Go: ``GoBoard.key``), stored after every move (``LiveGame.position``), so a
move is checked in one step and a flag is judged on the board it fell on. Moves sent without notation are
not read; a flag in a Go game, or in a game whose moves were not all read, goes to the arbiter.
"""

from __future__ import annotations

import re

import chess
from draughts import Board as DraughtsBoard

from corr.games.goboard import GoBoard
from corr.models import Colour, GameKind

DRAUGHTS_VARIANT = "russian"
# A Russian draughts move as players write it: c3-d4, or a capture c3:e5 (x accepted), several jumps c3:e5:c7.
DRAUGHTS_MOVE = re.compile(r"([a-h][1-8])(?:[-:x]([a-h][1-8]))+")
DRAUGHTS_SQUARE = re.compile(r"[a-h][1-8]")


class IllegalNotation(Exception):
    """A move that is not legal, or not written so corr can read it, in the game's position.

    ``unreadable``: not in the kind's notation at all (a draughts move not written ``c3-d4``); else not legal
    there. ``ways``: a draughts capture named by squares that several captures fit, those captures written in
    full (``c3:e5:c7:a5, c3:a5:...``); blank otherwise. ``why``: a Go move's rule (``occupied``, ``suicide``,
    ``ko``; ``GoBoard.why_not``); blank otherwise. The message names the move, never the position
    (issue 24: a FEN is no message for a player).
    """

    def __init__(self, message: str, unreadable: bool = False, ways: str = "", why: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.unreadable = unreadable
        self.ways = ways
        self.why = why


def readable(kind: str) -> bool:
    """Whether corr reads the moves of games of ``kind``."""
    return kind in (GameKind.CHESS, GameKind.DRAUGHTS, GameKind.GO)


def position_start(kind: str, first: str = "") -> str:
    """The starting FEN of a game of ``kind`` (Go: the empty board's ``GoBoard.key``); blank for a kind corr does
    not read, and for a Go game whose first mover (``first``, when given) is not black: the board plays black's
    stone first (003 12.5), and a game set up otherwise is the arbiter's."""
    if kind == GameKind.GO and first and first != Colour.BLACK:
        return ""
    if kind == GameKind.CHESS:
        return chess.STARTING_FEN
    if kind == GameKind.DRAUGHTS:
        return DraughtsBoard(variant=DRAUGHTS_VARIANT).fen
    if kind == GameKind.GO:
        return GoBoard().key()
    return ""


def position_after(kind: str, fen: str, notation: str, black_again: bool = False) -> str:
    """The FEN after ``notation`` is played from ``fen``. ``black_again`` (Go): a free handicap stone that is not
    black's last (issue 40): black is on move after it.

    :raises IllegalNotation: the move is illegal there or not in the kind's notation.
    """
    if kind == GameKind.CHESS:
        return _chess_after(fen, notation)
    if kind == GameKind.DRAUGHTS:
        return _draughts_after(fen, notation)
    if kind == GameKind.GO:
        return _go_after(fen, notation, black_again)
    raise ValueError(f"corr does not read {kind} moves")


def _go_after(key: str, notation: str, black_again: bool = False) -> str:
    board = GoBoard.at(key)
    why = board.why_not(notation)
    if why == "unreadable":
        raise IllegalNotation(f"{notation!r} is not a Go move (write a point such as D4, or pass)", unreadable=True)
    if why is not None:
        raise IllegalNotation(f"{notation!r} is not a legal move here ({why})", why=why)
    board.push(board.move_of(notation))
    if black_again:  # a free handicap stone before black's last: black places the next one too
        board.black_to_move()
    return board.key()


def _chess_after(fen: str, notation: str) -> str:
    board = chess.Board(fen)
    text = notation.strip().rstrip("!?").replace("0-0", "O-O")
    try:
        board.push_san(text)
    except ValueError:
        raise IllegalNotation(f"{notation!r} is not a legal move (SAN) in this position") from None
    return board.fen()


def _draughts_pieces(fen: str) -> dict[str, set[str]]:
    """``{"W": squares, "B": squares}`` of a Russian draughts FEN (``W:Wa1,Kc3:Bb6``), kings as plain squares."""
    pieces: dict[str, set[str]] = {"W": set(), "B": set()}
    for part in fen.split(":")[1:]:
        if part and part[0] in pieces:
            pieces[part[0]] = set(DRAUGHTS_SQUARE.findall(part[1:]))
    return pieces


def _draughts_after(fen: str, notation: str) -> str:
    return draughts_move(fen, notation)[0]


def draughts_square(number: int) -> str:
    """The algebraic name of pydraughts' square ``number`` (1-32) of the Russian board.

    pydraughts counts the dark squares from White's side, four a rank, left to right: 1 is a1, 4 is g1, 5 is b2,
    9 is a3. (Its ``convert`` module has the same table, but private; tests/live/test_decide.py checks this one
    against the squares every legal move leaves and reaches in pydraughts' own FEN.)
    """
    rank, index = divmod(number - 1, 4)
    return "abcdefgh"[2 * index + rank % 2] + str(rank + 1)


def _named_in_order(named: list[str], path: list[str]) -> bool:
    """Whether the squares a player named lie on the move's path in their order (its first and last included)."""
    if named[0] != path[0] or named[-1] != path[-1]:
        return False
    rest = iter(path[1:-1])
    return all(square in rest for square in named[1:-1])


def draughts_move(fen: str, notation: str) -> tuple[str, str]:
    """The Russian draughts move ``notation`` played from ``fen``: the FEN after it and the move as corr writes it.

    Written in lower case, ``c3-d4`` for a move and ``c3:e5`` (``c3:e5:c7``, the squares the player named)
    for a capture, whether the player wrote ``-``, ``:`` or ``x``: two ways of writing one move are one text.
    The move is the legal move whose piece starts and ends on the first and last squares named and passes the
    squares named between them, in their order, as landing squares of its jumps. When two captures start and
    end alike (they take other pieces), the player names the squares between (000 and 001 write a capture by
    its landing squares); naming only the ends is refused, with the moves it could be.
    :raises IllegalNotation: not written as a Russian draughts move (``unreadable``), not legal in ``fen``, or
        a capture named by its ends alone that several captures fit.
    """
    text = notation.strip().lower()
    match = DRAUGHTS_MOVE.fullmatch(text)
    if match is None:
        raise IllegalNotation(f"{notation!r} is not a Russian draughts move (write c3-d4, or c3:e5 for a capture)",
                              unreadable=True)
    squares = DRAUGHTS_SQUARE.findall(text)
    board = DraughtsBoard(variant=DRAUGHTS_VARIANT, fen=fen)
    partner = "B" if fen[0] == "W" else "W"
    before = len(_draughts_pieces(fen)[partner])
    fits: list[tuple[str, list[str]]] = []
    for move in board.legal_moves():
        path = [draughts_square(number) for number in move.steps_move]
        if _named_in_order(squares, path):
            after_board = board.copy()
            after_board.push(move)
            fits.append((after_board.fen, path))
    if not fits:
        raise IllegalNotation(f"{notation!r} is not a legal move in this position")
    if len({after for after, _ in fits}) > 1:
        ways = ", ".join(":".join(path) for _, path in fits)
        raise IllegalNotation(f"{notation!r} fits several captures here: name the squares between ({ways})",
                              ways=ways)
    after = fits[0][0]
    captured = len(_draughts_pieces(after)[partner]) < before
    written = ":".join(squares) if captured else f"{squares[0]}-{squares[-1]}"
    return after, written


class GameEnd:
    """How a move ended the game, read on the position after it (:func:`game_end`)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    NO_MOVE = "no_move"
    """Russian draughts: the partner's pieces are all captured or blocked (000 12.10, 001 1.7.12)."""


def game_end(kind: str, fen: str) -> str | None:
    """How the position ``fen`` (after a move, the partner to move) ended the game, or None when play goes on.

    Chess (python-chess): the partner is checkmated or stalemated. Russian draughts (pydraughts): the partner
    has no legal move, every piece captured or blocked. A blank position (not read) or Go: None.
    """
    if not fen:
        return None
    if kind == GameKind.CHESS:
        board = chess.Board(fen)
        if board.is_checkmate():
            return GameEnd.CHECKMATE
        return GameEnd.STALEMATE if board.is_stalemate() else None
    if kind == GameKind.DRAUGHTS:
        partner = Colour.WHITE if fen[0] == "W" else Colour.BLACK
        return GameEnd.NO_MOVE if all_captured_or_blocked(fen, partner) else None
    return None


def cannot_mate(fen: str, side: str) -> bool:
    """Chess: ``side`` cannot checkmate by any series of legal moves (002 6.9; python-chess's material test)."""
    return chess.Board(fen).has_insufficient_material(chess.WHITE if side == Colour.WHITE else chess.BLACK)


def all_captured_or_blocked(fen: str, side: str) -> bool:
    """Russian draughts: ``side`` has no legal move, its pieces all captured or blocked (000 12.10, 001 1.7.12)."""
    letter = "W" if side == Colour.WHITE else "B"
    if not _draughts_pieces(fen)[letter]:
        return True
    board = DraughtsBoard(variant=DRAUGHTS_VARIANT, fen=letter + fen[1:])
    return not board.legal_moves()
