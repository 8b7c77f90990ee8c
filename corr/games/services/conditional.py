"""Conditional moves (issue 28): the owner's reading, replacing and cancelling of their pending tree, and the
writes a move makes to the trees (``move_store`` calls them: a tree follows the move that fires or drops it).

A tree is its owner's alone: every function here acts on the caller's own tree, so the partner's
request never reads, replaces or cancels it, and nothing answers whether the partner has one.

The writes that follow a move run in the move's transaction, which may be a ``trip`` (PostgreSQL,
``corr.games.services.trips``): they never open an ``atomic`` block (no ``QuerySet.delete``, no
``update_or_create``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock.calendar import MoveOnLeave
from corr.models import ConditionalTree, Game, Mode

from ..clockstate import assemble_game, local_today
from ..boards import Board, DraughtsBoard, GoBoard
from ..conditional import (
    FIELD, board_at, board_now, branch_taken, kind_checked, played, position_text, reopenings, tree_changed,
    tree_checked,
)
from ..errors import InvalidInput, NotYourTurn, colour_word
from ..leaves import game_leave
from ..selectors import game_rows
from .storage import ensure_ongoing, game_lock, player_colour_of


@dataclass(frozen=True, slots=True)
class Line:
    """What is left of a player's conditional line after their move: ``tree`` (the branches the partner's next
    move is looked up in; empty: none), ``sent_with_move``, the move the line was first sent with, and
    ``position``, the position ``tree`` is read from (``Board.key``: the partner to move)."""

    tree: list
    sent_with_move: int
    position: str


@dataclass(frozen=True, slots=True)
class Firing:
    """The owner's reply a partner's move fires: ``then`` played by ``owner``, the owner's line after it."""

    owner: str
    then: str
    line: Line


def trees_read(game: Game, trees: list | None) -> dict[str, ConditionalTree]:
    """The game's pending trees by colour: ``trees`` as the move's locking read gave them, or read now."""
    if trees is None:
        trees = list(ConditionalTree.objects.filter(game=game))
    return {tree.player: tree for tree in trees}


def server_checked(game: Game) -> None:
    """:raises InvalidInput: (``field: "conditional"``) ``game`` is not a server game."""
    if game.mode != Mode.SERVER:
        raise InvalidInput(_("conditional moves are sent in server games only, where the server plays the reply;"
                             " in a postal game a variant is recorded move by move (variant: accepted or"
                             " conditional, 50.4.8)"), field=FIELD)


def line_sent(*, game: Game, board: Board, notation: str, conditional, number: int) -> Line:
    """The tree sent with move ``number`` (``notation``, played on ``board``, the position before it), checked.

    :raises InvalidInput: the move itself is not legal (``field: "notation"``: the tree is read from the
        position after it), or a branch of the tree is not (``tree_checked``).
    """
    after = board.copy()
    move = after.move_of(notation)
    if move is None and isinstance(board, DraughtsBoard):
        raise InvalidInput(_("%(move)s is not a legal Russian draughts move here (write c3-d4, or c3:e5 for a"
                             " capture): conditional moves are checked from the position after your move"),
                           field="notation", move=notation)
    if move is None:
        raise InvalidInput(_("%(move)s is not a legal move here: conditional moves are checked from the position"
                             " after your move"), field="notation", move=notation)
    after.push(move)
    return Line(tree_checked(conditional, after), number, after.key())


def line_after_own_move(tree: ConditionalTree | None, board: Board, notation: str, reopens: int
                        ) -> Line | None:
    """What the mover's own pending tree becomes when they move by hand: the awaited reply played keeps the
    line (its branch's ``next``); any other move, a tree not awaiting a reply, or one built for another
    position (``tree_changed``), drops it (None)."""
    if tree is None or not tree.awaiting or tree_changed(tree, board, reopens) is not None:
        return None
    branch = next((b for b in tree.tree if b["if"] == tree.awaiting), None)
    if branch is None:
        return None
    # ``board`` is the position before the mover's move: the awaited partner's move is already on it.
    move = board.move_of(notation)
    if move is None or move != board.move_of(branch["then"]):
        return None
    after = board.copy()
    after.push(move)
    return Line(branch["next"], tree.sent_with_move, after.key())


