"""A change to a game (``corr.games.notices.Change``), turned into notices for the players it concerns.

Run by the task after the change committed, with ids only: the game is read here, at its current state.
A notice is stored under a key naming its cause and recipient, so a task delivered twice tells nobody
twice. Who is told of what:

- a move: the partner, now on move ("your move"), unless their page of the game is open (``presence``) or
  a conditional reply already answered it; a reply played by a conditional line: its owner too, with the
  line that fired and what is still pending;
- a game's start, an arbiter's result or reopening: both players;
- a draw offer, acceptance or refusal, a resignation: the partner;
- leave: each partner of the player on leave, once for the booking, with every game of theirs it stops.
Each only if the recipient wants that kind (``preferences``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction

from corr.clock.assembly import other
from corr.games.clockstate import clock_as_of
from corr.games.leaves import games_leave_stops
from corr.games.selectors import game_time_get
from corr.models import ConditionalTree, EventKind, Game, GameStatus, Leave, Mode
from corr.web.conditional_text import tree_text

from . import compose
from .compose import Worded, in_language
from .kinds import Kind
from .models import Notice
from .pace import notices_deliver
from .preferences import choices_of
from .presence import is_present


class NotYetVisible(Exception):
    """The change's transaction is not visible yet (its version not reached): the task retries shortly."""


DRAWS = {"draw_offer", "draw_accept", "draw_decline"}
RESULTS = {"resign", "result", "reopen"}


def change_notify(*, change: str, game_id: int, version: int, colour: str, now: datetime,
                  seq: int | None = None) -> list[str]:
    """Tell the players concerned of ``change`` (module docstring); :returns: the keys of the notices stored.

    ``seq``: the event the change stored (a move's row); None for a task queued without it (the mover's last move).

    :raises NotYetVisible: the game is older than ``version`` (the change's commit is not visible yet).
    """
    if change == "leave":  # a booking: its games are read from the leave (``game_id``: the first of them)
        return _leave(leave_id=version, now=now)
    game = Game.objects.select_related("tournament", "white", "black").filter(pk=game_id).first()
    if game is None or game.mode == Mode.LIVE:
        return []
    if game.events_version < version:
        raise NotYetVisible(f"game {game_id} is at version {game.events_version}, the notice is of {version}")
    time, rows = game_time_get(game=game, as_of=clock_as_of(game, now))
    made: list[tuple[object, Kind, str, object]] = []  # (user, kind, key, word(user) -> Worded)
    if change == "move":
        made += _move(game, time, rows, version=version, mover=colour, seq=seq)
    elif change == "start":
        for c in ("white", "black"):
            made.append((game.user_of(c), Kind.GAME_START, c, lambda u, c=c: compose.game_started(
                game=game, time=time, user=u, colour=c)))
    elif change in DRAWS:
        partner = other(colour)
        made.append((game.user_of(partner), Kind.DRAW, partner, lambda u: compose.draw_news(
            change=change, game=game, time=time, user=u, colour=partner)))
    elif change == "long_move":
        made += _long_move(game, time, rows, by=colour)
    elif change in RESULTS:
        told = [other(colour)] if change == "resign" else ["white", "black"]
        for c in told:
            made.append((game.user_of(c), Kind.RESULT, c, lambda u, c=c: compose.result_news(
                change=change, game=game, time=time, user=u, colour=c)))
    return _store_and_deliver(game, made, prefix=f"{change}:{game.pk}:{version}", now=now)


