"""Conditional moves (issue 28): a player's tree of replies checked on the board, and the branch a move takes.

A tree is a list of branches ``{"if": partner's move, "then": own reply, "next": [deeper branches]}``
read from the position where the partner is to move. Chess only: every node is played by
python-chess, and stored as python-chess writes it (SAN), so that the partner's move, however it was
typed (``e2-e4``, ``e2e4``), is compared as a move, not as text. Draughts and Go trees are refused:
their moves are not checked on a board anywhere in corr yet.
"""

from __future__ import annotations

import chess
from django.utils.translation import gettext_lazy as _

from corr import limits as lim
from corr.clock.assembly import active_events
from corr.models import EventKind, Game, GameKind

from .errors import InvalidInput, colour_word
from .selectors import game_rows

FIELD = "conditional"


def kind_checked(game: Game) -> None:
    """Issue 28: a tree is checked legal at every node, and corr checks chess trees only (python-chess).

    Said before anything else about a tree (whose turn it is, its branches): a draughts or Go player is
    told the one thing that holds whatever they do.
    :raises InvalidInput: (``field: "conditional"``) not a chess game.
    """
    if game.kind_in_force != GameKind.CHESS:
        raise InvalidInput(_("conditional moves are taken in chess games only: their moves are checked on the"
                             " board by python-chess, and draughts and Go moves are not checked yet"), field=FIELD)


def board_now(game: Game) -> chess.Board:
    """The board after the game's moves in force (corrections applied, withdrawn and void moves left out).

    :raises InvalidInput: (``field: "conditional"``) not a chess game (``kind_checked``), a game that does
        not start with white, or a stored move python-chess cannot play (the tree could not be checked from it).
    """
    kind_checked(game)
    if game.first != "white":
        raise InvalidInput(_("conditional moves are taken in chess games that start with white"), field=FIELD)
    board = chess.Board()
    for row in active_events(game_rows(game=game)):
        if row.kind != EventKind.MOVE or row.void:
            continue
        move = move_parsed(board, row.notation)
        if move is None or (board.turn == chess.WHITE) != (row.player == "white"):
            raise InvalidInput(_("%(colour)s's move %(number)s %(move)s cannot be played on the board: conditional"
                                 " moves are checked from the game's position"), field=FIELD,
                               colour=colour_word(row.player), number=row.number, move=row.notation)
        board.push(move)
    return board


def move_parsed(board: chess.Board, notation: str) -> chess.Move | None:
    """``notation`` (SAN, long algebraic or UCI, annotation marks allowed) as a legal move on ``board``; else None."""
    text = notation.strip().rstrip("!?").replace("0", "O")
    try:
        move = board.parse_san(text)
    except ValueError:
        return None
    return move if move else None  # a null move ("--") is no move


def tree_checked(nodes, board: chess.Board) -> list[dict]:
    """``nodes`` checked from ``board`` (the partner to move) and written as python-chess writes SAN.

    :raises InvalidInput: naming the branch by its path (``conditional[0].next[1].then``): a branch
        that is not ``{"if", "then", "next"}``, a move that is not legal there, two branches with the
        same ``if`` at one level, a tree deeper than ``CONDITIONAL_DEPTH_MAX`` or with more than
        ``CONDITIONAL_NODES_MAX`` branches.
    """
    count = [0]
    return _level(nodes, board, FIELD, 1, count)


