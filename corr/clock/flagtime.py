"""When a flag fell: the instant of an overstep, from the charges and the move during which it happened.

An :class:`~corr.clock.verdicts.Overstep` says where the time ran out (a control and its last move, or
the move itself, and what it had); this module says when. The move during which the flag fell is
found from the per-move charges, and the instant is that move's first counted moment plus the amount
it could still afford, plus the one unit that took it over: under ``dates`` 00:00 of the first day
over, under ``whole_days`` the end of its last affordable 24-hour period, under ``exact`` the second
its time reached zero. Days charged to the move by the arbiter (penalties, delays, notices) are taken
as charged at the move's start. Only an overstepped player's events are walked again.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from .calendar import Exclusions
from .charging import PlayerCharges, span
from .control import affordable_days
from .counts import DAY_SECONDS, Count, start_of
from .events import Credit, Delay, Game, Gift, Move, Notice, Penalty
from .instants import InstantExclusions
from .personal import PersonalExclusions
from .verdicts import Overstep


def move_points(game: Game, charges: PlayerCharges) -> tuple[dict[int, date], dict[int, int]]:
    """(the first counted moment of each of the player's dated moves, the amounts charged to each move
    number that are not that move's own thinking time: penalties, delays and notices, less credits)."""
    rules = game.ruleset
    control = rules.time_control
    exact = charges.count is Count.EXACT
    # the rules' days in the count's unit, as charging: a day of the control (DGS's is 15 counted hours)
    scale = (DAY_SECONDS if control is None else control.day_seconds) if exact else 1
    starts: dict[int, date] = {}
    extra: dict[int, int] = {}
    penalties = 0
    player = charges.player
    made = 0  # the player's moves made so far: a gift goes to the move in hand, made + 1
    for event in game.events:
        if event.player != player:
            continue
        if isinstance(event, Move):
            if not event.void and (event.variant is not None or event.sent_on is not None):
                made = event.number
            if event.variant is None:
                received = event.received_on
                starts[event.number] = charges.start if received is None else max(received, charges.start)
        elif isinstance(event, Penalty):
            days = rules.first_penalty_days if penalties == 0 else rules.repeat_penalty_days
            penalties += 1
            extra[event.move] = extra.get(event.move, 0) + days * scale
        elif isinstance(event, Delay):
            extra[event.move] = extra.get(event.move, 0) + event.days * scale
        elif isinstance(event, Gift):  # time the opponent gave: taken off the move in hand, as charging does
            extra[made + 1] = extra.get(made + 1, 0) - event.days * scale
        elif isinstance(event, Credit):  # time given back: taken off as charging takes it off
            extra[event.move] = extra.get(event.move, 0) - event.days * scale - (event.seconds if scale != 1 else 0)
        elif isinstance(event, Notice):  # 50.4.7: its counted days less the grace days, as charging counts them
            counted_from = max(event.received_on, charges.start)
            raw = span(counted_from, event.sent_on, scale != 1)
            if charges.exclusions is not None and raw > 0:
                raw -= sum(charges.exclusions.counts(counted_from, event.sent_on))
            extra[event.move] = extra.get(event.move, 0) + max(0, raw - rules.grace_days * scale)
    return starts, extra


def fallen_at(game: Game, charges: PlayerCharges, over: Overstep, *, whole_control: tuple[int, int, bool] | None,
              limit: int | None, per_move: tuple[int, ...]) -> datetime | None:
    """The instant ``over`` fell, or None where no dated move carries it (a move not yet received).

    :param whole_control: for a control of N moves exceeded as a whole (50.4.3, plain periods), the
        control's first move, its last move and whether its time accumulates; None where ``over``
        names the move itself.
    :param limit: the per-move limit (``max_per_move``), in the count's unit.
    :param per_move: the amounts charged to each move number (index 0 is move 1).
    """
    count = charges.count
    zero = 1 if count is Count.EXACT else 0
    starts, extra = move_points(game, charges)
    number, budget = over.through_move, over.allowed_days
    if over.reason == "max_per_move" and limit is not None:
        # The limit bounds the move's own time, undoubled, whatever was charged beside it.
        start = starts.get(number)
        return None if start is None else _point(start, limit - zero + 1, count, charges.exclusions, game.time_zone)
    else:
        if whole_control is not None:
            first, last, cumulative = whole_control
            used = sum(per_move[:first - 1]) if cumulative else 0
            for n in range(first, last + 1):
                amount = per_move[n - 1] if n <= len(per_move) else 0
                if used + amount + zero > budget:
                    number, budget = n, budget - used
                    break
                used += amount
        extra_here = extra.get(number, 0)
    start = starts.get(number)
    if start is None:
        return None
    left = budget - extra_here - zero
    if left < 0:
        last_ok = -1  # the arbiter's days alone took it over: at the move's first counted moment
    else:
        last_ok = affordable_days(0, left, charges.double_after)
    return _point(start, last_ok + 1, count, charges.exclusions, game.time_zone)


def _point(start: date, amount: int, count: Count, exclusions: Exclusions | None, time_zone: str) -> datetime:
    """``amount`` counted units after ``start``: the first instant over."""
    if count is Count.DATES:
        if amount <= 0:
            return start_of(start, time_zone)
        day = start + timedelta(days=amount - 1)  # the last date in time ...
        if exclusions is not None:
            day = exclusions.date_after(start, amount - 1)
        return start_of(day + timedelta(days=1), time_zone)  # ... and 00:00 of the next, the first over
    seconds = max(0, amount) * count.unit_seconds
    assert isinstance(start, datetime)
    # A player's own night, weekend, vacation or pause (issue 40) is skipped as the tournament's dates are.
    if isinstance(exclusions, (InstantExclusions, PersonalExclusions)):
        return exclusions.flag_point(start, seconds)
    return start + timedelta(seconds=seconds)
