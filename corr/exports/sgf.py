"""Go games as SGF (FF[4], read by sgfmill), with the time control properties and every move's facts.

The board is 19x19 (corr keeps no board size). A move's point is read from
its notation as entered: a GTP vertex (``D4``, ``Q16``; no letter I), an SGF
point (``dd``) or ``pass``, written ``B[]``/``W[]`` (FF[4]'s pass, not FF[3]'s
``tt``); the notation itself stays in the node's comment (``C``) beside its
dates and days. A move that names no free point ends the
moves: it and the rest are written in the last node's comment. A live game's
moves also carry the time left after them (``BL``/``WL``, ``OB``/``OW``: see
:mod:`corr.exports.live`).
"""

from __future__ import annotations

import re

from sgfmill import boards, common, sgf

from .moves import ExportedMove
from .timecontrol import main_time_seconds, sgf_overtime

BOARD_SIZE = 19
SGF_POINT = re.compile(r"[a-s]{2}")
RESULTS = {"1-0": "W+", "0-1": "B+", "1/2-1/2": "0"}
"""FF[4] ``RE``: the winner's colour and ``+`` (a draw ``0``); how is added by ``result_of``."""
HOW = (("lost on time", "T"), ("lost by", "F"), ("resigned", "R"))
"""Words of a game's termination and FF[4]'s reason: time (``W+T``), forfeit (``B+F``), resignation (``W+R``)."""


def result_of(result: str, termination: str) -> str | None:
    """``RE`` of a result and its termination (``black lost on time: ...`` -> ``W+T``); None while ongoing."""
    text = RESULTS.get(result)
    if text is None or text == "0":
        return text
    return text + next((letter for words, letter in HOW if words in termination), "")


def _point(notation: str) -> tuple[int, int] | None:
    """(row, column) of a notation, None for a pass. :raises ValueError: for anything else."""
    text = notation.strip()
    if text.lower() == "pass":
        return None
    if SGF_POINT.fullmatch(text):  # SGF's own letters: column then row, from the top
        return BOARD_SIZE - 1 - (ord(text[1]) - ord("a")), ord(text[0]) - ord("a")
    point = common.move_from_vertex(text, BOARD_SIZE)
    if point is None:
        raise ValueError(text)
    return point


def game_sgf(*, facts: dict, moves: list[ExportedMove], pending) -> bytes:
    """SGF of one game (UTF-8); ``facts`` as for :func:`corr.exports.pgn.game_pgn`."""
    game = sgf.Sgf_game(size=BOARD_SIZE)
    root = game.get_root()
    root.set("EV", facts["event"])
    root.set("PC", facts["site"])
    root.set("DT", facts["date"].isoformat())
    root.set("PW", facts["white"])
    root.set("PB", facts["black"])
    root.set("TM", main_time_seconds(facts["ruleset"]))
    root.set("OT", sgf_overtime(facts["ruleset"]))
    outcome = result_of(facts["result"], facts.get("termination", ""))
    if outcome is not None:
        root.set("RE", outcome)
    board = boards.Board(BOARD_SIZE)
    node = root
    for note in facts.get("preface", []):
        _add_comment(root, note)
    stopped = None
    for move in moves:
        line = f"{move.player} {move.number} {move.notation or '(no notation)'}: {move.comment}"
        if stopped is None and move.void:
            _add_comment(node, move.void_line)
            continue
        if stopped is None:
            try:
                point = _point(move.notation)
                colour = "b" if move.player == "black" else "w"
                if point is not None:
                    board.play(point[0], point[1], colour)
            except ValueError:
                stopped = (f"moves stop here: {move.player}'s move {move.number} {move.notation!r} names no free"
                           " point; the rest as entered follows")
                _add_comment(node, stopped)
            else:
                node = node.new_child()
                if point is None:
                    # FF[4] writes a pass as an empty value; sgfmill's set_move writes FF[3]'s ``tt``
                    # on boards up to 19, which FF[4] readers may take for a point (issue 37).
                    node.set_raw(colour.upper(), b"")
                else:
                    node.set_move(colour, point)
                for key, value in move.sgf_times.items():  # BL/WL time left, OB/OW overtime left
                    node.set(f"{colour.upper()}L" if key == "L" else f"O{colour.upper()}", value)
                _add_comment(node, f"{move.notation}: {move.comment_with([])}")  # stamped: read back (issue 37)
                continue
        _add_comment(node, line)
    if pending is not None:
        _add_comment(node, pending.comment)
    for note in facts["notes"]:
        _add_comment(node, note)
    return game.serialise()


def _add_comment(node, text: str) -> None:
    old = node.get("C") if node.has_property("C") else ""
    node.set("C", f"{old}\n{text}" if old else text)
