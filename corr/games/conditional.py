"""Conditional moves (issue 28): a player's tree of replies checked on the board, and the branch a move takes.

A tree is a list of branches ``{"if": partner's move, "then": own reply, "next": [deeper branches]}``
read from the position where the partner is to move. Chess and Russian draughts: every node is played on
the game's board (``corr.games.boards``: python-chess, pydraughts) and stored as corr writes the move (SAN;
``c3-d4``, ``c3:e5``), so that the partner's move, however it was typed (``e2-e4``, ``e2e4``; ``c3xd4``),
is compared as a move, not as text. Go (issue 40, as OGS takes conditional moves): every node on sgfmill's board
with suicide and ko (``corr.games.goboard``), written ``D4`` or ``pass``; black moves first.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from corr import limits as lim
from corr.clock.assembly import active_events
from corr.models import EventKind, Game, GameKind

from .boards import BOARDS, STARTS, Board, DraughtsBoard, GoBoard
from .errors import InvalidInput, colour_word
from .selectors import game_rows

FIELD = "conditional"


def kind_checked(game: Game) -> None:
    """Issue 28: a tree is checked legal at every node, on a board corr keeps (chess, Russian draughts, Go).

    Said before anything else about a tree (whose turn it is, its branches): a player of a kind without a board
    is told the one thing that holds whatever they do.
    :raises InvalidInput: (``field: "conditional"``) a kind corr keeps no board for.
    """
    if game.kind_in_force not in BOARDS:
        raise InvalidInput(_("conditional moves are taken in chess, draughts and Go games only: their moves are"
                             " checked on the board (python-chess, pydraughts, sgfmill)"), field=FIELD)


def board_now(game: Game) -> Board:
    """The board after the game's moves in force (corrections applied, withdrawn and void moves left out).

    A correspondence game keeps no position: it is replayed from the stored moves, which the server took
    as typed. A draughts game whose moves corr cannot read (international draughts' numbers, ``32-28``)
    has no position to check a tree from, and is refused as a chess game with an unplayable move is.
    :raises InvalidInput: (``field: "conditional"``) not a chess or draughts game (``kind_checked``), a game
        that does not start as its board does, or a stored move the board cannot play (the tree could not be
        checked from it).
    """
    kind_checked(game)
    if game.first != STARTS[game.kind_in_force]:  # white in chess and draughts, black in Go (Go rules 12.5)
        raise InvalidInput(_("conditional moves are taken in games that start as their board does (white in chess"
                             " and draughts, black in Go)"), field=FIELD)
    board = BOARDS[game.kind_in_force]()
    for row in active_events(game_rows(game=game)):
        if row.kind != EventKind.MOVE or row.void:
            continue
        move = board.move_of(row.notation)
        if move is None or board.turn != row.player:
            if board.kind == GameKind.DRAUGHTS:
                raise InvalidInput(_("%(colour)s's move %(number)s %(move)s cannot be played on a Russian draughts"
                                     " board (moves written c3-d4, c3:e5 for a capture): conditional moves are"
                                     " checked from the game's position"), field=FIELD,
                                   colour=colour_word(row.player), number=row.number, move=row.notation)
            raise InvalidInput(_("%(colour)s's move %(number)s %(move)s cannot be played on the board: conditional"
                                 " moves are checked from the game's position"), field=FIELD,
                               colour=colour_word(row.player), number=row.number, move=row.notation)
        board.push(move)
    return board


def board_at(board: Board, key: str) -> Board | None:
    """The position ``key`` (``ConditionalTree.position``) on a board of ``board``'s kind; None: not one of its."""
    try:
        return type(board).at(key)
    except ValueError:
        return None


def tree_checked(nodes, board: Board) -> list[dict]:
    """``nodes`` checked from ``board`` (the partner to move) and written as corr writes moves (``Board.text``).

    :raises InvalidInput: naming the branch by its path (``conditional[0].next[1].then``): a branch
        that is not ``{"if", "then", "next"}``, a move that is not legal there, two branches with the
        same ``if`` at one level (one move, however written), a tree deeper than ``CONDITIONAL_DEPTH_MAX``
        or with more than ``CONDITIONAL_NODES_MAX`` branches.
    """
    count = [0]
    return _level(nodes, board, FIELD, 1, count)


def _level(nodes, board: Board, path: str, depth: int, count: list[int]) -> list[dict]:
    if not isinstance(nodes, list):
        raise InvalidInput(_("%(path)s must be a list of branches, each {\"if\": the partner's move, \"then\": your"
                             " reply, \"next\": [deeper branches]}"), field=path, path=path)
    out: list[dict] = []
    seen: dict[object, int] = {}
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
                                 " branches]}, the moves written as the game writes them (SAN in chess, c3-d4 in"
                                 " draughts, D4 or pass in Go)"), field=here, path=here)
        after = board.copy()
        move = _legal(after, node["if"], f"{here}.if")
        partner = after.text(move)
        if move in seen:
            raise InvalidInput(_("%(path)s: %(move)s is already answered by %(other)s at this level"),
                               field=f"{here}.if", path=f"{here}.if", move=partner,
                               other=f"{path}[{seen[move]}]")
        seen[move] = index
        after.push(move)
        reply_move = _legal(after, node["then"], f"{here}.then")
        reply = after.text(reply_move)
        after.push(reply_move)
        out.append({"if": partner, "then": reply,
                    "next": _level(node.get("next", []), after, f"{here}.next", depth + 1, count)})
    return out


