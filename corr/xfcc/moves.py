"""``MakeAMove``: an XFCC client's move, resignation or answer to a draw, through the API's own services.

The move is the API's (``move_submit``: its turn and number checks under the game's lock, its
clock, flags, cases and e-mails). What the services refuse becomes the ``MakeAMoveResult`` word
clients understand, each named for what corr checked:

============================  ==============================================================
``Success``                    stored (or the same move again, already stored: a client's retry)
``InvalidGameID``              no chess server game of that id (the only kind XFCC plays)
``NotYourGame``                not a player of it
``NotYourTurn``                the partner is to move, or the game is over
``InvalidMoveNumber``          not the number of the player's next move
``InvalidMove``                no legal move (SAN or UCI) in the position (python-chess decides,
                               as for every server move: ``corr.games.legal``), or a draw claim
                               that is unfounded (FIDE 9.2, 9.3): nothing stored
``NoDrawWasOffered``           an acceptance with no offer of the partner standing
``LostOnTime``                 the player's flag has fallen (``timeouts: automatic``), or the
                               game was lost on time
``YouAreOnLeave``              today is the player's leave and the tournament refuses moves then
``ServerError``                anything else the rules refused (logged)
============================  ==============================================================

A draw claim (``claimDraw``) goes with the move, or stands alone on the player's turn, as on the
game page (issue 36): the game ends drawn when the position stands for the third time or 50 moves
passed without a capture or a pawn move. A game stored before server moves were checked, whose
moves corr cannot read from some move on, takes moves as written, as the API does (issue 36).

``movecount`` is the move's full-move number, which is corr's number of the mover's move in a
game that white starts (the only ones XFCC offers). A message (``myMessage``) is not kept: corr
has no messages between players.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from corr.clock import ClockError
from corr.clock.calendar import MoveOnLeave
from corr.clock.assembly import active_events
from corr.games import services
from corr.games.clockstate import clock_as_of, game_time, local_today
from corr.games.errors import (
    GameOver, InvalidInput, NoDrawOffered, NotYourTurn, ServiceError, TimeRanOut, WrongMoveNumber,
)
from corr.games.leaves import game_leave
from corr.games.replay import events_replay
from corr.games.selectors import game_get, game_rows
from corr.models import EventKind, Game

from .games import xfcc_game_offered

log = logging.getLogger(__name__)

_ANSWERS = ((TimeRanOut, "LostOnTime"), (NoDrawOffered, "NoDrawWasOffered"), (WrongMoveNumber, "InvalidMoveNumber"),
            (NotYourTurn, "NotYourTurn"), (GameOver, "NotYourTurn"))


def _answer_of(error: ServiceError | ClockError, game: Game) -> str:
    if isinstance(error, InvalidInput) and error.field in ("notation", "claim_draw"):
        return "InvalidMove"
    for kind, word in _ANSWERS:
        if isinstance(error, kind):
            return word
    log.warning("XFCC MakeAMove on game %s refused: %s", game.pk, error)
    return "ServerError"


def _lost_on_time_by(game: Game, colour: str) -> bool:
    """Whether the game is over and lost on time by ``colour`` (its partner, the winner, is told ``NotYourTurn``)."""
    lost = "0-1" if colour == "white" else "1-0"
    return game.status != "ongoing" and game.result == lost and "lost on time" in game.termination


def _on_refused_leave(game: Game, colour: str, now: datetime) -> bool:
    """Whether ``now`` is a day of ``colour``'s leave in a tournament that refuses moves on leave days."""
    if game.tournament.ruleset.move_on_leave is not MoveOnLeave.REFUSED:
        return False
    today = local_today(game.tournament, now)
    return any(r.first <= today <= r.last for r in game_leave(game)[colour])


def xfcc_move(*, user, game_id: int, resign: bool, accept_draw: bool, offer_draw: bool, claim_draw: bool,
              movecount: int, move: str, now: datetime) -> str:
    """Carry out one ``MakeAMove`` of ``user`` (signed in) as of ``now``; the ``MakeAMoveResult`` word.

    In order: a resignation (on move or not), an acceptance, a claim, else the move, then the draw
    offer that goes with it (both in one transaction: an offer refused stores no move either).
    """
    try:
        game = game_get(game_id=game_id)
    except Game.DoesNotExist:
        return "InvalidGameID"
    if not xfcc_game_offered(game):
        return "InvalidGameID"
    colour = game.colour_of(user)
    if colour is None:
        return "NotYourGame"
    if _lost_on_time_by(game, colour):
        return "LostOnTime"
    today = local_today(game.tournament, now)
    try:
        if resign:
            services.game_resign(game=game, by=user, today=today)
        elif accept_draw:
            services.draw_offer_accept(game=game, by=user, today=today, now=now)
        elif move.strip():
            return _move(game, user, colour, movecount, move.strip(), offer_draw, claim_draw, today, now)
        elif claim_draw:
            services.draw_claim(game=game, by=user, today=today, now=now)
        elif offer_draw:
            services.draw_offer_make(game=game, by=user, today=today, now=now)
        else:
            return "InvalidMove"
    except (ServiceError, ClockError) as error:
        return _answer_of(error, game)
    return "Success"


def _move(game: Game, user, colour: str, movecount: int, notation: str, offer_draw: bool, claim_draw: bool,
          today, now) -> str:
    rows = game_rows(game=game)
    time = game_time(game, rows, clock_as_of(game, now))
    if time.to_move != colour:
        # A client that did not hear the answer sends its move again: the same move, already stored, is done.
        if _same_as_last(game, rows, colour, movecount, notation):
            return "Success"
        return "NotYourTurn"
    if movecount != time.assembled.made[colour] + 1:
        return "InvalidMoveNumber"
    if _on_refused_leave(game, colour, now):
        return "YouAreOnLeave"
    try:
        with transaction.atomic():
            # The service checks the move on the board and stores it in SAN (issue 36), as for the API.
            services.move_submit(game=game, by=user, number=movecount, notation=notation, claim_draw=claim_draw,
                                 today=today, now=now)
            if offer_draw:
                services.draw_offer_make(game=game, by=user, today=today, now=now)
    except (ServiceError, ClockError) as error:
        if isinstance(error, InvalidInput) and error.field == "sent_on" and _on_refused_leave(game, colour, now):
            return "YouAreOnLeave"
        return _answer_of(error, game)
    return "Success"


def _same_as_last(game: Game, rows, colour: str, movecount: int, notation: str) -> bool:
    """Whether ``notation`` is the game's last move in force, ``colour``'s number ``movecount``, as a move in the
    position before it (``e2e4`` is ``e4``); in a game corr cannot read up to it, the text as stored."""
    moves = [row for row in active_events(rows) if row.kind == EventKind.MOVE and not row.void]
    if not moves or moves[-1].player != colour or moves[-1].number != movecount:
        return False
    before = events_replay(game, moves[:-1])
    if not before.whole:
        return moves[-1].notation.strip() == notation.strip()
    move = before.board.move_of(notation)
    return move is not None and before.board.text(move) == moves[-1].notation
