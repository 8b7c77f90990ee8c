"""A correspondence game's moves played on its board (issue 36): the position now, and where corr stops reading.

A correspondence game's position is replayed from the moves in force (corrections applied, withdrawn and void
moves left out) on the board of its kind (``corr.games.boards``); a server move reads the board its game kept
after the last server move instead, while it is current (``corr.games.position``, issue 42). Server moves are checked
legal before they are stored, so a server game replays whole; a postal or e-mail game records what the players
wrote (50.4.9.1 penalises an impossible move: it must stay recordable), and so may a server game stored before
the check. Such a game is read up to the first move the board cannot play (``Replay.unread``); the moves after
it are not played, and nothing stored is changed: an arbiter corrects the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext

from corr.clock.assembly import active_events
from corr.models import EventKind, Game

from .boards import PLAY_BOARDS, STARTS, ChessBoard, DraughtsBoard, GoBoard
from .selectors import game_rows

PlayBoard = ChessBoard | DraughtsBoard | GoBoard


@dataclass(frozen=True, slots=True)
class UnreadMove:
    """The first move in force the board cannot play: whose, its number, as stored, and its event's ``seq``."""

    colour: str
    number: int
    notation: str
    seq: int

    def __str__(self) -> str:
        """"corr cannot read this game from White's move 2 Ke2", in the active language: the one wording of the
        page's notice and the mover's warning (STYLE 17)."""
        values = {"number": self.number, "move": self.notation}
        if self.colour == "white":
            return gettext("corr cannot read this game from White's move %(number)s %(move)s") % values
        return gettext("corr cannot read this game from Black's move %(number)s %(move)s") % values


@dataclass(slots=True)
class Replay:
    """A game's moves on its board.

    ``board``: the position after the moves read (None: corr keeps no board for this game: a chess or draughts
    game set up with black to move first). ``unread``: the first move it could not play (None: all were);
    ``read``: how many moves were read; ``last_moves``: the last :data:`LAST_MOVES` of them when every move in
    force was read, ``(colour, number, text as the board writes it, seq)``, in order (what a refusal quotes of
    the position, :func:`corr.games.legal.position_words`).
    """

    board: PlayBoard | None
    unread: UnreadMove | None = None
    read: int = 0
    last_moves: list[tuple[str, int, str, int]] = field(default_factory=list)

    @property
    def whole(self) -> bool:
        """Every move in force was played on the board: the position is the game's."""
        return self.board is not None and self.unread is None


LAST_MOVES = 2
"""The moves a replay writes again as the board writes them: the last two (a move and its answer). Writing every
move read again (python-chess's ``san`` after its ``parse_san``) was half of a server move's replay (issue 42)."""


def new_board(game: Game) -> PlayBoard | None:
    """The starting board of ``game``'s kind; None when the game's first mover is not the board's (no board)."""
    kind = game.kind_in_force
    if kind not in PLAY_BOARDS or game.first != STARTS[kind]:
        return None
    return PLAY_BOARDS[kind]()


def game_replay(game: Game, rows=None) -> Replay:
    """``game``'s moves in force (``rows``: its stored events, read when None) played on its board, in order.

    A move played out of turn (the board's side to move is not the event's player) counts as unread, as an
    illegal or unreadable one does: the position would not be the game's.
    """
    return events_replay(game, active_events(game_rows(game=game) if rows is None else rows))


def events_replay(game: Game, events) -> Replay:
    """``game``'s ``events`` in force (``active_events``, or a first part of them) played on its board."""
    board = new_board(game)
    replay = Replay(board)
    if board is None:
        return replay
    moves = [row for row in events if row.kind == EventKind.MOVE and not row.void]
    written_from = len(moves) - LAST_MOVES
    for index, row in enumerate(moves):
        move = board.move_of(row.notation) if board.turn == row.player else None
        if move is None:
            replay.unread = UnreadMove(row.player, row.number, row.notation, row.seq)
            return replay
        if index >= written_from:
            replay.last_moves.append((row.player, row.number, board.text(move), row.seq))
        replay.read += 1
        board.push(move)
    return replay
