"""A server game ended by its board (issue 36): checkmate, stalemate, a draughts side without a move, a draw claim.

The server is the board, so it ends the game when the board does, as the ICCF webserver and lichess do: no
arbiter is asked. Checkmate wins (FIDE 5.1.1) and stalemate draws (FIDE 5.2.1) with the move that made them; a
Russian draughts side whose pieces are all captured or blocked has lost (000 12.10, 001 1.7.12 name the same
position). A draw by threefold repetition (FIDE 9.2) or the fifty-move rule (FIDE 9.3) is the player's claim,
with the move that makes it or on their turn; an unfounded claim is refused and changes nothing. Go is ended by
its players' agreement or the arbiter: two passes do not score the board.

The result is a ``result`` line of the history worded by ``corr.games.records`` (the pages say it in the
reader's language), the game's ``termination`` (the PGN's ``Termination``), new clocks, and an e-mail to the
partner and the arbiters, each in their language.
"""

from __future__ import annotations

from datetime import date, datetime

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.language import user_language
from accounts.models import User
from corr.clock.assembly import other
from corr.links import absolute_url
from corr.live.position import all_captured_or_blocked
from corr.models import Colour, EventKind, Game, GameResult, GameStatus
from corr.outbox import email_prepare, emails_store
from corr.rulebooks import cited

from ..boards import ChessBoard, DraughtsBoard
from ..cases import history_append
from ..clockstate import GameTime, counts_instants
from ..errors import InvalidInput
from ..records import TEMPLATES, record_text
from ..replay import PlayBoard
from .storage import game_recompute

CHECKMATE, STALEMATE, NO_MOVE, THREEFOLD, FIFTY = "checkmate", "stalemate", "no_move", "threefold", "fifty_moves"
FIELD = "claim_draw"
WINS = {"white": GameResult.WHITE_WON, "black": GameResult.BLACK_WON}


def end_of_move(after: PlayBoard) -> str | None:
    """How the position ``after`` a move ends the game (``CHECKMATE``, ``STALEMATE``, ``NO_MOVE``); None: play on."""
    if isinstance(after, ChessBoard):
        if after.board.is_checkmate():
            return CHECKMATE
        return STALEMATE if after.board.is_stalemate() else None
    if isinstance(after, DraughtsBoard):
        return NO_MOVE if all_captured_or_blocked(after.fen, after.turn) else None
    return None


def claim_checked(board: PlayBoard, claim: bool, *, with_move: bool) -> str | None:
    """The draw ``board`` founds (``THREEFOLD``, ``FIFTY``) when ``claim`` is made; None when none is claimed.

    ``board``: the position after the claimant's move (``with_move``, FIDE 9.2.1.1, 9.3.1) or the one on their
    turn (9.2.1.2, 9.3.2). Threefold: the position (the side to move, castling and en passant rights alike)
    stands for the third time (python-chess's ``is_repetition(3)``). Fifty moves: the last 50 moves of each
    side made no capture and moved no pawn (its half-move clock is at least 100).
    :raises InvalidInput: (``field: "claim_draw"``) not a chess game, or neither holds: nothing is stored.
    """
    if not claim:
        return None
    if not isinstance(board, ChessBoard):
        raise InvalidInput(_("a draw is claimed by threefold repetition or the fifty-move rule in chess (FIDE 9.2,"
                             " 9.3); in draughts and Go offer a draw to your partner"), field=FIELD)
    if board.board.is_repetition(3):
        return THREEFOLD
    if board.board.halfmove_clock >= 100:
        return FIFTY
    if with_move:
        raise InvalidInput(_("the draw claim is unfounded: after your move the position has not appeared three times"
                             " (FIDE 9.2) and the last 50 moves of each side included a capture or a pawn move"
                             " (FIDE 9.3); nothing was stored"), field=FIELD)
    raise InvalidInput(_("the draw claim is unfounded: the position has not appeared three times (FIDE 9.2) and the"
                         " last 50 moves of each side included a capture or a pawn move (FIDE 9.3)"), field=FIELD)


_CODES = {CHECKMATE: "board_checkmate", STALEMATE: "board_stalemate", NO_MOVE: "board_no_move",
          THREEFOLD: "board_threefold", FIFTY: "board_fifty_moves"}
"""Each ending's termination (``corr.games.records.TEMPLATES``)."""


def _outcome(ending: str, mover: str) -> tuple[str, str]:
    """The result and the termination (stored English) of ``ending``, made by ``mover``'s move or claim."""
    result = WINS[mover] if ending in (CHECKMATE, NO_MOVE) else GameResult.DRAW
    return result, record_text(_CODES[ending], player=mover, partner=other(mover))


def board_end_record(*, game: Game, by: User, mover: str, ending: str, today: date, now: datetime) -> GameTime:
    """Finish ``game`` (locked; the move, if any, stored) by ``ending``: history line, clocks, cases, e-mails."""
    result, termination = _outcome(ending, mover)
    game.status, game.result, game.termination = GameStatus.FINISHED, result, termination
    game.save(update_fields=["status", "result", "termination"])
    history_append(game=game, by=by, kind=EventKind.RESULT, player=mover,
                   note=record_text("result_ended", result=result, termination=termination))
    time = game_recompute(game, by=by, today=today, as_of=now.replace(microsecond=0) if counts_instants(game) else None,
                          cause=record_text("cause_result", result=result))
    emails_store(board_end_emails(game=game, mover=mover, ending=ending), enqueue=True)
    return time


def _termination_words(ending: str, mover: str) -> str:
    """The termination ``_outcome`` stores, in the active language (colours in words, rules by rulebook)."""
    colours = {"player": Colour(mover).label, "partner": Colour(other(mover)).label}
    return cited(gettext(TEMPLATES[_CODES[ending]]) % colours)


def board_end_emails(*, game: Game, mover: str, ending: str):
    """One e-mail to the partner of ``mover`` and one to each arbiter, in their language (keyed: sent once)."""
    partner = game.user_of(other(mover))
    people, seen, emails = [partner, *game.tournament.arbiters.all()], set(), []
    for person in people:
        if person.pk in seen:
            continue
        seen.add(person.pk)
        with translation.override(user_language(person)):
            values = {"game": game.pk, "tournament": game.tournament.name, "result": game.result,
                      "how": _termination_words(ending, mover), "white": game.white.username,
                      "black": game.black.username, "name": game.user_of(mover).username,
                      "player": Colour(mover).label}
            subject = gettext("Game #%(game)s is over: %(result)s") % values
            body = (gettext("Game #%(game)s (%(tournament)s), %(white)s - %(black)s, is over: %(result)s.")
                    % values + "\n" + gettext("How it ended: %(how)s.") % values + "\n"
                    + gettext("The server ended the game on the board; an arbiter can reopen it.") + "\n"
                    + gettext("Game page: %(url)s") % {"url": absolute_url(f"/games/{game.pk}/")} + "\n")
        emails.append(email_prepare(key=f"board_end:{game.pk}:{game.events_version}:{person.pk}",
                                    tournament_id=game.tournament_id,
                                    recipients=[person.email] if person.email else [], subject=subject, body=body))
    return emails


def claim_founded(replay) -> bool:
    """Whether the player to move of the game ``replay`` read (``game_replay``) could claim a draw now, without
    moving: a chess game whose moves corr reads, its position standing for the third time or 50 moves passed
    (FIDE 9.2, 9.3)."""
    if not replay.whole or not isinstance(replay.board, ChessBoard):
        return False
    return replay.board.board.is_repetition(3) or replay.board.board.halfmove_clock >= 100
