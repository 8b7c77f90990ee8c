"""Which deadline a page shows for a pending move, and in whose time zone (issue 22, "Pages").

A server game counted by the instant (``whole_days``, ``exact``: ``counts_instants``) has a deadline
that is a moment, the account's ``flag_at``: the page says it as a time in the reader's zone and counts
down to it. Every other game keeps its deadline as a date, the last day the move may be sent (article
50.4.4), worded as before. The words are ``describe.deadline_text``'s; this module only picks the facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from corr.games.clockstate import counts_instants

from .describe import countdown_patterns, countdown_text, deadline_text


def reader_zone(user, tournament) -> str:
    """The IANA zone ``user`` reads instants in: their own ``time_zone`` if set and known, else the tournament's.

    Read with ``getattr``: an anonymous reader (a calendar feed's token) has no zone, and a name stored
    before a zone left the tz database would raise on every page; both fall back to the tournament's.
    """
    zone = getattr(user, "time_zone", "") or ""
    if zone:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            zone = ""
    return zone or tournament.time_zone


@dataclass(frozen=True, slots=True)
class ShownDeadline:
    """A pending move's deadline as a page shows it.

    ``at``: the flag instant (aware, UTC) of an instant count, else None and ``day`` is the last date.
    ``remaining_seconds``: the time left as the page was computed (0 once over), the countdown's start.
    """

    day: date | None
    at: datetime | None
    zone: str
    remaining_seconds: int

    @property
    def text(self) -> str:
        return deadline_text(day=self.day, at=self.at, zone=self.zone)

    @property
    def iso(self) -> str:
        """``at`` as the ``datetime`` attribute of ``<time>`` (RFC 3339 in UTC, to the second); "" for a date."""
        return "" if self.at is None else self.at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    @property
    def countdown(self) -> str:
        return countdown_text(self.remaining_seconds)

    @property
    def words(self) -> dict[str, str]:
        """The countdown script's patterns (data- attributes of the element: no words in the script)."""
        return countdown_patterns()


def shown_deadline(account, *, game, user) -> ShownDeadline | None:
    """The deadline of ``account`` (a calculator ``Account`` of ``game``) for ``user``; None if it has none.

    The time left is the account's own ``remaining_seconds``: under an instant count the clock is
    computed as of the second the page is read (``clock_as_of``), so it is ``flag_at`` minus that second.
    """
    if account.deadline is None:
        return None
    if counts_instants(game) and account.flag_at is not None:
        return ShownDeadline(day=account.deadline, at=account.flag_at, zone=reader_zone(user, game.tournament),
                             remaining_seconds=max(0, account.remaining_seconds))
    return ShownDeadline(day=account.deadline, at=None, zone=game.tournament.time_zone, remaining_seconds=0)


def stored_deadline(clock, *, user, now: datetime) -> ShownDeadline | None:
    """The same from a stored ``PlayerClock`` row (the tournament page's list): its ``flag_at`` if it has one.

    The row's ``flag_at`` is set only for server games under an instant count (and cleared once the
    overstep is recorded), so a row with it is an instant deadline; a row without it shows its date.
    """
    game = clock.game
    flag_at = getattr(clock, "flag_at", None)
    if flag_at is not None and counts_instants(game):
        return ShownDeadline(day=clock.deadline, at=flag_at, zone=reader_zone(user, game.tournament),
                             remaining_seconds=seconds_until(flag_at, now))
    if clock.deadline is None:
        return None
    return ShownDeadline(day=clock.deadline, at=None, zone=game.tournament.time_zone, remaining_seconds=0)


def seconds_until(at: datetime, now: datetime) -> int:
    """Whole seconds from ``now`` to ``at``, 0 when ``at`` has passed (cut, as the flag falls at ``at`` itself)."""
    return max(0, int((at - now).total_seconds()))
