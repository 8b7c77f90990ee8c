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


def shown_deadline(turn, *, game, user, remaining_seconds: int = 0) -> ShownDeadline | None:
    """The deadline of a player's ``turn`` (``corr.games.turns.Turn``) for ``user``; None if they have none.

    Only a player on move has one: in time (``ON_MOVE``), or the one that passed (``OVER_THE_CONTROL``;
    none when the control was exceeded before the move began). A player whose partner's move is in the
    post, and one waiting, have none, whatever a stored column says. ``remaining_seconds``: the account's
    time left (under an instant count the clock is computed as of the second the page is read, so it is
    ``flag_at`` minus that second), the countdown's start.
    """
    if not turn.on_move or turn.until is None:
        return None
    if isinstance(turn.until, datetime):
        return ShownDeadline(day=turn.until.date(), at=turn.until, zone=reader_zone(user, game.tournament),
                             remaining_seconds=max(0, remaining_seconds))
    return ShownDeadline(day=turn.until, at=None, zone=game.tournament.time_zone, remaining_seconds=0)