def firing_of(game: Game, tree: ConditionalTree | None, board: Board, notation: str, now: datetime,
              reopens: int) -> Firing | None | str:
    """What the partner's move ``notation`` (on ``board``, before it) does to the owner's ``tree``.

    A ``Firing`` when a branch matches and the owner may move now; ``"wait"`` when one matches but the owner
    is on leave where the tournament refuses moves on leave (the reply waits, the tree stays);
    None when nothing matches (the tree is dropped), there is no tree, or the tree was built for another
    position or before a reopening (``tree_changed``: it never fires; its owner was warned, and it is dropped).
    """
    if tree is None or tree_changed(tree, board, reopens) is not None:
        return None
    branch = branch_taken(tree.tree, board, notation)
    if branch is None:
        return None
    if owner_on_refused_leave(game, tree.player, now):
        return "wait"
    after = played(board, branch["if"], branch["then"])  # both checked when the tree was
    return Firing(tree.player, branch["then"], Line(branch["next"], tree.sent_with_move, after.key()))


def owner_on_refused_leave(game: Game, colour: str, now: datetime) -> bool:
    """``colour`` is on leave today (the tournament's zone) in a tournament that refuses moves on leave."""
    if game.tournament.move_on_leave != MoveOnLeave.REFUSED.value:
        return False
    today = local_today(game.tournament, now)
    return any(span.first <= today <= span.last for span in game_leave(game).get(colour, ()))


def tree_write(game: Game, trees: dict[str, ConditionalTree], colour: str, line: Line | None, now: datetime,
               *, reopens: int = 0, awaiting: str = "") -> None:
    """Store ``colour``'s line (None or an empty tree: delete the row) and keep ``trees`` in step.

    ``reopens``: the game's reopenings now (``reopenings``), kept with the line's position."""
    current = trees.get(colour)
    if line is None or not line.tree:
        if current is not None:
            with connection.cursor() as cursor:  # no QuerySet.delete: it opens an atomic block (see the module)
                cursor.execute(f"DELETE FROM {ConditionalTree._meta.db_table} WHERE id = %s", [current.pk])
            del trees[colour]
        return
    if current is None:
        trees[colour] = ConditionalTree.objects.create(game=game, player=colour, tree=line.tree,
                                                       sent_with_move=line.sent_with_move, awaiting=awaiting,
                                                       position=line.position, reopens=reopens,
                                                       created_at=now, updated_at=now)
        return
    ConditionalTree.objects.filter(pk=current.pk).update(tree=line.tree, sent_with_move=line.sent_with_move,
                                                         awaiting=awaiting, position=line.position,
                                                         reopens=reopens, updated_at=now)
    current.tree, current.sent_with_move, current.awaiting, current.updated_at = (
        line.tree, line.sent_with_move, awaiting, now)
    current.position, current.reopens = line.position, reopens


def tree_await(trees: dict[str, ConditionalTree], colour: str, partner_move: str, board: Board,
               now: datetime) -> None:
    """Mark ``colour``'s tree as awaiting their reply to ``partner_move`` (its SAN as the tree writes it)."""
    tree = trees[colour]
    branch = branch_taken(tree.tree, board, partner_move)
    tree.awaiting = branch["if"]
    ConditionalTree.objects.filter(pk=tree.pk).update(awaiting=tree.awaiting, updated_at=now)


def conditional_json(tree: ConditionalTree | None, changed: str | None = None) -> dict:
    """The owner's view of their pending tree (``GET /api/games/{id}/conditional/``); ``changed``: why it will
    not fire (``tree_state``), with the warning in words."""
    if tree is None:
        return {"conditional": [], "sent_with_move": None, "awaiting": None, "updated_at": None, "position": None,
                "changed": None, "warning": None}
    return {"conditional": tree.tree, "sent_with_move": tree.sent_with_move, "awaiting": tree.awaiting or None,
            "updated_at": tree.updated_at.isoformat(), "position": tree.position or None, "changed": changed,
            "warning": changed_warning(tree, changed)}


