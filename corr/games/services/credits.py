"""Time given back (issue 39): an arbiter's credit, a player's gift to the partner, the credit of a reopening.

A credit is an event of the game (``GameEvent`` of kind ``credit``) like a penalty or a delay, and it is
their inverse: the calculator (``corr.clock.events.Credit``) takes its amount off what is charged to one
move of the player, so the time left in that control grows; the rules themselves do not change. It is
undone like any other event, by withdrawing it from the history (``event_withdraw``).

What corr models: ICCF's tournament directors credit days after a server outage; lichess's "+" gives the
opponent time; Dragon Go Server lets the opponent add days. 50.4 itself only charges.

Bounds (a refusal names the field and the rule, nothing is stored):

* an arbiter's credit gives back at most the time charged to the player so far (``total_days``, or its
  seconds under an exact count): it returns time used, it does not make new time;
* a gift is a server game's, by a player to the partner, where the tournament sets ``gift_max_days``
  (0, the default, allows none), and a player's gifts in one game add up to at most that many days;
* seconds only under an exact count (the clock has no smaller unit than a day elsewhere).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock import Credit, compute
from corr.clock.assembly import other
from corr.clock.counts import DAY_SECONDS
from corr.models import EventKind, Game, GameEvent, Mode

from ..clockstate import GameTime, game_time, ruleset_count
from ..errors import InvalidInput, TurnConflict, colour_word
from ..records import amount_text, record_text
from ..selectors import game_rows
from .storage import ensure_ongoing, event_new, events_store, game_lock, player_colour_of

SECONDS, DAYS = "seconds", "days"
"""A credit row's ``reason``: the unit of its ``days`` column."""


class AmountWord:
    """An amount of time said in the language a message is read in: ``3 days``, ``2 h 30 min``."""

    def __init__(self, days: int = 0, seconds: int = 0) -> None:
        self.days, self.seconds = days, seconds

    def __str__(self) -> str:
        if not self.seconds:
            return ngettext("%(days)s day", "%(days)s days", self.days) % {"days": self.days}
        total = self.days * DAY_SECONDS + self.seconds
        days, rest = divmod(total, DAY_SECONDS)
        return gettext("%(days)s d %(hours)s h %(minutes)s min") % {
            "days": days, "hours": f"{rest // 3600:02d}", "minutes": f"{rest % 3600 // 60:02d}"}


def exact(game: Game) -> bool:
    """Whether ``game``'s clock counts seconds (``time_control.count`` exact, a server game)."""
    return game.mode == Mode.SERVER and ruleset_count(game.tournament.ruleset) == "exact"


def amount_checked(game: Game, days: int | None, seconds: int | None) -> tuple[int, int]:
    """(days, seconds) of a credit or gift: one of them, a whole number above 0; seconds only where the clock
    counts seconds. :raises InvalidInput: naming ``days`` or ``seconds`` and the rule."""
    if (days is None) == (seconds is None):
        raise InvalidInput(_("give either days or seconds (one of the two), more than 0"), field="days")
    name, value = ("days", days) if days is not None else ("seconds", seconds)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidInput(_("%(name)s must be a whole number above 0, got %(value)s"), field=name, name=name,
                           value=repr(value))
    if seconds is not None and not exact(game):
        raise InvalidInput(_("seconds are given only where the clock counts seconds (an exact count); this game"
                             " counts days: give days"), field="seconds")
    return (value, 0) if name == "days" else (0, value)


def credit_row(by: User | None, player: str, move: int, days: int, seconds: int, note: str) -> GameEvent:
    """The stored event of a credit: ``days`` holds the amount in the unit ``reason`` names; ``by`` None: corr
    itself (an outage given back)."""
    if seconds:
        return event_new(by, EventKind.CREDIT, player, number=move, days=days * DAY_SECONDS + seconds,
                         reason=SECONDS, note=note)
    return event_new(by, EventKind.CREDIT, player, number=move, days=days, reason=DAYS, note=note)


def credit_give(*, game: Game, by: User, player: str, reason: str, days: int | None = None,
                seconds: int | None = None, move: int | None = None, today: date) -> GameTime:
    """An arbiter gives ``player`` time back (days, or seconds under an exact count), with a required reason.

    Taken off the player's ``move`` (default: the move their time is charged to now, i.e. the current
    control). :raises InvalidInput: no reason, an amount of 0 or less, seconds under a count of days, more
    than the player has been charged so far; :raises NotAllowed: not an arbiter of the game.
    """
    from .arbiters import colour_checked, ensure_arbiter  # arbiters imports this module for the reopening

    game, rows = game_lock(game)
    ensure_arbiter(game, by)
    ensure_ongoing(game)  # a finished game is reopened first (game_reopen), which is recorded
    colour = colour_checked(player)
    if not reason.strip():
        raise InvalidInput(_("reason is required: say why the time is given back"), field="reason")
    days, seconds = amount_checked(game, days, seconds)
    time = game_time(game, rows, today)
    account = time.clock.accounts[colour]
    used = charged_in_unit(time, colour)
    given = days * (DAY_SECONDS if exact(game) else 1) + seconds
    if given > used:
        raise InvalidInput(_("a credit gives back at most the time charged to %(player)s so far (%(used)s): it"
                             " returns time used, it makes none"), field="seconds" if seconds else "days",
                           player=colour_word(colour), used=AmountWord(*_split(used, game)))
    move = account.next_charge_number if move is None else move
    note = record_text("credit_given", amount=amount_text(days, seconds), player=colour, note=reason.strip())
    return events_store(game, rows, [credit_row(by, colour, move, days, seconds, note)], today,
                        cause=record_text("cause_credit", player=colour))


