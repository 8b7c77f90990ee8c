"""Time given by the opponent, within each server's bound (issue 40).

A :class:`~corr.clock.events.Gift` is taken off the receiver's move in hand and charged to no one
(:mod:`corr.clock.charging`), so the receiver's flag moves by exactly its days. The ruleset's ``gifts``
(:class:`~corr.clock.allowances.GiftRule`) bounds it:

- lichess (``giveTime``, ``moretimeable``, lila ``modules/game/.../CorrespondenceClock.scala``): a "+" gives a
  day, and only while the receiver's time left is under the increment (the days per move) less an hour;
- Dragon Go Server (``GameAddTime::add_time``, ``MAX_ADD_DAYS`` 14): up to 14 days at once.

The days' amount is checked with the event (charging); the bound on the receiver's clock needs that clock at
the gift's instant, which :func:`check_gift` computes from the events before it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Callable

from .counts import Count, duration_text
from .errors import event_error, ruleset_error
from .events import Game, Gift, Move

HOUR = 3600


def check_gift(game: Game, index: int, compute_at: Callable[[Game, date], dict[str, int]]) -> None:
    """Event ``index`` of ``game`` (a gift) is within the ruleset's bound on the receiver's clock.

    ``compute_at(game, at)`` gives each player's time left, in seconds, as of ``at``.
    :raises EventError: naming the gift, the time left and the bound (lichess ``moretimeable``).
    """
    gift = game.events[index]
    assert isinstance(gift, Gift)
    rule = game.ruleset.gifts
    if rule is None or rule.below_allowance_less_hours is None:
        return
    control = game.ruleset.time_control
    allowance = getattr(getattr(control, "system", None), "time", None)
    if control is None or control.count is not Count.EXACT or not isinstance(allowance, int):
        raise ruleset_error("gift_bound_needs_per_move", field="ruleset.gifts.below_allowance_less_hours")
    left = compute_at(replace(game, events=_before(game, index)), gift.at)[gift.player]
    bound = allowance - rule.below_allowance_less_hours * HOUR
    if left >= bound:
        raise event_error(index, "gift", "gift_not_moretimeable", field="at", player=gift.player,
                          left=duration_text(left), bound=duration_text(bound), allowance=duration_text(allowance),
                          hours=rule.below_allowance_less_hours)


def _before(game: Game, index: int) -> tuple:
    """The events before gift ``index``, as they stood at its instant: the receiver's move in hand included.

    A stored game (``corr.clock.assembly``) keeps its events in the order they were entered: a gift given during
    the receiver's move comes before that move's event, which is sent later (or still pending, added last). The
    move in hand at the gift's instant is then the receiver's next move received by then: it is taken into
    the prefix still pending, so that the bound reads the time left on it (lichess's ``moretimeable``)."""
    gift = game.events[index]
    assert isinstance(gift, Gift)
    prefix = game.events[:index]
    following = next((e for e in game.events[index + 1:] if isinstance(e, Move) and e.variant is None), None)
    if (following is not None and following.player == gift.player
            and (following.received_on is None or following.received_on <= gift.at)):
        prefix += (following._replace(sent_on=None, void=False),)
    return prefix


def check_gifts(game: Game, compute_at: Callable[[Game, date], dict[str, int]]) -> None:
    """Every gift of ``game`` within its bound (:func:`check_gift`); nothing to do without a bound."""
    rule = game.ruleset.gifts
    if rule is None or rule.below_allowance_less_hours is None:
        return
    for index, event in enumerate(game.events):
        if isinstance(event, Gift):
            check_gift(game, index, compute_at)
