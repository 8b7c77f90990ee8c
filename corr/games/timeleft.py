"""How much time a player has left, as the game page says it (STYLE 17, issue 37): the one answer.

The game page's "days left", "My games" and XFCC's ``daysPlayer``/``hoursPlayer``/``minutesPlayer``
read :func:`game_time_left`. The days are the control's (``account.control.remaining_days``): the
days of the current control not yet used, the count the rules speak of (50.4.3; ICCF 2.4.2 counts
whole days). They are not the time to the flag: under ICCF's doubling (``double_after``) a move
past 20 days costs two days a day, so with 47 days left in the control after 3 days on a move, its
flag falls in 17 + 30 / 2 = 32 days; the page shows that instant as the deadline, beside the days.

Only an ``exact`` count measures parts of a day, so only there are hours and minutes said: the part
of a day under way, to the flag. Under ``dates`` and ``whole_days`` a part of a day is no time the
rules count: hours and minutes are 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from corr.clock.counts import DAY_SECONDS

from .clockstate import GameTime, counts_instants, tournament_count


@dataclass(frozen=True, slots=True)
class TimeLeft:
    """A player's time left: ``days`` the control's days left (negative once it is over, as the page
    says it); ``hours`` (0-23) and ``minutes`` (0-59) the part of a day beyond them, 0 but under ``exact``."""

    days: int
    hours: int = 0
    minutes: int = 0

    @property
    def over(self) -> bool:
        """The control is overstepped: no time is left."""
        return self.days < 0


def account_time_left(account, *, exact: bool) -> TimeLeft:
    """The time left of one calculator ``Account`` (``exact``: the game counts exact seconds)."""
    days = account.control.remaining_days
    seconds = account.remaining_seconds
    # The flag's seconds say the part of a day only when they agree with the control's days: a rule that
    # shortens the move under way (a doubling, a cap per move) puts the flag before the control's end, and
    # then the page's days stand alone rather than be mixed with another count's hours.
    if exact and days >= 0 and seconds // DAY_SECONDS == days:
        rest = seconds % DAY_SECONDS
        return TimeLeft(days, rest // 3600, rest % 3600 // 60)
    return TimeLeft(days)


def game_time_left(*, game, time: GameTime) -> dict[str, TimeLeft]:
    """Each player's ``TimeLeft`` in ``game`` from its computed ``time`` (``game_time``), by colour."""
    exact = counts_instants(game) and tournament_count(game.tournament) == "exact"
    return {colour: account_time_left(account, exact=exact) for colour, account in time.clock.accounts.items()}