def gift_give(*, game: Game, by: User, days: int | None = None, seconds: int | None = None,
              today: date) -> GameTime:
    """A player gives the partner time in a server game whose tournament allows gifts: under the tournament's
    ``gifts`` rule (issue 40, ``corr.games.services.server_time.time_give``: a gift event the calculator bounds),
    else up to ``gift_max_days`` in all (issue 39, a credit).

    :raises InvalidInput: naming ``days``/``seconds`` and the rule (no gifts in this tournament or mode, beyond
        the bound); :raises NotAllowed: not a player of the game.
    """
    if game.tournament.gifts is not None:  # issue 40: the calculator's rule (lichess's "+", DGS's add time)
        from django.utils import timezone

        from .server_time import time_give

        if seconds is not None:
            raise InvalidInput(_("time is given in whole days under this tournament's rules (ruleset.gifts): give"
                                 " days"), field="seconds")
        days, _seconds = amount_checked(game, days, None)
        return time_give(game=game, by=by, days=days, now=timezone.now())
    game, rows = game_lock(game)
    giver = player_colour_of(game, by)
    ensure_ongoing(game)
    bound = game.tournament.gift_max_days
    field = "seconds" if seconds is not None else "days"
    if game.mode != Mode.SERVER:
        raise InvalidInput(_("gifts of time are for server games: a postal game's time is the rules' alone"),
                           field=field)
    if bound <= 0:
        raise InvalidInput(_("this tournament allows no gifts of time (its gift_max_days is 0)"), field=field)
    days, seconds = amount_checked(game, days, seconds)
    scale = DAY_SECONDS if exact(game) else 1
    given_before = sum(r.days if r.reason == SECONDS else r.days * scale for r in _gifts_by(rows, by))
    if given_before + days * scale + seconds > bound * scale:
        raise InvalidInput(_("gifts in this game add up to at most %(bound)s (the tournament's gift_max_days); you"
                             " have given %(given)s"), field=field, bound=AmountWord(bound),
                           given=AmountWord(*_split(given_before, game)))
    partner = other(giver)
    time = game_time(game, rows, today)
    move = time.clock.accounts[partner].next_charge_number
    note = record_text("credit_gift", amount=amount_text(days, seconds), player=partner, partner=giver,
                       bound=amount_text(bound))
    return events_store(game, rows, [credit_row(by, partner, move, days, seconds, note)], today,
                        cause=record_text("cause_credit", player=partner))


def _gifts_by(rows, by: User):
    """The credits ``by`` gave as a player (gifts), withdrawn ones included: a withdrawal does not refund the bound."""
    return [r for r in rows if r.kind == EventKind.CREDIT and r.entered_by_id == by.pk and r.supersedes_id is None]


def charged_in_unit(time: GameTime, colour: str) -> int:
    """What is charged to ``colour`` so far in the count's unit (seconds under an exact count)."""
    account = time.clock.accounts[colour]
    game = time.assembled.game
    if ruleset_count(game.ruleset) != "exact":
        return account.total_days
    from corr.clock.charging import charge_rows  # the seconds themselves: the account says whole days

    charges, _lines = charge_rows(game, time.clock.as_of, ledger=False)
    return charges[colour].total_days


def _split(amount: int, game: Game) -> tuple[int, int]:
    return (0, amount) if exact(game) else (amount, 0)


def overstep_credit(game: Game, time: GameTime) -> tuple[str, int, int, int, int]:
    """The credit that puts the overstepped player back in the control: (player, move, days, seconds, control).

    The least amount after which the calculator finds no overstep, plus one day, so the player has a day
    to move (under dates: the days over the control + 1). Taken off the move of the overstep (the control's
    last move, or the move during which the flag fell), or the current one if earlier.
    :raises TurnConflict: no player is over the control; the overstep is of a limit per move, which no credit
        undoes (ICCF's 40 days for one move).
    """
    over = [(colour, a) for colour, a in time.clock.accounts.items() if a.overstepped is not None]
    if not over:
        raise TurnConflict(_("no player is over the control: there is no overstep to credit"), field="overstep")
    colour, account = over[0]
    if account.overstepped.reason == "max_per_move":
        raise TurnConflict(_("%(player)s's overstep is of the limit for a single move: no credit undoes it; keep it"),
                           field="overstep", player=colour_word(colour))
    move = min(account.overstepped.through_move, account.next_charge_number)
    assembled = time.assembled.game
    as_of = time.clock.as_of
    seconds = exact(game)
    unit = DAY_SECONDS if seconds else 1

    def still_over(amount: int) -> bool:
        credit = Credit(colour, move, 0, amount) if seconds else Credit(colour, move, amount, 0)
        trial = replace(assembled, events=assembled.events + (credit,))
        return compute(trial, as_of).accounts[colour].overstepped is not None

    high = unit
    while still_over(high):  # doubling, then halving: the calculator is the judge of every system
        high *= 2
    low = 0  # still over with nothing given
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if still_over(middle) else (low, middle)
    amount = high + unit  # back in the control, with a day to move
    control = account.overstepped.control
    return (colour, move, 0, amount, control) if seconds else (colour, move, amount, 0, control)


def credit_of_reopening(*, game: Game, by: User, note: str, today: date) -> GameTime:
    """Store the credit that puts the overstepped player of the just reopened ``game`` back in the control.

    The caller holds the row lock and has set the game ongoing.
    """
    rows = game_rows(game=game)
    time = game_time(game, rows, today)
    colour, move, days, seconds, control = overstep_credit(game, time)
    text = record_text("credit_reopen", amount=amount_text(days, seconds), player=colour, control=control,
                       note=note)
    return events_store(game, rows, [credit_row(by, colour, move, days, seconds, text)], today,
                        cause=record_text("cause_credit", player=colour))