def _move(game: Game, time, rows, *, version: int, mover: str, seq: int | None = None) -> list:
    """The notices of ``mover``'s move stored at ``version`` (the row ``seq``; None: the mover's last move): the
    partner's "your move", a line's owner's."""
    moves = [r for r in rows if r.kind == EventKind.MOVE]  # in seq order: the last is the one in force
    mine = [r for r in moves if r.player == mover and (seq is None or r.seq == seq)]
    if not mine:
        return []
    move = mine[-1]
    partner = other(mover)
    # A task that runs late (a busy worker) finds the game moved on: the move it was queued for is worded, and the
    # partner who has answered it since is not told of it (their next "your move" comes with the next move).
    answered_since = any(r.player == partner and r.seq > move.seq for r in moves)
    made = []
    if move.variant == "conditional":  # the mover's line replied: its owner is told what fired
        answered = next((r for r in reversed(moves) if r.player == partner and r.seq < move.seq), None)
        tree = ConditionalTree.objects.filter(game=game, player=mover).first()
        pending = tree_text(tree.tree) if tree is not None and tree.tree else ""
        if answered is not None:
            made.append((game.user_of(mover), Kind.CONDITIONAL, mover, lambda u: compose.line_fired(
                game=game, time=time, user=u, colour=mover, reply=move, answered=answered, pending=pending)))
    # The partner is told only while the move is theirs to answer: not if their own line answered it already
    # (its notice says so), nor once the game ended on the board (the end's own e-mail says that).
    if game.status == GameStatus.ONGOING and time.to_move == partner and not answered_since:
        made.append((game.user_of(partner), Kind.YOUR_MOVE, partner, lambda u: compose.your_move(
            game=game, time=time, user=u, colour=partner, move=move)))
    return made


def _long_move(game: Game, time, rows, *, by: str) -> list:
    """The "Use 40+ days" notice of ``by``: the opponent and the tournament's arbiters (its directors) are told,
    as ICCF Playing Rules 3b asks the player to tell them."""
    notice = next((r for r in reversed(rows) if r.kind == EventKind.LONG_MOVE and r.player == by), None)
    if notice is None:
        return []
    partner = other(by)
    made = [(game.user_of(partner), Kind.LONG_MOVE, partner, lambda u: compose.long_move_news(
        game=game, time=time, user=u, colour=partner, by=by, number=notice.number))]
    for arbiter in game.tournament.arbiters.all():
        if arbiter.pk not in (game.white_id, game.black_id):
            made.append((arbiter, Kind.LONG_MOVE, "", lambda u: compose.long_move_news(
                game=game, time=time, user=u, colour="", by=by, number=notice.number)))
    return made


def _leave(*, leave_id: int, now: datetime) -> list[str]:
    """A booking: each partner told once, of all their games it stops (``games_leave_stops``, in id order)."""
    leave = Leave.objects.filter(pk=leave_id).select_related("user").first()
    if leave is None:
        raise NotYetVisible(f"leave {leave_id} is not visible yet")
    by = leave.user
    partners: dict[int, tuple] = {}  # partner's id -> (partner, their colour in the first game, games)
    for game in games_leave_stops(by):
        colour = other(game.colour_of(by))
        partner = game.user_of(colour)
        partners.setdefault(partner.pk, (partner, colour, []))[2].append(game)
    keys = []
    for partner, colour, games in partners.values():
        made = [(partner, Kind.LEAVE, colour, lambda u, games=games: compose.leave_news(games=games, leave=leave,
                                                                                        by=by))]
        # Keyed by the booking and the partner (``leave:<leave>:<kind>:<user>``): a redelivery stores nothing twice.
        keys += _store_and_deliver(games[0], made, prefix=f"leave:{leave.pk}", now=now, presence=False)
    return keys


def _store_and_deliver(game: Game, made: list, *, prefix: str, now: datetime, presence: bool = True) -> list[str]:
    keys = []
    for user, kind, colour, word in made:
        if not choices_of(user.pk).wants(kind):
            continue
        if presence and kind == Kind.YOUR_MOVE and is_present(user_id=user.pk, game_id=game.pk):
            continue  # their page of the game is open: they see the move there
        with in_language(user):
            worded: Worded = word(user)
        key = f"{prefix}:{kind}:{user.pk}"[:120]
        try:
            with transaction.atomic():
                notice = Notice.objects.create(key=key, user=user, game=game, colour=colour, kind=kind,
                                               subject=worded.subject[:200], text=worded.text, created_at=now)
        except IntegrityError:
            continue  # a task delivered twice: told once
        notices_deliver(user=user, notice_ids=[notice.pk], now=now)
        keys.append(key)
    return keys
