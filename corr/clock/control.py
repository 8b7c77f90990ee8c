"""Controls: folding a player's per-move charges into remaining days, deadline and overstep.

The second layer of the calculator. A control sees only :class:`PlayerCharges`
(days charged to each move number, the number the next time goes to, and the
pending move), never the events, so every system of time control sits beside
the others behind :class:`TimeControl`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from .calendar import Exclusions, MoveOnLeave
from .charging import PlayerCharges, double_time
from .counts import DAY_SECONDS, Count
from .instants import InstantExclusions
from .personal import PersonalExclusions
from .systems.base import MoveTimes
from .verdicts import ControlState, ControlWindow, Overstep

__all__ = ["ControlState", "ControlWindow", "Overstep", "TimeControl", "CumulativeMovesControl", "SystemControl",
           "deadline_of", "affordable_days"]


class TimeControl(Protocol):
    """A time-control system: a pure fold of one player's charges."""

    def fold(self, charges: PlayerCharges) -> ControlState:  # pragma: no cover - protocol
        ...


@dataclass(init=False, unsafe_hash=True, slots=True)
class CumulativeMovesControl:
    """50.4.3: ``days_per_control`` days for every ``moves_per_control`` moves, with accumulation.

    The days charged to moves 1..k·N must not exceed k·D for any k. The current
    control is the one holding the move the next time is charged to (q):
    c = ceil(q / N). Remaining days are c·D minus everything charged through
    move c·N, running days of a pending move included.
    """

    moves_per_control: int
    days_per_control: int

    def __init__(self, moves_per_control: int, days_per_control: int) -> None:
        self.moves_per_control = moves_per_control
        self.days_per_control = days_per_control

    def fold(self, charges: PlayerCharges) -> ControlState:
        n, d = self.moves_per_control, self.days_per_control
        q = charges.next_charge_number
        current = (q + n - 1) // n
        per_move = charges.charges
        overstepped = None
        cumulative = 0
        # Walk control by control: prefix sums at every k·N boundary, k <= c.
        for k in range(1, current + 1):
            cumulative += sum(per_move[(k - 1) * n:k * n])
            if overstepped is None and cumulative > k * d:
                overstepped = Overstep(control=k, through_move=k * n, allowed_days=k * d, used_days=cumulative)
        allowed = current * d
        remaining = allowed - cumulative
        window = ControlWindow(number=current, through_move=current * n, allowed_days=allowed,
                               remaining_days=remaining)
        deadline = None
        pending = charges.pending
        if pending is not None:
            # The running days are already in `cumulative`; the move may run for
            # what is left plus what it has used so far, counted from its first day.
            deadline = deadline_of(pending.counted_from, remaining + pending.running_days,
                                   charges.exclusions)
        return ControlState(window=window, overstepped=overstepped, deadline=deadline,
                            next_move_seconds=max(0, remaining) * DAY_SECONDS)


def deadline_of(counted_from: date, last_day: int, exclusions: "Exclusions | None" = None) -> date | None:
    """The date a pending move may be sent on at the latest: ``last_day`` counted days after its first day.

    With ``exclusions`` the days that do not count are skipped, and the excluded dates right after
    the last counted one are added (sending on them costs nothing more), except the player's own
    leave days when the ruleset refuses moves on them.

    None when ``last_day`` is negative: the days charged before the move's own ones already exceed
    the control (penalties, or a flag fallen on an earlier move), so no day of it is in time. A date
    before the move's first day would not be a deadline: sending on it still costs those days.
    """
    if last_day < 0:
        return None
    if exclusions is not None:
        return exclusions.date_after(counted_from, last_day,
                                     stop_at_leave=exclusions.option is MoveOnLeave.REFUSED)
    return counted_from + timedelta(days=last_day)


def affordable_days(running: int, left: int, double_after: int | None) -> int:
    """How many more days a move that has run ``running`` days can run on ``left`` charged days.

    Without double time that is ``left``. With it, days up to ``double_after`` cost one and every
    later day two (ICCF), so the move may run to the last day whose charge is within what it has
    been charged plus ``left``. Negative ``left`` (the flag has fallen) gives a negative answer:
    the deadline lies in the past.
    """
    if double_after is None:
        return left
    budget = double_time(running, double_after) + left  # what the move's own days may cost in all
    last = budget if budget <= double_after else (budget + double_after) // 2
    return last - running


