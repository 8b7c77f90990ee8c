"""The board diagram of a chess or Russian draughts game's position, drawn by the server as SVG (issue 36).

No script: every game page shows it, postal and e-mail games too, as far as corr can read the moves
(``corr.games.replay``). The pieces are the board library's sprites (cm-chessboard's standard pieces,
corr's own men and kings for draughts), referenced by ``<use>``, so the diagram and the board a player
moves on look alike. The position is also said in words, in the picture's ``<title>``/``<desc>``.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

SQUARE = 40
"""A square's side in the picture's units: the sprites' tile size (cm-chessboard draws its pieces on 40)."""
LIGHT, DARK, LAST, CHECK = "#f0d9b5", "#b58863", "#f4e26b", "#e06060"

CHESS_NAMES = {"K": gettext_lazy("white king"), "Q": gettext_lazy("white queen"), "R": gettext_lazy("white rook"),
               "B": gettext_lazy("white bishop"), "N": gettext_lazy("white knight"), "P": gettext_lazy("white pawn"),
               "k": gettext_lazy("black king"), "q": gettext_lazy("black queen"), "r": gettext_lazy("black rook"),
               "b": gettext_lazy("black bishop"), "n": gettext_lazy("black knight"), "p": gettext_lazy("black pawn")}
DRAUGHTS_NAMES = {"K": gettext_lazy("white king (draughts)"), "P": gettext_lazy("white man"),
                  "k": gettext_lazy("black king (draughts)"), "p": gettext_lazy("black man")}


def pieces_of(placement: str) -> dict[str, str]:
    """``{square: letter}`` of a chess placement (a FEN's first field)."""
    pieces = {}
    for index, row in enumerate(placement.split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            else:
                pieces["abcdefgh"[file] + str(8 - index)] = char
                file += 1
    return pieces


def diagram(placement: str, *, kind: str, orientation: str = "white", last: list[str] | None = None,
            check: str | None = None, sprite: str, caption: str = "") -> SafeString:
    """An SVG of ``placement`` (a chess placement; draughts as ``corr.web.move_board.draughts_placement``),
    drawn from ``orientation``'s side, ``last`` (the last move's squares) and ``check`` (a king in check)
    marked, its pieces ``sprite``'s (a URL, ``#wk`` etc. appended), its ``caption`` and pieces in words.
    """
    names = CHESS_NAMES if kind == "chess" else DRAUGHTS_NAMES
    pieces = pieces_of(placement)
    marked = set(last or ())
    files = "abcdefgh" if orientation == "white" else "hgfedcba"
    ranks = "87654321" if orientation == "white" else "12345678"
    size = 8 * SQUARE
    parts = []
    for row, rank in enumerate(ranks):
        for column, file in enumerate(files):
            square = file + rank
            dark = ("abcdefgh".index(file) + int(rank)) % 2 == 1
            fill = CHECK if square == check else LAST if square in marked else DARK if dark else LIGHT
            x, y = column * SQUARE, row * SQUARE
            mark = ' class="last"' if square in marked else ""
            parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"{mark}/>')
            piece = pieces.get(square)
            if piece is not None:
                ref = ("w" if piece.isupper() else "b") + piece.lower()
                parts.append(f'<use href="{escape(sprite)}#{ref}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"'
                             f' data-square="{square}" data-piece="{piece}"/>')
            if column == 0:
                parts.append(f'<text x="2" y="{y + 10}" font-size="9" fill="#3d2c1c">{rank}</text>')
            if row == 7:
                parts.append(f'<text x="{x + SQUARE - 8}" y="{size - 3}" font-size="9" fill="#3d2c1c">{file}</text>')
    words = "; ".join(f"{names[p]} {s}" for s, p in sorted(pieces.items(), key=lambda i: (i[1].islower(), i[0])))
    title = caption or _("The position")
    return mark_safe(
        f'<svg id="diagram-svg" class="diagram diagram-{kind}" viewBox="0 0 {size} {size}" role="img"'
        f' aria-labelledby="diagram-title" aria-describedby="diagram-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="diagram-title">{escape(title)}</title><desc id="diagram-desc">{escape(words)}</desc>'
        + "".join(parts) + "</svg>")
