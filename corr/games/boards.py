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
from sgfmill import boards as go_boards
from sgfmill import common as go_common

from corr.live.position import IllegalNotation, draughts_move, position_start
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


GO_SIZE = 19
"""corr keeps no board size: a Go game is played on the 19x19 board (as its SGF export writes it)."""
_GO_VERTEX = re.compile(r"[A-HJ-Ta-hj-t](1[0-9]|[1-9])")
PASS = "pass"


@dataclass(frozen=True, slots=True)
class GoMove:
    """A legal Go move: ``point`` (row from the bottom, column, as sgfmill counts them) or None for a pass."""

    point: tuple[int, int] | None


class GoBoard:
    """A Go position on the 19x19 board (sgfmill's ``Board``), the colour to move and the point ko forbids.

    sgfmill plays a stone and makes its captures; it allows self-capture and keeps no ko rule, so this board
    adds both (Japanese rules 7, Chinese rules 4: suicide is not allowed; the simple ko, 'a stone that has just
    captured one stone may not be recaptured at once'). Positional superko is not checked: a long cycle (triple
    ko) is the arbiter's, as the Japanese rules leave it. Black moves first (Go rules 12.5). Moves are written
    as the project writes them: a vertex ``D4`` (a letter A-T without I, a number 1-19) or ``pass``.
    """

    kind = GameKind.GO

    def __init__(self) -> None:
        self.board = go_boards.Board(GO_SIZE)
        self._turn = BLACK
        self._ko: tuple[int, int] | None = None
        self._made = {WHITE: 0, BLACK: 0}
        self._last: str | None = None

    def copy(self) -> GoBoard:
        other = GoBoard()
        other.board = self.board.copy()
        other._turn, other._ko, other._made, other._last = self._turn, self._ko, dict(self._made), self._last
        return other

    @property
    def turn(self) -> str:
        return self._turn

    @property
    def number(self) -> int:
        """The number of the side to move's next move (each colour counts its own, as corr numbers moves)."""
        return self._made[self._turn] + 1

    @staticmethod
    def readable(notation: str) -> bool:
        """``notation`` is written as a Go move (a vertex of the 19x19 board or ``pass``), legal here or not."""
        text = notation.strip()
        return text.lower() == PASS or _GO_VERTEX.fullmatch(text) is not None

    def why_not(self, notation: str) -> str | None:
        """Why ``notation`` is not legal here: ``unreadable``, ``occupied``, ``suicide``, ``ko``; None: legal."""
        if not self.readable(notation):
            return "unreadable"
        text = notation.strip()
        if text.lower() == PASS:
            return None
        point = go_common.move_from_vertex(text.upper(), GO_SIZE)
        if self.board.get(*point) is not None:
            return "occupied"
        if point == self._ko:
            return "ko"
        trial = self.board.copy()
        trial.play(*point, "b" if self._turn == BLACK else "w")
        return "suicide" if trial.get(*point) is None else None

    def move_of(self, notation: str) -> GoMove | None:
        """``notation`` (``D4``, ``q16``, ``pass``) as a legal move; else None (:meth:`why_not` says why)."""
        if self.why_not(notation) is not None:
            return None
        text = notation.strip()
        return GoMove(None if text.lower() == PASS else go_common.move_from_vertex(text.upper(), GO_SIZE))

    def text(self, move: GoMove) -> str:
        """``D4`` (sgfmill's vertex, upper case) or ``pass``."""
        return PASS if move.point is None else go_common.format_vertex(move.point)

    def push(self, move: GoMove) -> None:
        self._last = f"{self.number}. {self.text(move)}"
        self._ko = None if move.point is None else self.board.play(*move.point, "b" if self._turn == BLACK else "w")
        self._made[self._turn] += 1
        self._turn = WHITE if self._turn == BLACK else BLACK

    def key(self) -> str:
        """The stones (row by row from the top, ``.``, ``b``, ``w``), the colour to move and the ko point."""
        rows = ["".join(self.board.get(row, col) or "." for col in range(GO_SIZE))
                for row in reversed(range(GO_SIZE))]
        ko = "-" if self._ko is None else go_common.format_vertex(self._ko)
        return f"{'/'.join(rows)} {self._turn[0]} {ko}"

    def last(self) -> str | None:
        return self._last


Board = ChessBoard | DraughtsBoard

BOARDS: dict[str, type[ChessBoard] | type[DraughtsBoard]] = {GameKind.CHESS: ChessBoard,
                                                              GameKind.DRAUGHTS: DraughtsBoard}
"""The kinds whose conditional trees corr checks, and their boards (Go trees are refused: issue 28)."""

PLAY_BOARDS: dict[str, type[ChessBoard] | type[DraughtsBoard] | type[GoBoard]] = {**BOARDS, GameKind.GO: GoBoard}
"""The kinds whose server moves corr checks (issue 36), and their boards; each starts with ``STARTS``'s colour."""

STARTS = {GameKind.CHESS: WHITE, GameKind.DRAUGHTS: WHITE, GameKind.GO: BLACK}
"""Who moves first on each board (FIDE 2.2, 000 1.4, Go rules 12.5)."""
