"""The Go board corr plays server and live Go moves on (issue 36): sgfmill's board with the rules it leaves out.

Apart from ``corr.games.boards`` so that the live position (``corr.live.position``) can read Go moves too, as
``corr.games.boards`` reads draughts moves through it: this module imports nothing of corr's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sgfmill import boards as go_boards
from sgfmill import common as go_common

WHITE, BLACK = "white", "black"

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

    kind = "go"

    def __init__(self) -> None:
        self.board = go_boards.Board(GO_SIZE)
        self._turn = BLACK
        self._ko: tuple[int, int] | None = None
        self._made = {WHITE: 0, BLACK: 0}
        self._last: str | None = None

    @classmethod
    def at(cls, key: str, made: dict[str, int] | None = None) -> GoBoard:
        """The position ``key`` (:meth:`key`; the moves made are not in it: ``number`` counts from there, or from
        ``made``, each colour's moves made, :meth:`made`).

        :raises ValueError: not a key of this board.
        """
        match = _GO_KEY.fullmatch(key)
        if match is None:
            raise ValueError(f"{key[:40]!r} is not a Go position")
        board = cls()
        stones: dict[str, list[tuple[int, int]]] = {"b": [], "w": []}
        for index, row in enumerate(match.group(1).split("/")):
            for col, stone in enumerate(row):
                if stone != ".":
                    stones[stone].append((GO_SIZE - 1 - index, col))
        board.board.apply_setup(stones["b"], stones["w"], [])  # the stones as they stand: nothing captured
        board._turn = BLACK if match.group(2) == "b" else WHITE
        board._ko = None if match.group(3) == "-" else go_common.move_from_vertex(match.group(3), GO_SIZE)
        if made is not None:
            board._made = {WHITE: int(made[WHITE]), BLACK: int(made[BLACK])}
        return board

    def made(self) -> dict[str, int]:
        """Each colour's moves made on this board (passes included)."""
        return dict(self._made)

    def copy(self) -> GoBoard:
        other = GoBoard()
        other.board = self.board.copy()
        other._turn, other._ko, other._made, other._last = self._turn, self._ko, dict(self._made), self._last
        return other

    def black_to_move(self) -> None:
        """Black is on move again: its free handicap stones are placed one move each (issue 40, OGS); no ko stands
        (a stone on an empty board's position takes nothing)."""
        self._turn, self._ko = BLACK, None

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


_GO_KEY = re.compile(r"((?:[.bw]{19}/){18}[.bw]{19}) ([bw]) (-|[A-HJ-T](?:1[0-9]|[1-9]))")

