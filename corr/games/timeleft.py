"""How much time a player has left: the one answer (STYLE 17, issues 37 and 39).

The answer is the time the move may still take before its flag: for the player on move, until the
account's ``flag_at`` (the deadline the page counts down to); for the other, what their next move may
take. It is read by the game page, My games, the tournament page, the calendar feed, the e-mails,
XFCC's ``daysPlayer``/``hoursPlayer``/``minutesPlayer`` and the API's ``time_left``, and worded once
(``corr.web.describe.time_left_text`` and ``time_left_why``).

Beside it stand the control's days (``account.control.remaining_days``: the days of the current control
not yet used, the count the rules speak of, 50.4.3). The two differ, and then the pages say why
(``why``):

- ``double``: under ICCF's double time (``double_after``) a move beyond 20 days costs two days a day:
  49 control days after 3 days on a move leave 17 + 32 / 2 = 33 days to the flag;
- ``per_move``: a move may take at most ``max_per_move`` days, or the system gives a move less than the
  control's days (days per move, byo-yomi);
- ``not_counted``: days that are not counted (leave, weekends, holidays) put the deadline further away
  than the control's days.

A count of instants (``whole_days``, ``exact``) says hours and minutes to the flag; under ``dates``
(50.4.4) a part of a day is no time the rules count, and the answer is whole days to the deadline.
Once the control is over the answer is the control's (negative) days, as the rules count the overstep.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from corr.clock.counts import DAY_SECONDS

from .clockstate import GameTime, counts_instants


class TimeLeftWhy(StrEnum):
    """Why the time left differs from the control's days (``TimeLeft.why``)."""

    DOUBLE = "double"
    PER_MOVE = "per_move"
    NOT_COUNTED = "not_counted"


@dataclass(frozen=True, slots=True)
class TimeLeft:
    """A player's time left: ``days``, ``hours`` (0-23) and ``minutes`` (0-59) before the flag (hours and
    minutes 0 under ``dates``); ``seconds`` the same in seconds; ``control_days`` the control's days left
    (negative once over); ``instants`` whether the count measures parts of a day; ``why`` why the two
    differ (None when they agree); ``double_after`` the days of a move after which they count double."""

    days: int
    hours: int = 0
    minutes: int = 0
    seconds: int = 0
    control_days: int = 0
    instants: bool = False
    why: TimeLeftWhy | None = None
    double_after: int | None = None

    @property
    def over(self) -> bool:
        """The control is overstepped: no time is left."""
        return self.control_days < 0

    def as_json(self) -> dict:
        """The API's ``time_left`` of one player (``GET /api/games/{id}/``)."""
        return {"days": self.days, "hours": self.hours, "minutes": self.minutes, "seconds": self.seconds,
                "control_days": self.control_days, "why": None if self.why is None else self.why.value}


def time_left(*, control_days: int, remaining_seconds: int, instants: bool, time_control=None) -> TimeLeft:
    """The time left of one account from its control's days left and its ``remaining_seconds`` (to the flag
    for the player on move), ``instants`` whether the count measures parts of a day, ``time_control`` the
    ruleset's (``corr.clock.systems.TimeControl``; None under 50.4) for why the two differ."""
    if control_days < 0:
        return TimeLeft(control_days, control_days=control_days, instants=instants)
    seconds = max(0, remaining_seconds)
    days, rest = divmod(seconds, DAY_SECONDS)
    hours, minutes = (rest // 3600, rest % 3600 // 60) if instants else (0, 0)
    whole = days + (1 if instants and rest else 0)  # the flag's days, a day under way counted whole
    why = None
    if whole < control_days:
        double = _days(time_control, "double_after")
        why = TimeLeftWhy.DOUBLE if double is not None and control_days > double else TimeLeftWhy.PER_MOVE
    elif days > control_days:
        why = TimeLeftWhy.NOT_COUNTED
    return TimeLeft(days, hours, minutes, seconds if instants else days * DAY_SECONDS, control_days, instants,
                    why, _days(time_control, "double_after"))


def _days(time_control, name: str) -> int | None:
    """An option of ``time_control`` in days (under ``exact`` it is stored in seconds)."""
    value = getattr(time_control, name, None)
    if value is None:
        return None
    return value // DAY_SECONDS if getattr(time_control.unit, "value", "") == "days_as_seconds" else value


def account_time_left(account, *, instants: bool, time_control=None) -> TimeLeft:
    """The time left of one calculator ``Account``."""
    return time_left(control_days=account.control.remaining_days, remaining_seconds=account.remaining_seconds,
                     instants=instants, time_control=time_control)


def json_time_left(account: dict, *, instants: bool, time_control=None) -> TimeLeft:
    """The time left of one account as the clock's JSON holds it (``Account.as_json``)."""
    return time_left(control_days=account["control"]["remaining_days"],
                     remaining_seconds=account.get("remaining_seconds") or 0, instants=instants,
                     time_control=time_control)


def game_time_left(*, game, time: GameTime) -> dict[str, TimeLeft]:
    """Each player's ``TimeLeft`` in ``game`` from its computed ``time`` (``game_time``), by colour."""
    instants, control = counts_instants(game), game.tournament.ruleset.time_control
    return {colour: account_time_left(account, instants=instants, time_control=control)
            for colour, account in time.clock.accounts.items()}


def view_time_left(*, game, players: dict) -> dict[str, TimeLeft]:
    """Each player's ``TimeLeft`` from a clock view's ``players`` (the cached JSON), by colour."""
    instants, control = counts_instants(game), game.tournament.ruleset.time_control
    return {colour: json_time_left(account, instants=instants, time_control=control)
            for colour, account in players.items()}