@dataclass(init=False, unsafe_hash=True, slots=True)
class SystemControl:
    """A ``time_control`` system (see :mod:`corr.clock.systems`) with its options, as a control."""

    time_control: Any
    """A :class:`corr.clock.systems.TimeControl` (typed loosely: the systems import this module, and the
    compiled build reads a dataclass's annotations when the module loads)."""

    def __init__(self, time_control: Any) -> None:
        self.time_control = time_control

    def fold(self, charges: PlayerCharges) -> ControlState:
        system = self.time_control.system
        per_move: tuple[int, ...] | list[int] = charges.charges
        if system.by_move:
            # A per-move mechanism counts moves as they were made: an accepted variant move is a
            # completed move of its own (made when the variant was accepted), and the days 50.4.8
            # charges to it are counted on the move they were spent on.
            q = charges.made + 1
            if charges.shifted:
                moved = list(per_move)
                for charged_to, number, days in charges.shifted:
                    moved[charged_to - 1] -= days
                    if number > len(moved):
                        moved.extend([0] * (number - len(moved)))
                    moved[number - 1] += days
                per_move = moved
        else:
            q = charges.next_charge_number
        gifts = charges.gifts if system.by_move and getattr(system, "keeps_gifts_as_main", False) else ()
        if gifts:
            # Time given is main time added at the start of the move in hand (DGS GameAddTime::add_time:
            # "{opp}_Maintime += add_hours"), not a negative charge: the charge it took off is put back.
            moved = list(per_move)
            for number, amount, _reset in gifts:
                if number > len(moved):
                    moved.extend([0] * (number - len(moved)))
                moved[number - 1] += amount
            per_move = moved
        completed = tuple(per_move[:q - 1]) + (0,) * max(0, q - 1 - len(per_move))
        current = per_move[q - 1] if q <= len(per_move) else 0
        count = charges.count
        zero = 1 if count is Count.EXACT else 0  # exact: the flag falls when the time left reaches 0
        state = system.state(MoveTimes(completed=completed, current=current, number=q, later=tuple(per_move[q:]),
                                       at_zero=zero, gifts=gifts))
        overstepped = state.overstepped
        rival: Overstep | None = None
        limit = self.time_control.max_per_move
        if limit is not None:
            # ICCF silence / FICGS: one move longer than the limit oversteps, whatever the clock says.
            for number, raw, _event in charges.move_days:
                if raw + zero > limit and number not in charges.unlimited_moves:  # 3b: a notice lifts it
                    long_move = Overstep(control=number, through_move=number, allowed_days=limit,
                                         used_days=limit + 1, reason="max_per_move")
                    # The earlier flag stands: an earlier move, or on the same move the smaller allowance.
                    # (The account compares the instants, where it knows them: ``rival``.)
                    if (overstepped is None or long_move.through_move < overstepped.through_move
                            or (long_move.through_move == overstepped.through_move
                                and limit < overstepped.allowed_days and _names_the_move(system, overstepped))):
                        rival = overstepped
                        overstepped = long_move
                    else:
                        rival = long_move
                    break
        deadline = None
        flag_at = None
        pending = charges.pending
        double = charges.double_after
        if pending is not None:
            # The last amount the move may be charged in time: what it has run plus what it can afford
            # (one unit less where the flag falls at zero), and never past the per-move limit.
            more = affordable_days(pending.running_days, state.current_left - zero, double)
            last_day = pending.running_days + more
            if limit is not None and pending.number not in charges.unlimited_moves:
                last_day = min(last_day, limit - zero)
            if count is Count.DATES:
                deadline = deadline_of(pending.counted_from, last_day, charges.exclusions)
            elif last_day >= 0:
                # The flag falls when the move's counted time passes its last amount: one whole day
                # more under whole_days (ICCF 2.4.2), one second more under exact.
                first = pending.counted_from
                assert isinstance(first, datetime)  # charging checked that every dated fact is an instant
                flag_at = flag_point(first, (last_day + 1) * count.unit_seconds, charges.exclusions)
        fresh = affordable_days(0, state.current_left - zero, double)
        if limit is not None:
            fresh = min(fresh, limit - zero)
        # A fresh move's time: its last amount, plus the unit the instant counts let it run into.
        next_move = 0 if fresh < 0 else (fresh + (0 if count is Count.DATES else 1)) * count.unit_seconds
        clock = {"system": system.name, **state.clock}
        if count is Count.EXACT:
            clock = self.time_control.unit.name_state(clock)
        return ControlState(window=state.window, overstepped=overstepped, deadline=deadline, clock=clock,
                            flag_at=flag_at, next_move_seconds=next_move, rival=rival)


def _names_the_move(system: Any, over: Overstep) -> bool:
    """True when ``over`` names the move during which the time ran out (every per-move mechanism, and the
    rest of the game), not a stage of N moves exceeded as a whole."""
    return system.by_move or not hasattr(system, "stage_of") or system.stage_of(over.through_move)[2] is None


def flag_point(first: datetime, seconds: int, exclusions: Exclusions | None) -> datetime:
    """The instant ``seconds`` counted seconds after ``first``, the excluded dates skipped."""
    # A player's own night, weekend, vacation or pause (issue 40) is skipped as the tournament's dates are.
    if isinstance(exclusions, (InstantExclusions, PersonalExclusions)):
        return exclusions.flag_point(first, seconds)
    return first + timedelta(seconds=seconds)
