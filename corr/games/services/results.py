"""Players' results in server games (issue 26): resigning, offering a draw, accepting or declining one.

Each is a line of the game's history, entered by the player: a resignation and an accepted offer
are ``result`` lines (the game ends as an arbiter's result ends it, and an arbiter can reopen it),
an offer a ``draw_offer`` line and a refusal a ``draw_decline`` line. Postal and e-mail games keep
their results with the arbiter, who receives the players' letters; live games have the arbiter at
the board. When an offer stands, and when it lapses, is :mod:`corr.games.draws`'.
"""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock.assembly import other
from corr.models import EventKind, Game, GameResult, GameStatus, Mode, Timeouts

from ..cases import history_append
from ..clockstate import assemble_game, clock_as_of, counts_instants
from ..draws import draw_offer_of
from ..records import record_text
from ..errors import InvalidInput, NoDrawOffered, NotYourTurn, TurnConflict, colour_word
from ..notices import Change, notice_on_commit
from ..replay import game_replay
from .ending import board_end_record, claim_checked
from .participants import ensure_flag_standing
from .storage import ensure_ongoing, game_lock, game_recompute, player_colour_of

WINS = {"white": GameResult.WHITE_WON, "black": GameResult.BLACK_WON}


def _player_in_server_game(game: Game, by: User) -> str:
    """``by``'s colour in ``game``, a server game under way. :raises InvalidInput: ``field: "game"`` otherwise."""
    colour = player_colour_of(game, by)
    if game.mode != Mode.SERVER:
        raise InvalidInput(_("in postal, e-mail and live games the arbiter records the result: tell the arbiter"),
                           field="game")
    ensure_ongoing(game)
    return colour


def _end(game: Game, by: User, colour: str, result: str, termination: str, note: str, today: date) -> Game:
    game.status, game.result, game.termination = GameStatus.FINISHED, result, termination
    game.save(update_fields=["status", "result", "termination"])
    history_append(game=game, by=by, kind=EventKind.RESULT, player=colour, note=note)
    game_recompute(game, by=by, today=today, cause=record_text("cause_result", result=result))
    change = Change.DRAW_ACCEPT if result == GameResult.DRAW else Change.RESIGN
    notice_on_commit(change, game_id=game.pk, version=game.events_version, colour=colour)
    return game


@transaction.atomic
def game_resign(*, game: Game, by: User, today: date) -> Game:
    """``by`` resigns their server game, on move or not (FIDE 5.1.2): the partner wins.

    :raises InvalidInput: not a server game (``field: "game"``). :raises GameOver: already finished (409).
    :raises NotAllowed: not a player of the game (403).
    """
    game, _rows = game_lock(game)
    colour = _player_in_server_game(game, by)
    result = WINS[other(colour)]
    return _end(game, by, colour, result, record_text("player_resigned", player=colour),
                record_text("resigned", player=colour, result=result), today)


@transaction.atomic
def draw_offer_make(*, game: Game, by: User, today: date, now: datetime | None = None) -> Game:
    """``by`` offers a draw after their move, while the partner is to move (FIDE 9.1.2.1).

    The offer stands until the partner answers it or moves (:mod:`corr.games.draws`).
    :raises NotYourTurn: ``by`` is to move: the offer goes with (after) their move (409).
    :raises TurnConflict: an offer already stands (409).
    """
    game, rows = game_lock(game)
    colour = _player_in_server_game(game, by)
    as_of = _as_of(game, today, now)
    if assemble_game(game, rows, as_of).to_move == colour:
        raise NotYourTurn(_("it is your move: a draw is offered after making one (FIDE 9.1.2.1); make your move,"
                            " then offer"), field="game")
    offer = draw_offer_of(rows)
    if offer is not None:
        raise TurnConflict(_("%(colour)s's draw offer already stands"), field="game", colour=colour_word(offer.by))
    history_append(game=game, by=by, kind=EventKind.DRAW_OFFER, player=colour,
                   note=record_text("draw_offered", player=colour))
    # The offer is in the game's clock view (GET /api/games/{id}/, cached per version): a new version.
    game_recompute(game, by=by, today=today, cause=record_text("cause_draw_offered", player=colour))
    notice_on_commit(Change.DRAW_OFFER, game_id=game.pk, version=game.events_version, colour=colour)
    return game