def position_now(game: Game) -> Board | None:
    """``game``'s board now (``board_now``); None: it cannot be read (not a kind corr reads, a move it cannot play)."""
    try:
        return board_now(game)
    except InvalidInput:
        return None


_UNREAD = object()


def tree_state(game: Game, tree: ConditionalTree | None, board: Board | None | object = _UNREAD) -> str | None:
    """Why ``tree`` will not fire in ``game`` as it stands (``tree_changed``: ``"position"``, ``"reopened"``);
    None: it will when its branch comes, or there is no tree. Read for the owner's warning (page and API).

    ``board``: the game's ``position_now`` when the caller has read it already (the page: its board diagram).
    """
    if tree is None:
        return None
    rows = game_rows(game=game)
    if board is _UNREAD:
        board = position_now(game)
    return tree_changed(tree, board, reopenings(rows))


def changed_warning(tree: ConditionalTree, changed: str | None) -> str | None:
    """The owner's warning about a tree that will not fire (``tree_state``), in the active language."""
    if changed is None:
        return None
    if changed == "reopened":
        return str(_("The game was reopened after this line was sent: it will not fire. Replace it (by the same line"
                     " if you wish) or cancel it."))
    after = position_text(tree.position)
    if after is None and board_at(GoBoard(), tree.position) is not None:
        where = str(_("an earlier position"))  # a Go key says the stones, not the move that made them
    elif after is None:
        where = str(_("the starting position"))
    else:
        where = str(_("the position after %(colour)s's move %(number)s")) % {
            "colour": colour_word(after[0]), "number": after[1]}
    return str(_("This line was built for %(where)s, and the game's position is no longer that one (a move was"
                 " corrected or withdrawn since): it will not fire. Replace it from the current position or cancel"
                 " it.")) % {"where": where}


def conditional_get(*, game: Game, by: User) -> ConditionalTree | None:
    """``by``'s own pending tree in ``game`` (None: none). :raises NotAllowed: not a player of the game (403)."""
    colour = player_colour_of(game, by)
    return ConditionalTree.objects.filter(game=game, player=colour).first()


@transaction.atomic
def conditional_replace(*, game: Game, by: User, conditional, today: date,
                        now: datetime | None = None) -> ConditionalTree | None:
    """Replace ``by``'s pending tree with ``conditional``, checked from the current position.

    Only while the partner is to move (the owner's move has been sent): the tree answers the partner's
    next move. It keeps the number of the owner's last move as the move it was sent with. An empty
    list cancels the tree.
    :raises NotYourTurn: ``by`` is to move: a tree is sent with the move (409).
    :raises InvalidInput: not a server chess or draughts game, its position unreadable (``board_now``), or a
        branch refused (``tree_checked``).
    :raises NotAllowed: not a player of the game (403). :raises GameOver: (409).
    """
    now = (now or timezone.now()).replace(microsecond=0)
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    server_checked(game)
    kind_checked(game)  # before the turn: a Go tree is refused whoever is to move
    assembled = assemble_game(game, rows, today)
    if assembled.to_move == colour:
        raise NotYourTurn(_("it is %(colour)s's move: send conditional moves with your move (POST"
                            " /api/games/{id}/moves/ with \"conditional\"); they answer the partner's next move"),
                          field=FIELD, colour=colour_word(colour))
    board = board_now(game)
    line = Line(tree_checked(conditional, board), assembled.made[colour], board.key())
    trees = trees_read(game, None)
    tree_write(game, trees, colour, line, now, reopens=reopenings(rows))
    return trees.get(colour)


@transaction.atomic
def conditional_cancel(*, game: Game, by: User) -> None:
    """Cancel ``by``'s pending tree, if any (a waiting reply too). :raises NotAllowed: not a player (403)."""
    game, _rows = game_lock(game)
    colour = player_colour_of(game, by)
    trees = trees_read(game, None)
    tree_write(game, trees, colour, None, timezone.now())
