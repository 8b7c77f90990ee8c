"""Draughts games as PDN (read by pydraughts), like PGN with the dates and days of every move in comments."""

from __future__ import annotations

import re

from .moves import ExportedMove
from .movetext import Checked, movetext, tag_pairs
from .pgn import pgn_mode
from .timecontrol import pgn_time_control, time_control_text

# PDN moves: numeric squares (``32-28``, ``19x28``, ``26x17x8``) or algebraic (``c3-d4``, ``e3:g5``).
NUMERIC = re.compile(r"\d{1,2}(?:[-x:]\d{1,2})+")
ALGEBRAIC = re.compile(r"[a-h][1-8](?:[-x:][a-h][1-8])+")
RESULTS = {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1", "*": "*"}
"""International draughts' scores (GameType 20, PDN's default): 2 points a win."""
RESULTS_BY_GAME_TYPE = {"25": {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "*": "*"}}
"""GameTypes whose results are written otherwise: Russian draughts (25) scores as chess does."""


def game_type(moves) -> str | None:
    """PDN ``GameType`` from how moves were written: algebraic is Russian draughts (25), numeric international (20).

    None when no move says (no tag: readers take their default).
    """
    for move in moves:
        if ALGEBRAIC.fullmatch(move.notation):
            return "25"
        if NUMERIC.fullmatch(move.notation):
            return "20"
    return None


def draughts_check(move: ExportedMove) -> Checked:
    """Draughts moves are checked for their form only, and written as entered: corr does not know the rules."""
    if NUMERIC.fullmatch(move.notation) or ALGEBRAIC.fullmatch(move.notation):
        return Checked(move.notation)
    return Checked(None, f"{move.player}'s move {move.number} {move.notation!r} is not a draughts move (32-28,"
                         " c3-d4)")


def game_pdn(*, facts: dict, moves, pending) -> str:
    """PDN of one game; ``facts`` as for :func:`corr.exports.pgn.game_pgn`.

    PDN 3.0: the result in the GameType's notation (Russian 25: ``1-0``; international 20 and no
    GameType: ``2-0``), and a tag without a value is left out (no ``Round``: corr has none).
    """
    kind = game_type(moves)
    result = RESULTS_BY_GAME_TYPE.get(kind, RESULTS)[facts["result"]]
    tags = [
        ("Event", facts["event"]), ("Site", facts["site"]), ("Date", facts["date"].strftime("%Y.%m.%d")),
        ("White", facts["white"]), ("Black", facts["black"]), ("Result", result),
    ]
    if kind is not None:
        tags.append(("GameType", kind))
    tags += [("TimeControl", pgn_time_control(facts["ruleset"])),
             ("CorrTimeControl", time_control_text(facts["ruleset"])), *facts.get("tags", []),
             ("Mode", pgn_mode(facts["mode"], email=facts.get("email", False)))]
    tags = [(name, value) for name, value in tags if str(value).strip() not in ("", "-", "?")]
    text = movetext(moves, first=facts["first"], check=draughts_check, pending=pending, notes=facts["notes"],
                    result=result, preface=facts.get("preface", []))
    return tag_pairs(tags) + "\n" + text