def _answerable(game: Game, rows, colour: str, as_of) -> str:
    """The offerer's colour, when ``colour`` may answer the standing offer now. :raises NoDrawOffered, NotYourTurn:"""
    if assemble_game(game, rows, as_of).to_move != colour:
        raise NotYourTurn(_("it is not your move: a draw offer is answered by the player to move"), field="game")
    offer = draw_offer_of(rows)
    if offer is None or offer.by == colour:
        raise NoDrawOffered(_("%(partner)s has not offered a draw (an offer lapses with the next move)"),
                            field="game", partner=colour_word(other(colour)))
    return offer.by


def _as_of(game: Game, today: date, now: datetime | None):
    return clock_as_of(game, (now or timezone.now()).replace(microsecond=0)) if counts_instants(game) else today


@transaction.atomic
def draw_offer_accept(*, game: Game, by: User, today: date, now: datetime | None = None) -> Game:
    """``by``, the player to move, accepts the partner's standing offer: the game is drawn.

    Under ``timeouts: automatic`` a player whose flag has fallen accepts nothing: the game is lost.
    :raises NotYourTurn, NoDrawOffered, TimeRanOut: (409).
    """
    game, rows = game_lock(game)
    colour = _player_in_server_game(game, by)
    as_of = _as_of(game, today, now)
    offerer = _answerable(game, rows, colour, as_of)
    if counts_instants(game) and game.tournament.timeouts == Timeouts.AUTOMATIC:
        ensure_flag_standing(game, rows, colour, as_of)
    return _end(game, by, colour, GameResult.DRAW, record_text("player_draw_agreed"),
                record_text("draw_agreed", player=colour, partner=offerer, result=GameResult.DRAW), today)


@transaction.atomic
def draw_offer_decline(*, game: Game, by: User, today: date, now: datetime | None = None) -> Game:
    """``by``, the player to move, declines the partner's standing offer; the game goes on.

    :raises NotYourTurn, NoDrawOffered: (409).
    """
    game, rows = game_lock(game)
    colour = _player_in_server_game(game, by)
    offerer = _answerable(game, rows, colour, _as_of(game, today, now))
    history_append(game=game, by=by, kind=EventKind.DRAW_DECLINE, player=colour,
                   note=record_text("draw_declined", player=colour, partner=offerer))
    game_recompute(game, by=by, today=today, cause=record_text("cause_draw_declined", player=colour))
    notice_on_commit(Change.DRAW_DECLINE, game_id=game.pk, version=game.events_version, colour=colour)
    return game


@transaction.atomic
def draw_claim(*, game: Game, by: User, today: date, now: datetime | None = None) -> Game:
    """``by``, the player to move, claims a draw on their turn without moving (FIDE 9.2.1.2, 9.3.2): the position
    stands for the third time, or 50 moves of each side passed without a capture or a pawn move.

    A claim with a move is the move's (``move_submit(claim_draw=True)``). Under ``timeouts: automatic`` a
    player whose flag has fallen claims nothing: the game is lost.
    :raises NotYourTurn, TimeRanOut: (409). :raises InvalidInput: not a server chess game whose moves corr reads,
        or the claim is unfounded (``field: "claim_draw"``): nothing is stored.
    """
    game, rows = game_lock(game)
    colour = _player_in_server_game(game, by)
    now = (now or timezone.now()).replace(microsecond=0)
    as_of = _as_of(game, today, now)
    if assemble_game(game, rows, as_of).to_move != colour:
        raise NotYourTurn(_("it is not your move: a draw is claimed on your turn, or with your move (FIDE 9.2,"
                            " 9.3)"), field="claim_draw")
    if counts_instants(game) and game.tournament.timeouts == Timeouts.AUTOMATIC:
        ensure_flag_standing(game, rows, colour, as_of)
    replay = game_replay(game, rows)
    if not replay.whole:
        raise InvalidInput(_("a draw is claimed on the board, and corr cannot read this game's moves: ask the"
                             " arbiter"), field="claim_draw")
    ending = claim_checked(replay.board, True, with_move=False)
    board_end_record(game=game, by=by, mover=colour, ending=ending, today=today, now=now)
    return game