def _legal(board: Board, notation: str, path: str):
    """``notation`` as a legal move on ``board``. :raises InvalidInput: naming ``path`` and the move."""
    move = board.move_of(notation)
    if move is not None:
        return move
    colour = colour_word(board.turn)
    if isinstance(board, DraughtsBoard) and not board.readable(notation):
        raise InvalidInput(_("%(path)s: %(colour)s's move %(number)s %(move)s is not written as a Russian draughts"
                             " move: write c3-d4, or c3:e5 for a capture"), field=path, path=path, colour=colour,
                           number=board.number, move=notation)
    ways = board.ways(notation) if isinstance(board, DraughtsBoard) else ""
    if ways:
        raise InvalidInput(_("%(path)s: %(colour)s's move %(number)s %(move)s fits several captures: name the"
                             " squares between (%(ways)s)"), field=path, path=path, colour=colour,
                           number=board.number, move=notation, ways=ways)
    last = board.last()
    if last is None:
        raise InvalidInput(_("%(path)s: %(colour)s's move %(number)s %(move)s is not a legal move in the starting"
                             " position"), field=path, path=path, colour=colour, number=board.number,
                           move=notation)
    raise InvalidInput(_("%(path)s: %(colour)s's move %(number)s %(move)s is not a legal move after %(last)s"),
                       field=path, path=path, colour=colour, number=board.number, move=notation, last=last)


def reopenings(rows) -> int:
    """How often the game whose events are ``rows`` was reopened (its ``reopen`` history lines)."""
    return sum(1 for row in rows if row.kind == EventKind.REOPEN)


def tree_changed(tree, board: Board | None, reopens: int) -> str | None:
    """Why the pending ``tree`` (a ``ConditionalTree``) may not fire now; None: it may.

    ``board``: the game's position now (None: its moves cannot be replayed), ``reopens``: its reopenings
    (``reopenings``). ``"position"``: the position is not the one the tree was built for (after its awaited
    move): an arbiter corrected or withdrew a move since (or changed the game's kind), and the tree's moves
    would not mean what its owner meant. ``"reopened"``: the game ended and was reopened since the tree was
    written. A tree written before positions were kept (``position`` blank) is not checked.
    """
    if not tree.position:
        return None
    if board is None:
        return "position"
    built = board_at(board, tree.position)
    if built is None:
        return "position"
    if tree.awaiting:
        move = built.move_of(tree.awaiting)
        if move is None:
            return "position"
        built.push(move)
    if built.key() != board.key():
        return "position"
    return "reopened" if tree.reopens != reopens else None


def position_text(key: str) -> tuple[str, int] | None:
    """The move after which the position ``key`` (``ConditionalTree.position``) stands, as ``(colour, number)``;
    None: the starting position, a key of no board corr knows, or a Go position (its key keeps the stones, not
    how many moves made them)."""
    for kind in BOARDS.values():
        if kind is GoBoard:
            continue
        try:
            board = kind.at(key)
        except ValueError:
            continue
        if board.turn == "black":
            return "white", board.number
        return ("black", board.number - 1) if board.number > 1 else None
    return None


def branch_taken(tree: list[dict], board: Board, notation: str) -> dict | None:
    """The branch of ``tree`` whose ``if`` is the move ``notation`` on ``board`` (the partner to move); else None."""
    move = board.move_of(notation)
    if move is None:
        return None
    return next((branch for branch in tree if board.move_of(branch["if"]) == move), None)


def played(board: Board, *moves: str) -> Board:
    """A copy of ``board`` with ``moves`` played, each legal in turn (checked before: a tree's, a matched move).

    :raises ValueError: one is not legal (a caller's mistake, never a player's).
    """
    after = board.copy()
    for notation in moves:
        move = after.move_of(notation)
        if move is None:
            raise ValueError(f"{notation!r} is not legal on the board it was checked on")
        after.push(move)
    return after