def _level(nodes, board: chess.Board, path: str, depth: int, count: list[int]) -> list[dict]:
    if not isinstance(nodes, list):
        raise InvalidInput(_("%(path)s must be a list of branches, each {\"if\": the partner's move, \"then\": your"
                             " reply, \"next\": [deeper branches]}"), field=path, path=path)
    out: list[dict] = []
    seen: dict[str, int] = {}
    for index, node in enumerate(nodes):
        here = f"{path}[{index}]"
        count[0] += 1
        if count[0] > lim.CONDITIONAL_NODES_MAX:
            raise InvalidInput(_("a tree of conditional moves holds at most %(max)s branches in all"), field=here,
                               max=lim.CONDITIONAL_NODES_MAX)
        if depth > lim.CONDITIONAL_DEPTH_MAX:
            raise InvalidInput(_("a tree of conditional moves goes at most %(max)s replies deep"), field=here,
                               max=lim.CONDITIONAL_DEPTH_MAX)
        if (not isinstance(node, dict) or not {"if", "then"} <= node.keys() or not node.keys() <= {"if", "then", "next"}
                or not all(isinstance(node[k], str) and 0 < len(node[k]) <= lim.NOTATION_MAX for k in ("if", "then"))):
            raise InvalidInput(_("%(path)s must be {\"if\": the partner's move, \"then\": your reply, \"next\": [deeper"
                                 " branches]}, the moves written in SAN"), field=here, path=here)
        after = board.copy()
        partner = _played(after, node["if"], f"{here}.if")
        if partner in seen:
            raise InvalidInput(_("%(path)s: %(move)s is already answered by %(other)s at this level"),
                               field=f"{here}.if", path=f"{here}.if", move=partner,
                               other=f"{path}[{seen[partner]}]")
        seen[partner] = index
        reply = _played(after, node["then"], f"{here}.then")
        out.append({"if": partner, "then": reply,
                    "next": _level(node.get("next", []), after, f"{here}.next", depth + 1, count)})
    return out


def _played(board: chess.Board, notation: str, path: str) -> str:
    """Play ``notation`` on ``board`` and return its SAN. :raises InvalidInput: naming ``path`` and the move."""
    move = move_parsed(board, notation)
    if move is None:
        colour = colour_word("white" if board.turn == chess.WHITE else "black")
        if not board.move_stack:
            raise InvalidInput(_("%(path)s: %(colour)s's move %(number)s %(move)s is not a legal move in the starting"
                                 " position"), field=path, path=path, colour=colour, number=board.fullmove_number,
                               move=notation)
        raise InvalidInput(_("%(path)s: %(colour)s's move %(number)s %(move)s is not a legal move after %(last)s"),
                           field=path, path=path, colour=colour, number=board.fullmove_number, move=notation,
                           last=last_move_text(board))
    san = board.san(move)
    board.push(move)
    return san


def last_move_text(board: chess.Board) -> str:
    """The last move played on ``board``, numbered as a score writes it: ``3. Nf3`` or ``3... Nc6``."""
    before = board.copy()
    move = before.pop()
    dots = "." if before.turn == chess.WHITE else "..."
    return f"{before.fullmove_number}{dots} {before.san(move)}"


def reopenings(rows) -> int:
    """How often the game whose events are ``rows`` was reopened (its ``reopen`` history lines)."""
    return sum(1 for row in rows if row.kind == EventKind.REOPEN)


def tree_changed(tree, board: chess.Board | None, reopens: int) -> str | None:
    """Why the pending ``tree`` (a ``ConditionalTree``) may not fire now; None: it may.

    ``board``: the game's position now (None: its moves cannot be replayed), ``reopens``: its reopenings
    (``reopenings``). ``"position"``: the position is not the one the tree was built for (after its awaited
    move): an arbiter corrected or withdrew a move since, and the tree's moves would not mean what its owner
    meant. ``"reopened"``: the game ended and was reopened since the tree was written. A tree written before
    positions were kept (``position`` blank) is not checked.
    """
    if not tree.position:
        return None
    if board is None:
        return "position"
    built = chess.Board(tree.position)
    if tree.awaiting:
        move = move_parsed(built, tree.awaiting)
        if move is None:
            return "position"
        built.push(move)
    if built.fen() != board.fen():
        return "position"
    return "reopened" if tree.reopens != reopens else None


def position_text(fen: str) -> tuple[str, int] | None:
    """The move after which the position ``fen`` stands, as ``(colour, number)``; None: the starting position."""
    board = chess.Board(fen)
    if board.turn == chess.BLACK:
        return "white", board.fullmove_number
    return ("black", board.fullmove_number - 1) if board.fullmove_number > 1 else None


def branch_taken(tree: list[dict], board: chess.Board, notation: str) -> dict | None:
    """The branch of ``tree`` whose ``if`` is the move ``notation`` on ``board`` (the partner to move); else None."""
    move = move_parsed(board, notation)
    if move is None:
        return None
    for branch in tree:
        if move_parsed(board, branch["if"]) == move:
            return branch
    return None
