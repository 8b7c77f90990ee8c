"""Stamped PGNs of many games for the import tests (issue 37): legal, dated, as an ICCF event exports them."""

from __future__ import annotations

from datetime import datetime, timedelta

from ..support.legal_moves import dance


def event_pgn(pairs: list[tuple[str, str]], moves_each: int, start: datetime, *, illegal_in: int | None = None) -> str:
    """One game per ``(white, black)`` username pair, ``moves_each`` moves a side of the knights' dance, a stamp an
    hour apart from ``start`` (UTC, the tournament's zone); ``illegal_in``: that game's (1-based) last move is Ke3."""
    games = []
    for number, (white, black) in enumerate(pairs, start=1):
        tokens, at = [], start
        for move in range(1, moves_each + 1):
            for colour in ("white", "black"):
                at += timedelta(hours=1)
                text = dance(colour, move)
                if illegal_in == number and move == moves_each and colour == "black":
                    text = "Ke3"
                stamp = f"{{[%ccsnt {at:%Y.%m.%d,%H:%M}]}}"
                tokens.append(f"{move}. {text} {stamp}" if colour == "white" else f"{text} {stamp}")
        tags = (f'[Event "Imported"]\n[Site "-"]\n[Date "{start:%Y.%m.%d}"]\n[Round "{number}"]\n'
                f'[White "{white}"]\n[Black "{black}"]\n[Result "*"]\n')
        games.append(tags + "\n" + " ".join(tokens) + " *\n")
    return "\n".join(games)
