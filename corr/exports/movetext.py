"""Movetext shared by PGN and PDN: ``1. e4 {received …} e5 {received …}``, one line per full move.

Moves are written as the game's check spells them: chess in SAN (python-chess converting what was
typed, the typed form kept in the comment when it differs), draughts as entered. A move the format
cannot carry (no
notation, a notation the game's rules refuse in that position, a move out of
the colours' turn) ends the movetext: it and every move after it are written
in comments after the last move written, each ``white 3 Xx9: received …``, so
the file still reads in any program and loses no fact. A void move (50.4.7,
impossible or illegible) is never on the board: its facts are a comment after
the move before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .moves import ExportedMove, PendingLine, comment_safe


class Checked(NamedTuple):
    """A check's verdict on the next move: how to write it, or why it cannot be written."""

    written: str | None
    reason: str | None = None


Check = Callable[[ExportedMove], Checked]
"""Given the next move (in turn): its written form once it is played, or the reason it cannot be."""


def movetext(moves: list[ExportedMove], *, first: str, check: Check, pending: PendingLine | None,
             notes: list[str], result: str, preface: list[str] = ()) -> str:
    """The movetext of ``moves`` ending with ``result``; ``notes`` go in comments after the last move,
    ``preface`` in comments before the first."""
    before: list[str] = list(preface)  # comments before the first move
    written: list[tuple[ExportedMove, str, list[str]]] = []
    stopped: str | None = None
    rest: list[str] = []
    turn = first
    for move in moves:
        notation = move.notation or "(no notation)"
        if stopped is None and move.void:
            (written[-1][2] if written else before).append(move.void_line)
            continue
        spelled = None
        if stopped is None:
            if first != "white":
                stopped = f"the game starts with {first}, and this format's games start with white"
            elif move.player != turn:
                stopped = f"{move.player}'s move {move.number} is recorded when {turn} was to move"
            elif not move.notation:
                stopped = f"{move.player}'s move {move.number} has no notation"
            else:
                spelled, stopped = check(move)
            if stopped is not None:
                stopped = f"movetext stops here: {stopped}; the rest as entered follows"
        if stopped is not None:
            rest.append(f"{move.player} {move.number} {notation}: {move.comment}")
            continue
        typed = [] if spelled == move.notation else [f"typed {move.notation}"]
        written.append((move, spelled, [move.comment_with(typed)]))
        turn = "black" if turn == "white" else "white"

    trailing = ([stopped] if stopped else []) + rest + ([pending.comment] if pending else []) + notes
    lines = [_comment(text) for text in before]
    number = 0
    for move, spelled, comments in written:
        text = f"{spelled} " + " ".join(_comment(c) for c in comments)
        if move.player == "white":
            number += 1
            lines.append(f"{number}. {text}")
        else:
            lines[-1] += f" {text}"
    lines += [_comment(text) for text in trailing]
    lines.append(result)
    return "\n".join(lines) + "\n"


def _comment(text: str) -> str:
    return "{" + comment_safe(text) + "}"


def tag_pairs(tags: list[tuple[str, str]]) -> str:
    """``[Name "value"]`` lines, quotes and backslashes escaped as PGN section 8.1.1 says."""
    out = []
    for name, value in tags:
        value = " ".join(str(value).split()).replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'[{name} "{value}"]')
    return "\n".join(out) + "\n"
