"""Chess games as PGN (read by python-chess), with the dates and days of every move in comments."""

from __future__ import annotations

import re

import chess

from .moves import ExportedMove
from .movetext import Check, Checked, movetext, tag_pairs
from .timecontrol import pgn_time_control, time_control_text

# One PGN move token: SAN or long algebraic (``Nf3``, ``e2-e4``, ``exd5``, ``e8=Q+``) or castling, with
# the annotation marks a player may type (``e4!``). Anything else would not read as one move.
TOKEN = re.compile(r"(?:[NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[NBRQnbrq])?|[O0]-[O0](?:-[O0])?)[+#]?[!?]{0,2}")


def chess_check() -> Check:
    """A movetext check that plays each move on a board from the standard position."""
    board = chess.Board()

    def check(move: ExportedMove) -> Checked:
        notation = move.notation
        if not TOKEN.fullmatch(notation):
            return Checked(None, f"{move.player}'s move {move.number} {notation!r} is not written in algebraic"
                                 " notation")
        try:
            played = board.parse_san(notation.rstrip("!?").replace("0", "O"))
        except ValueError:
            return Checked(None, f"{move.player}'s move {move.number} {notation!r} is not a legal move in this"
                                 " position")
        san = board.san(played)  # SAN (PGN 8.2.3): e2-e4 is written e4, its annotation kept (e4!)
        board.push(played)
        return Checked(san + notation[len(notation.rstrip("!?")):])

    return check


PGN_MODES = {"server": "ICS", "live": "OTB"}
"""PGN's ``Mode`` (section 9.8.1) of corr's modes: a server is ICS, a live game over the board; postal below."""


def pgn_mode(mode: str, *, email: bool) -> str:
    """``ICS`` (server), ``OTB`` (live), ``EM`` (e-mail) or ``PM`` (post) for a game of ``mode``."""
    return PGN_MODES.get(mode) or ("EM" if email else "PM")


def pgn_termination(termination: str) -> str:
    """PGN's ``Termination`` (section 9.8.1) of a finished game's termination as corr stores it.

    A flag is a ``time forfeit``, a forfeit by the rules (a third illegal move, late arrival) a ``rules
    infraction``; what the board or the players ended (checkmate, stalemate, a claimed or agreed draw, a
    resignation: issue 36) is ``normal``; a result an arbiter typed is an ``adjudication``. corr's own words
    stay in the comment after the last move.
    """
    text = termination.lower()
    if "lost on time" in text or "flag fell" in text or "time ran out" in text:
        return "time forfeit"
    if "lost by" in text:
        return "rules infraction"
    if any(words in text for words in _NORMAL):
        return "normal"
    return "adjudication"


_NORMAL = ("checkmates", "stalemated", "captured or blocked", "claimed a draw", "resigned", "resignation",
           "draw agreed")
"""Words of the terminations corr writes when the board or the players ended the game (``corr.games.records``)."""


def game_pgn(*, facts: dict, moves, pending) -> str:
    """PGN of one game: the seven tag roster, the time control, the moves as entered with their facts.

    ``facts`` holds ``event``, ``site``, ``date`` (official start), ``white``,
    ``black``, ``result`` (``1-0`` .. or ``*``), ``first``, ``ruleset`` (the
    ruleset's JSON) and ``notes`` (comments after the last move); a live game's also ``tags`` (more tag
    pairs: ``UTCDate``, ``UTCTime``) and ``preface`` (comments before the first move).
    """
    tags = [
        ("Event", facts["event"]), ("Site", facts["site"]), ("Date", facts["date"].strftime("%Y.%m.%d")),
        ("Round", "-"), ("White", facts["white"]), ("Black", facts["black"]), ("Result", facts["result"]),
        ("TimeControl", pgn_time_control(facts["ruleset"])),
        ("CorrTimeControl", time_control_text(facts["ruleset"])),
        *facts.get("tags", []),
        ("Mode", pgn_mode(facts["mode"], email=facts.get("email", False))),
        *([("Termination", pgn_termination(facts.get("termination") or ""))] if facts["result"] != "*" else []),
    ]
    text = movetext(moves, first=facts["first"], check=chess_check(), pending=pending, notes=facts["notes"],
                    result=facts["result"], preface=facts.get("preface", []))
    return tag_pairs(tags) + "\n" + text
