"""The boards corr plays a game's moves on: chess by python-chess, Russian draughts by pydraughts, Go by sgfmill.

Conditional trees are checked on them (issue 28), and every server move is (issue 36: ``corr.games.replay``).

Both kinds answer the same few questions, so that a tree is checked, matched and followed one way
(``corr.games.conditional``): ``move_of`` reads a move as a player wrote it (None: not legal there, or not
written so corr reads it), ``text`` writes it as the tree stores it, ``push`` plays it, and ``key`` is the
position as ``ConditionalTree.position`` keeps it, equal for equal positions. Moves are compared as moves,
not as text: ``e7-e5``, ``e7e5`` and ``e5`` are one chess move, ``c3xd4``, ``C3:D4`` and ``c3-d4`` one
draughts move. Draughts moves are read where the live games read them (``corr.live.position``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import chess
from corr.live.position import IllegalNotation, draughts_move, position_start

from .goboard import GoBoard, GoMove  # noqa: F401 - one module of boards for the callers
from corr.models import GameKind

WHITE, BLACK = "white", "black"


class ChessBoard:
    """A chess position (python-chess), its moves written in SAN."""

    kind = GameKind.CHESS

    def __init__(self, board: chess.Board | None = None) -> None:
        self.board = board if board is not None else chess.Board()

    @classmethod
    def at(cls, key: str) -> ChessBoard:
        """The position ``key`` (a FEN). :raises ValueError: not a chess FEN."""
        return cls(chess.Board(key))

    def copy(self) -> ChessBoard:
        return ChessBoard(self.board.copy())

    @property
    def turn(self) -> str:
        """The colour to move."""
        return WHITE if self.board.turn == chess.WHITE else BLACK

    @property
    def number(self) -> int:
        """The number of the move to come (the side to move's)."""
        return self.board.fullmove_number

    def move_of(self, notation: str) -> chess.Move | None:
        """``notation`` (SAN, long algebraic or UCI; annotation marks, ``0-0`` allowed) as a legal move; else None."""
        text = notation.strip().rstrip("!?").replace("0", "O")
        try:
            move = self.board.parse_san(text)
        except ValueError:
            return None
        return move if move else None  # a null move ("--") is no move

    def text(self, move: chess.Move) -> str:
        """``move`` (legal here) in SAN, as python-chess writes it."""
        return self.board.san(move)

    def push(self, move: chess.Move) -> None:
        self.board.push(move)

    def key(self) -> str:
        """The position's FEN (the move counters included: a position is the same one at the same move)."""
        return self.board.fen()

    def last(self) -> str | None:
        """The last move played on this board, numbered as a score writes it (``3. Nf3``, ``3... Nc6``); None: none."""
        if not self.board.move_stack:
            return None
        before = self.board.copy()
        move = before.pop()
        dots = "." if before.turn == chess.WHITE else "..."
        return f"{before.fullmove_number}{dots} {before.san(move)}"


@dataclass(frozen=True, slots=True)
class DraughtsMove:
    """A legal Russian draughts move: ``after``, the position it leads to (pydraughts' FEN), is what it is;
    ``text``, how corr writes it (``corr.live.position.draughts_move``), is not compared."""

    after: str
    text: str = field(compare=False)


_DRAUGHTS_KEY = re.compile(r"^([WB]:\S+) ([1-9]\d*)$")


class DraughtsBoard:
    """A Russian draughts position (pydraughts' FEN) and the number of the move to come.

    pydraughts' FEN has no move number: the key adds it, as a chess FEN ends with it
    (``W:Wa1,c1,...:Bb8,... 12``), so that the owner's warning can say after which move a line was built.
    """

    kind = GameKind.DRAUGHTS

    def __init__(self, fen: str | None = None, number: int = 1, last: str | None = None) -> None:
        self.fen = fen or position_start(GameKind.DRAUGHTS)
        self._number = number
        self._last = last

    @classmethod
    def at(cls, key: str) -> DraughtsBoard:
        """The position ``key`` (``DraughtsBoard.key``). :raises ValueError: not a draughts key."""
        match = _DRAUGHTS_KEY.match(key)
        if match is None:
            raise ValueError(f"{key!r} is not a Russian draughts position")
        return cls(match.group(1), int(match.group(2)))

    def copy(self) -> DraughtsBoard:
        return DraughtsBoard(self.fen, self._number, self._last)

    @property
    def turn(self) -> str:
        return WHITE if self.fen[0] == "W" else BLACK

    @property
    def number(self) -> int:
        return self._number

    def move_of(self, notation: str) -> DraughtsMove | None:
        """``notation`` (``c3-d4``, ``c3:e5``, ``c3xe5``, any case) as a legal move; else None."""
        try:
            after, written = draughts_move(self.fen, notation)
        except IllegalNotation:
            return None
        return DraughtsMove(after, written)

    def readable(self, notation: str) -> bool:
        """``notation`` is written as a Russian draughts move (legal here or not)."""
        try:
            draughts_move(self.fen, notation)
        except IllegalNotation as error:
            return not error.unreadable
        return True

    def ways(self, notation: str) -> str:
        """The captures ``notation`` could be when its squares fit several (``IllegalNotation.ways``); else blank."""
        try:
            draughts_move(self.fen, notation)
        except IllegalNotation as error:
            return error.ways
        return ""

    def text(self, move: DraughtsMove) -> str:
        return move.text

    def push(self, move: DraughtsMove) -> None:
        dots = "." if self.turn == WHITE else "..."
        self._last = f"{self._number}{dots} {move.text}"
        if self.turn == BLACK:
            self._number += 1
        self.fen = move.after

    def key(self) -> str:
        return f"{self.fen} {self._number}"

    def last(self) -> str | None:
        return self._last


Board = ChessBoard | DraughtsBoard | GoBoard

PLAY_BOARDS: dict[str, type[ChessBoard] | type[DraughtsBoard] | type[GoBoard]] = {
    GameKind.CHESS: ChessBoard, GameKind.DRAUGHTS: DraughtsBoard, GameKind.GO: GoBoard}
"""The kinds whose server moves corr checks (issue 36), and their boards; each starts with ``STARTS``'s colour."""

BOARDS = PLAY_BOARDS
"""The kinds whose conditional trees corr checks on the board (issue 28; Go too since issue 40, as OGS takes
them), and their boards."""

STARTS = {GameKind.CHESS: WHITE, GameKind.DRAUGHTS: WHITE, GameKind.GO: BLACK}
"""Who moves first on each board (FIDE 2.2, 000 1.4, Go rules 12.5)."""
