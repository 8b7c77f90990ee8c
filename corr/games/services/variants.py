"""A received variant in a postal or e-mail game (50.4.8, issue 28): the receiver records in one step the
proposer's line and how much of it they accept, as the variant moves a player or an arbiter types one by one."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr import limits as lim
from corr.clock.assembly import other
from corr.models import EventKind, Game, Mode

from ..clockstate import GameTime, assemble_game
from ..errors import InvalidInput, NotYourTurn, colour_word
from .storage import ensure_ongoing, event_new, events_store, game_lock, player_colour_of

LINE_MAX = 2 * lim.CONDITIONAL_DEPTH_MAX
"""Moves of a recorded variant line: the receiver's and the proposer's, as deep as a conditional tree."""


@transaction.atomic
def variant_record(*, game: Game, by: User, line: list[str], accepted_through: int, today: date) -> GameTime:
    """``by``, the player to move, accepts the partner's variant ``line`` through their own move ``accepted_through``.

    ``line`` starts with ``by``'s next move and alternates with the proposer's replies (``["Nc6", "Bb5", "a6",
    "Ba4"]``, written as received). Stored, undated (50.4.8): each of ``by``'s moves through ``accepted_through``
    as ``variant: accepted`` and the proposer's reply to each as ``variant: conditional``; the rest of the line
    is not played. ``by``'s time is counted on the last accepted move, the proposer's on the move the variant
    came with; ``by``'s next move is an ordinary one (``POST .../moves/``, received when the variant arrived).

    :raises InvalidInput: a server or live game (``field: "line"``: a server game's conditional moves are sent
        with the move), a line that is not a list of moves, ``accepted_through`` outside the line or with no reply
        of the proposer after it (then it is an ordinary move: send it so).
    :raises NotYourTurn: ``by`` is not to move (409). :raises NotAllowed: not a player (403).
    """
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    if game.mode != Mode.POSTAL:
        raise InvalidInput(_("a variant is recorded in postal and e-mail games; in a server game conditional moves"
                             " are sent with the move (\"conditional\")"), field="line")
    before = assemble_game(game, rows, today)
    if before.to_move != colour:
        raise NotYourTurn(_("it is %(to_move)s's turn: a variant is recorded by the player who received it"),
                          field="line", to_move=colour_word(before.to_move))
    if (not isinstance(line, list) or not 0 < len(line) <= LINE_MAX
            or not all(isinstance(m, str) and 0 < len(m.strip()) <= lim.NOTATION_MAX for m in line)):
        raise InvalidInput(_("line must be a list of 1 to %(max)s moves, starting with your next move"),
                           field="line", max=LINE_MAX)
    proposer = other(colour)
    first = before.made[colour] + 1
    last = first + (len(line) - 1) // 2
    if not first <= accepted_through <= last:
        raise InvalidInput(_("accepted_through must be one of your moves in the line: %(first)s to %(last)s"
                             " (50.4.8)"), field="accepted_through", first=first, last=last)
    pairs = accepted_through - first + 1
    if len(line) < 2 * pairs:
        raise InvalidInput(_("the line has no reply of %(partner)s after your move %(number)s: send that move as an"
                             " ordinary move (50.4.8)"), field="accepted_through", partner=colour_word(proposer),
                           number=accepted_through)
    new = []
    for i in range(pairs):
        new.append(event_new(by, EventKind.MOVE, colour, number=first + i, notation=line[2 * i].strip(),
                             variant="accepted"))
        new.append(event_new(by, EventKind.MOVE, proposer, number=before.made[proposer] + 1 + i,
                             notation=line[2 * i + 1].strip(), variant="conditional"))
    return events_store(game, rows, new, today)
