"""What a flag or a forfeit means for the result, from the rules of the seeds and the position when corr reads it.

Pure: the service passes the stored position and records the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from corr.games.records import record_text
from corr.models import Colour, GameKind

from .position import GameEnd, all_captured_or_blocked, cannot_mate

WINS = {Colour.WHITE: "1-0", Colour.BLACK: "0-1"}
DRAW = "1/2-1/2"
PLAY_ON = "both flags fallen and the order cannot be established: play continues (002 6.11, 003 12.12)"


def other(side: str) -> str:
    return Colour.BLACK if side == Colour.WHITE else Colour.WHITE


@dataclass(frozen=True)
class Verdict:
    """``result`` ("1-0", "0-1", "1/2-1/2") ends the game; ``case`` (the rule to apply) goes to the arbiter.

    Neither: the game goes on (both flags fallen, order unknown).
    """

    text: str
    result: str | None = None
    case: str = ""


def flag_verdict(*, kind: str, position: str, flagged: str) -> Verdict:
    """The verdict on ``flagged``'s flag, judged on ``position`` (a FEN; blank: the moves were not all read).

    Chess: a loss, or a draw when the opponent cannot mate by any series of legal moves (002 6.9).
    Russian draughts: a loss (000 12.9, 001 1.7.9), but no overstep when the partner's pieces are all
    captured or blocked: the stronger side, the flagged player, wins (000 12.10, 001 1.7.12).
    Anything corr cannot read (Go, a move sent without notation): an arbiter case naming the rule.
    """
    opponent = other(flagged)
    if kind == GameKind.CHESS and position:
        if cannot_mate(position, opponent):
            return Verdict(f"{flagged}'s flag fell; {opponent} cannot mate by any series of legal moves:"
                           f" draw (002 6.9)", result=DRAW)
        return Verdict(f"{flagged} lost on time (002 6.9)", result=WINS[opponent])
    if kind == GameKind.DRAUGHTS and position:
        if all_captured_or_blocked(position, opponent):
            return Verdict(f"{flagged}'s flag fell, but {opponent}'s pieces are all captured or blocked: no overstep,"
                           f" {flagged} wins (000 12.10, 001 1.7.12)", result=WINS[flagged])
        return Verdict(f"{flagged} lost on time (000 12.9, 001 1.7.9)", result=WINS[opponent])
    if kind == GameKind.CHESS:
        rule = (f"002 6.9: {flagged}'s flag fell; {flagged} loses unless {opponent} cannot mate by any series of"
                f" legal moves (draw): the moves were not all in SAN, the arbiter judges the position")
    elif kind == GameKind.DRAUGHTS:
        rule = (f"000 12.9-12.10, 001 1.7.9/1.7.12: {flagged}'s flag fell; no overstep if {opponent}'s pieces are"
                f" all captured or blocked: the moves were not all read, the arbiter judges the position")
    else:
        rule = (f"003 12.10: {flagged}'s flag fell; {flagged} loses unless the game was already decided"
                f" (003 10.1, 10.2): the arbiter decides")
    return Verdict(f"{flagged}'s flag fell: arbiter case opened ({rule.split(':')[0]})", case=rule)


def forfeit_verdict(forfeit: dict) -> Verdict:
    """The engine's forfeit (``{"player", "reason", "rule"}``): the player loses."""
    player = forfeit["player"]
    why = {"illegal_moves": "a third illegal move", "late_arrival": "late arrival"}.get(forfeit.get("reason"),
                                                                                        forfeit.get("reason"))
    rule = forfeit.get("rule") or ""
    return Verdict(f"{player} lost by {why} ({rule})" if rule else f"{player} lost by {why}",
                   result=WINS[other(player)])


def move_end_verdict(*, end: str, mover: str) -> Verdict:
    """The result of a move that ended the game (:func:`corr.live.position.game_end`), recorded at its instant.

    The move needs no press (002 6.7 a: "sauf si le coup effectué met fin à la partie"; 003 12.8): it
    stands even when the mover's flag falls at that instant.
    """
    partner = other(mover)
    if end == GameEnd.CHECKMATE:
        return Verdict(record_text("live_checkmate", player=mover, partner=partner), result=WINS[mover])
    if end == GameEnd.STALEMATE:
        return Verdict(record_text("live_stalemate", partner=partner), result=DRAW)
    return Verdict(record_text("live_draughts_blocked_by_move", partner=partner, player=mover), result=WINS[mover])
