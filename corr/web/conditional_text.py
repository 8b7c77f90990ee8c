"""A conditional line as the game page's text area takes it (issue 28): the API's tree in lines of SAN.

One branch a line: the partner's move, then one's own reply (``e5 Nf3``); a deeper branch stands under
the line it follows, indented by two more spaces::

    e5 Nf3
      Nc6 Bb5
      Nf6 Nxe5
    c5 Nf3

Move numbers may be written (``1... e5 2. Nf3``) and are left out. The moves are not checked here: the
service plays them on the board (``corr.games.conditional``) and names a refused branch by its path
(``conditional[0].next[1].then``), which ``lines`` turns back into the line's number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from corr import limits as lim

INDENT = 2
_NUMBER = re.compile(r"^\d+\.+")  # "2." "1..." before a move, or a token of its own


class LineError(ValueError):
    """A line of the text that is no branch: ``number`` (1-based) and the message, lazily translated."""

    def __init__(self, message, **params) -> None:
        super().__init__()
        self._message, self.params = message, params

    @property
    def message(self) -> str:
        return str(self._message) % self.params

    def __str__(self) -> str:
        return self.message


@dataclass
class Parsed:
    """The tree (``[{"if", "then", "next"}]``) and the text's line number of each branch, by its API path."""

    tree: list = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)


def line_parsed(text: str, example: str = "e5 Nf3") -> Parsed:
    """``text`` as the API's tree of conditional moves (empty text: an empty tree); ``example``: a branch written
    as the game writes its moves, shown to a player whose line is not two moves (``Q4 D16`` in Go).

    :raises LineError: naming the line: not two moves, an indentation that is not two spaces a level,
        a branch indented deeper than one level under the line above it.
    """
    out = Parsed()
    # The open branches by depth: the list a branch at that depth goes in, and its path.
    levels: list[tuple[list, str]] = [(out.tree, "conditional")]
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        body = raw.lstrip(" ")
        indent = len(raw) - len(body)
        if body[:1].isspace() or indent % INDENT:
            raise LineError(_("line %(number)s: indent a deeper branch by two spaces (no tabs) under the line it"
                              " follows"), number=number)
        depth = indent // INDENT
        if depth >= len(levels):
            raise LineError(_("line %(number)s is indented deeper than a branch under the line above it: indent"
                              " by two spaces more than the line it follows"), number=number)
        moves = [m for m in (_NUMBER.sub("", token) for token in body.split()) if m]
        if len(moves) != 2 or any(len(m) > lim.NOTATION_MAX for m in moves):
            raise LineError(_("line %(number)s: write the partner's move and your reply, two moves written as the"
                              " game writes them (e.g. %(example)s), got %(text)s"), number=number, example=example,
                            text=body.strip())
        del levels[depth + 1:]
        siblings, path = levels[depth]
        here = f"{path}[{len(siblings)}]"
        branch = {"if": moves[0], "then": moves[1], "next": []}
        siblings.append(branch)
        out.lines[here] = number
        levels.append((branch["next"], f"{here}.next"))
    return out


def tree_text(tree: list, depth: int = 0) -> str:
    """The tree as the text area shows it (``line_parsed``'s inverse, move numbers left out)."""
    out = []
    for branch in tree:
        out.append(" " * (INDENT * depth) + f"{branch['if']} {branch['then']}")
        if branch.get("next"):
            out.append(tree_text(branch["next"], depth + 1))
    return "\n".join(out)


def line_of(path: str, lines: dict[str, int]) -> int | None:
    """The line number of the branch a service's error path names (``conditional[0].next[1].then``)."""
    match = re.match(r"^(conditional(?:\[\d+\](?:\.next\[\d+\])*)?)", path or "")
    while match is not None:
        branch = match.group(1)
        if branch in lines:
            return lines[branch]
        # ``conditional[0].next`` (a level): the branch above it.
        shorter = re.match(r"^(.*)\.next\[\d+\]$", branch)
        match = shorter
    return None
