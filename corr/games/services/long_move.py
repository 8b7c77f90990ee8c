"""The "Use 40+ days" notice (issue 40; ICCF Playing Rules 3b): the player on move says their move will take
longer than the limit for one move, telling the tournament director and the opponent.

ICCF's webserver: a game may be scored as lost after 40 days without a move unless the player told the TD
and the opponent (the "Use 40+ reflection" setting, ICCF Webserver guide 5.4.4 and 7). The notice is a line
of the game's history (``long_move``) naming the move; the calculator does not apply the tournament's limit
for one move (``max_per_move``) to that move (``corr.clock.events.Game.long_moves``), and charges its time as
usual. Whether a long silence is an exceeded time limit is the arbiter's: the nightly report lists the games
whose player is on such a move (``corr.nightly.reports``).
"""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock.assembly import active_events
from corr.models import EventKind, Game, Mode

from ..cases import history_append
from ..clockstate import assemble_game, clock_as_of, silent_days
from ..errors import InvalidInput, NotYourTurn, TurnConflict
from ..notices import Change, notice_on_commit
from ..records import record_text
from .storage import ensure_ongoing, game_lock, game_recompute, player_colour_of

FIELD = "game"


def long_move_limit(game: Game) -> int | None:
    """The days one move may take in ``game``'s tournament (``max_per_move``: ICCF's 40); None: no limit."""
    return (game.tournament.time_control or {}).get("max_per_move")


def long_move_used(rows, colour: str, number: int) -> bool:
    """Whether ``colour`` gave the notice for their move ``number`` (a line in force of ``rows``)."""
    return any(row.kind == EventKind.LONG_MOVE and row.player == colour and row.number == number
               for row in active_events(rows))


@transaction.atomic
def long_move_declare(*, game: Game, by: User, today: date, now: datetime | None = None) -> Game:
    """``by``, on move in a server game whose tournament limits one move, gives the notice for that move.

    :raises InvalidInput: not a server game, or no limit for one move (``field: "game"``).
    :raises NotYourTurn: ``by`` is not on move (409). :raises TurnConflict: already given for this move, or
        the limit has passed already: more whole days without a move than the limit (``silent_days``, the
        reminders' count) (409); nothing stored.
    :raises GameOver: the game is over (409). :raises NotAllowed: not a player of the game (403).
    """
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    limit = long_move_limit(game)
    if game.mode != Mode.SERVER or limit is None:
        raise InvalidInput(_("the \"Use 40+ days\" notice is given in server games whose tournament limits the days"
                             " of one move (ICCF's 40 days); this game has no such limit"), field=FIELD)
    assembled = assemble_game(game, rows, clock_as_of(game, now or timezone.now()))
    if assembled.to_move != colour:
        raise NotYourTurn(_("it is not your move: the \"Use 40+ days\" notice is given for the move you are to make"),
                          field=FIELD)
    number = assembled.made[colour] + 1
    # Playing Rules 3b: the notice is given before the limit passes, not to excuse a silence already over it.
    pending = assembled.pending
    silent = silent_days(game=game, received_on=pending.received_on if pending else None,
                         now=now or timezone.now())
    if silent > limit:
        raise TurnConflict(_("the \"Use 40+ days\" notice is given before the limit for one move passes (ICCF Playing"
                             " Rules 3b): you have not moved for %(silent)s days, over the limit of %(limit)s"),
                           field=FIELD, silent=silent, limit=limit)
    if long_move_used(rows, colour, number):
        raise TurnConflict(_("you already gave the \"Use 40+ days\" notice for your move %(number)s"), field=FIELD,
                           number=number)
    history_append(game=game, by=by, kind=EventKind.LONG_MOVE, player=colour, number=number,
                   note=record_text("long_move_notice", player=colour, number=number, days=limit))
    game_recompute(game, by=by, today=today, cause=record_text("cause_long_move", player=colour, number=number))
    notice_on_commit(Change.LONG_MOVE, game_id=game.pk, version=game.events_version, colour=colour)
    return game
