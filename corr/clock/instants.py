"""The instant counts' own pieces: every dated fact checked to be an instant, and the days that do not
count measured by the second (issue 22).

Under ``whole_days`` and ``exact`` (:mod:`corr.clock.counts`) a leave, a holiday or a weekend day is
a calendar date of the game's ``time_zone``: its 24 hours (23 or 25 across a change of clock) do not
count, and a move that starts or ends inside one has only the rest of that day excluded. Under
``whole_days`` the move's whole days are then ``floor((duration - excluded) / 24 h)``; under
``exact`` the excluded seconds come off the move's seconds.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from .calendar import ExcludedReason, Exclusions, MoveOnLeave
from .counts import DAY_SECONDS, Count, local_date, start_of
from .errors import EventError, clock_error, event_error
from .events import Game, Move, Notice

INSTANT_MIN = datetime.min.replace(tzinfo=UTC)
"""Before every instant: what a player has dispatched before their first dispatch."""

__all__ = ["INSTANT_MIN", "InstantExclusions", "check_instants", "instant_error", "start_of"]

_AT = {"received_on": "received_at", "sent_on": "sent_at"}


def check_instants(game: Game, as_of: date) -> None:
    """Every dated fact of ``game`` and ``as_of`` are instants, as its count needs.

    :raises ClockError: for ``official_start`` or ``as_of`` given as a date by a Python caller (the
        game file turns them into instants itself).
    :raises EventError: naming the first event with a date where an instant is needed, and its field.
    """
    count = game.ruleset.count.value
    if not isinstance(game.official_start, datetime):
        raise clock_error("instant_needed", field="official_start", count=count)
    if not isinstance(as_of, datetime):
        raise clock_error("instant_needed", field="as_of", count=count)
    for index, event in enumerate(game.events):
        if isinstance(event, (Move, Notice)):
            for key, value in (("received_on", event.received_on), ("sent_on", event.sent_on)):
                if value is not None and not isinstance(value, datetime):
                    raise event_error(index, event.type, "event_date_not_instant", field=_AT[key], key=key,
                                      day=value, count=count, at=_AT[key])


def instant_error(error: EventError) -> EventError:
    """``error`` naming the instant fields (``received_at``, ``sent_at``) the game file gave."""
    detail, field = error.detail, error.field or ""
    for date_key, instant_key in _AT.items():
        detail = detail.replace(date_key, instant_key)
    leaf = field.rsplit(".", 1)[-1]
    return EventError(error.index, error.kind, detail, field=_AT.get(leaf, leaf), code=error.code,
                      params=error.params)


class InstantExclusions(Exclusions):
    """One player's excluded dates, measured on instants in the game's zone (internal, mutable as its base)."""

    __slots__ = ("time_zone", "count")

    def __init__(self, leave, holidays, weekend_days, option: MoveOnLeave, time_zone: str, count: Count) -> None:
        super().__init__(leave, holidays, weekend_days, option)
        self.time_zone = time_zone
        self.count = count

    @classmethod
    def of_instants(cls, leave, ruleset, time_zone: str, count: Count) -> "InstantExclusions | None":
        """The exclusions of a player with ``leave`` under ``ruleset``; None when no day is excluded."""
        if not leave and not ruleset.holidays and not ruleset.weekend_days:
            return None
        return cls(leave, ruleset.holidays, ruleset.weekend_days, ruleset.move_on_leave, time_zone, count)

    def _day(self, day: date) -> date:
        return local_date(day, self.time_zone) if isinstance(day, datetime) else day

    def excluded_seconds(self, after: datetime, through: datetime) -> tuple[int, int, int]:
        """Seconds of ``[after, through)`` on excluded dates of the game's zone: (leave, holiday, weekend)."""
        out = [0, 0, 0]
        if through <= after:
            return 0, 0, 0
        day = local_date(after, self.time_zone)
        last = local_date(through, self.time_zone)
        while day <= last:
            why = Exclusions.reason(self, day)
            if why is not None:
                begin = max(after, start_of(day, self.time_zone))
                end = min(through, start_of(day + timedelta(days=1), self.time_zone))
                if end > begin:
                    delta = end - begin
                    out[_SLOT[why]] += delta.days * DAY_SECONDS + delta.seconds
            day += timedelta(days=1)
        return out[0], out[1], out[2]

    def counts(self, after: date, through: date) -> tuple[int, ...]:
        """What the excluded dates take off a move from ``after`` to ``through``, by reason, in the
        count's unit: seconds (exact), or the whole days (whole_days) that the excluded seconds take off
        the move's whole days, ``floor(d / 24 h) - floor((d - excluded) / 24 h)``."""
        assert isinstance(after, datetime) and isinstance(through, datetime)
        leave, holiday, weekend = self.excluded_seconds(after, through)
        if self.count is Count.EXACT:
            return leave, holiday, weekend
        delta = through - after
        seconds = delta.days * DAY_SECONDS + delta.seconds
        total = seconds // DAY_SECONDS - (seconds - leave - holiday - weekend) // DAY_SECONDS
        # Said by reason for the ledger's note: each reason's whole days, in order, within the total.
        by_reason: list[int] = []
        for amount in (leave, holiday, weekend):
            days = min(total - sum(by_reason), -(-amount // DAY_SECONDS))
            by_reason.append(days)
        by_reason[-1] += total - sum(by_reason)
        return by_reason[0], by_reason[1], by_reason[2]

    def reason(self, day: date) -> ExcludedReason | None:
        return Exclusions.reason(self, self._day(day))

    def leave_on(self, day: date) -> tuple[int, int] | None:
        return Exclusions.leave_on(self, self._day(day))

    def end_leave(self, day: date) -> None:
        Exclusions.end_leave(self, self._day(day))

    def flag_point(self, first: datetime, seconds: int) -> datetime:
        """The instant at which ``seconds`` counted seconds have run from ``first``, excluded dates skipped.

        Where the count is reached at the very end of a counted day and excluded dates follow, those
        cost nothing: the flag falls when counting starts again. Where the ruleset refuses moves on
        leave days, the flag falls at the start of the player's leave instead: no move can be sent on it.
        """
        left = seconds
        day = local_date(first, self.time_zone)
        refused = self.option is MoveOnLeave.REFUSED
        while True:
            begin = max(first, start_of(day, self.time_zone))
            end = start_of(day + timedelta(days=1), self.time_zone)
            why = Exclusions.reason(self, day)
            if why is None:
                delta = end - begin
                length = delta.days * DAY_SECONDS + delta.seconds
                if left < length:
                    return begin + timedelta(seconds=left)
                left -= length
            elif refused and why is ExcludedReason.LEAVE and left == 0:
                return begin
            day += timedelta(days=1)


_SLOT = {ExcludedReason.LEAVE: 0, ExcludedReason.HOLIDAY: 1, ExcludedReason.WEEKEND: 2}
