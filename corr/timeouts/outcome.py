"""The result of a fallen flag under ``timeouts: automatic``: lost on time, or a draw the partner cannot win.

FIDE Laws of Chess 6.9: a player whose flag falls loses, "however, the game is
drawn if the position is such that the opponent cannot checkmate the player's
king by any possible series of legal moves" (python-chess's insufficient
material test, ``corr.live.position.cannot_mate``). The ICCF webserver, lichess
and chess.com record a time forfeit the same way. Only chess is judged: in
draughts and Go, and where the stored notation cannot be read, the partner wins
and the arbiter can still reopen the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from corr.clock.assembly import active_events, other
from corr.games.clockstate import instant_text
from corr.games.records import record_text
from corr.live.position import IllegalNotation, cannot_mate, position_after, position_start
from corr.models import Colour, EventKind, GameKind, GameResult


@dataclass(frozen=True, slots=True)
class Timeout:
    """What a fallen flag decides: the result and its termination text (``Game.termination``)."""

    player: str
    """The colour whose flag fell."""
    at: datetime
    result: str
    termination: str


def chess_position(rows) -> str | None:
    """The FEN after the game's stored moves in force (SAN notations, in order); None if one cannot be read."""
    fen = position_start(GameKind.CHESS)
    for row in active_events(rows):
        if row.kind != EventKind.MOVE or row.void:
            continue
        try:
            fen = position_after(GameKind.CHESS, fen, row.notation)
        except IllegalNotation:
            return None
    return fen


def timeout_decide(*, kind: str, rows, player: str, at: datetime) -> Timeout:
    """The result when ``player``'s flag falls at ``at``, from the game's stored moves.

    The partner wins unless, in chess, the partner has insufficient material to
    checkmate (FIDE 6.9): then a draw.
    """
    partner = other(player)
    when = instant_text(at)
    if kind == GameKind.CHESS:
        fen = chess_position(rows)
        if fen is not None and cannot_mate(fen, partner):
            return Timeout(player, at, GameResult.DRAW,
                           record_text("drawn_cannot_mate", player=player, when=when, partner=partner))
    result = GameResult.BLACK_WON if player == Colour.WHITE else GameResult.WHITE_WON
    return Timeout(player, at, result, record_text("lost_on_time_flag", player=player, when=when))
