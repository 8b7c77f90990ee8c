"""A server game's board kept beside it (issue 42): a move is checked on it, not on a replay of every move.

``Game.position`` holds the board after the last server move, written by the move's own store statement (no
statement of its own) with the ``events_version`` that store gives the game. Every other event (a correction,
a withdrawal, a penalty, a result, a reopening) raises the version without writing a board, or writes none, so
the position kept is then stale and is never read: the next move replays the moves in force
(``corr.games.replay``), as every move did before, and keeps its own board. Games stored before the column
have none, and are filled so by their next move. A game the board cannot read whole keeps none.

What is kept is what a move's check reads (``corr.games.legal.move_checked``): the board's ``key`` (a chess
FEN, the draughts FEN and move number, the Go stones, turn and ko point, with each Go colour's moves made),
how many moves were read (a refusal says "in the starting position" for none) and the last two moves as the
board wrote them (what a refusal quotes). A draw claim by repetition needs the moves themselves: the caller
replays for it (``server_replay``).
"""

from __future__ import annotations

from corr.clock.assembly import active_events
from corr.models import EventKind, Game

from .boards import PLAY_BOARDS, STARTS, ChessBoard, DraughtsBoard, GoBoard
from .replay import LAST_MOVES, PlayBoard, Replay, game_replay

POSITION_FORMAT = 1
"""The layout of ``Game.position`` written here; a position of another layout is not read (replayed instead)."""


def position_replay(game: Game) -> Replay | None:
    """The ``Replay`` ``game.position`` keeps, when it is the game's position now; None: none kept, or stale.

    Stale: kept at another ``events_version`` than the game's (an event since changed the moves, or not),
    or for another board or first mover (the game's kind changed since).
    """
    kept = game.position
    if not isinstance(kept, dict) or kept.get("format") != POSITION_FORMAT:
        return None
    kind = game.kind_in_force
    if kept.get("version") != game.events_version or kept.get("kind") != kind:
        return None
    if kind not in PLAY_BOARDS or game.first != STARTS[kind]:
        return None
    board = _board_at(kind, kept["key"], kept.get("made"))
    return Replay(board, read=kept["read"], last_moves=[tuple(move) for move in kept["last"]])


def server_replay(game: Game, rows, *, history: bool = False) -> Replay:
    """``game``'s moves on its board: the kept position when it is current, else the moves in force replayed.

    The kept position is used only when it is the position of ``rows`` themselves: its last move is their last
    move in force. The game row a locking read returns is the latest version (PostgreSQL re-reads a row it
    waited for), but events read in the same statement keep the statement's snapshot: a move that lost a race
    sees the winner's position on a game whose events still end before the winner's move. It is then checked on
    its own rows, as the turn was, and the store refuses it as a conflict (409) rather than as an illegal move
    on a board it never saw.

    ``history``: the moves themselves are needed on the board (a repetition claim, FIDE 9.2): always replayed.
    """
    kept = None if history else position_replay(game)
    if kept is not None and _last_move_seq(kept) != _last_move_seq_of_rows(rows):
        kept = None
    return kept if kept is not None else game_replay(game, rows)


def _last_move_seq(replay: Replay) -> int | None:
    return replay.last_moves[-1][3] if replay.last_moves else None


def _last_move_seq_of_rows(rows) -> int | None:
    moves = [row.seq for row in active_events(rows) if row.kind == EventKind.MOVE and not row.void]
    return moves[-1] if moves else None


def position_after(game: Game, replay: Replay, after: PlayBoard, *, colour: str, number: int, text: str,
                   seq: int) -> dict | None:
    """The position to keep after ``colour``'s move ``number``, written ``text`` and stored as event ``seq``.

    ``replay``: the position before it (whole); ``after``: its board with the move played. None when the
    replay was not whole (nothing is kept for a game corr cannot read). The store adds the ``version``.
    """
    if not replay.whole:
        return None
    last = [list(move) for move in replay.last_moves] + [[colour, number, text, seq]]
    kept = {"format": POSITION_FORMAT, "kind": game.kind_in_force, "key": after.key(), "read": replay.read + 1,
            "last": last[-LAST_MOVES:]}
    if isinstance(after, GoBoard):
        kept["made"] = after.made()
    return kept


def _board_at(kind: str, key: str, made: dict | None) -> PlayBoard:
    board_class = PLAY_BOARDS[kind]
    if board_class is GoBoard:
        return GoBoard.at(key, made=made)
    board: ChessBoard | DraughtsBoard = board_class.at(key)
    return board
