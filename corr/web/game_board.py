"""The game page's position (issue 36): the diagram with the move list beside it, the notice of a game corr
cannot read to its end, and for the player on move in a server chess or draughts game, the board to move on.

The position is the game's moves in force replayed on its board (``corr.games.replay.game_replay``), read
once per page from the rows the clock was computed from (STYLE 14). A postal or e-mail game records what the
players wrote (50.4.9.1): where a move cannot be played, the diagram shows the position before it and the page
says from which move corr cannot read the game; an arbiter corrects that move from its line in the history.
Go has no diagram and no board: its moves are typed.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from corr.clock.assembly import active_events
from corr.games.boards import ChessBoard, DraughtsBoard
from corr.games.replay import game_replay
from corr.models import EventKind, Game, GameStatus, Mode

from .diagram import diagram
from .move_board import check_square, last_squares, move_board_config, placement, sprite_of


def move_pairs(rows, unread_seq: int | None) -> list[dict]:
    """The moves in force by number, ``{"number", "white", "black"}`` (each ``{"text", "unread"}`` or None), as
    stored: ``unread`` from the first move the board cannot play (``unread_seq``) on."""
    pairs: dict[int, dict] = {}
    unread = False
    for row in active_events(rows):
        if row.kind != EventKind.MOVE or row.void:
            continue
        unread = unread or row.seq == unread_seq
        pair = pairs.setdefault(row.number, {"number": row.number, "white": None, "black": None})
        pair[row.player] = {"text": row.notation, "unread": unread}
    return [pairs[number] for number in sorted(pairs)]


def board_context(*, game: Game, rows, colour: str | None, my_turn: bool, replay=None) -> dict:
    """The position's part of the game page (module docstring): ``diagram`` (None: no board for this game),
    ``move_pairs``, ``unread`` (the notice's words, or blank), ``unread_seq`` (the history line an arbiter
    corrects) and ``move_board`` (``move_board_config``, or None: no board to move on here).
    """
    replay = replay if replay is not None else game_replay(game, rows)
    board = replay.board
    if not isinstance(board, (ChessBoard, DraughtsBoard)):
        return {"diagram": None, "move_pairs": [], "unread": "", "unread_seq": None, "move_board": None}
    kind = "chess" if isinstance(board, ChessBoard) else "draughts"
    config = move_board_config(board, colour) if (
        my_turn and game.mode == Mode.SERVER and game.status == GameStatus.ONGOING and replay.whole
        and board.turn == colour) else None
    unread = replay.unread
    caption = (_("The position after %(move)s") % {"move": board.last()} if board.last()
               else _("The starting position"))
    return {
        "diagram": diagram(placement(board), kind=kind, orientation=colour or "white", last=last_squares(board),
                           check=check_square(board), sprite=sprite_of(kind), caption=caption),
        "diagram_caption": caption,
        "move_pairs": move_pairs(rows, unread.seq if unread else None),
        "unread": str(unread) if unread else "",
        "unread_seq": unread.seq if unread else None,
        "move_board": config,
    }
