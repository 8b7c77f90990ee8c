"""One player's own clock stops: their calendar (weekend days and a nightly sleeping window in their own
time zone), their vacation and their pauses (issue 40).

The tournament's calendar (:mod:`corr.clock.calendar`) stops both players' clocks on the same dates of
the game's zone, as ICCF and the postal federations do. The servers stop one player's clock only:

- OGS's ``pause_on_weekends`` pauses a player's clock on Saturday and Sunday *in that player's own time
  zone* (a record matches neither UTC weekends nor none);
- Dragon Go Server's clock does not run during each player's night of 9 hours, at the hour the player
  chose in their own zone (DGS FAQ, "the clock is stopped during your sleeping time"), and on their
  weekend when the game has a weekend clock;
- chess.com, OGS and DGS keep per-player vacation, and OGS a number of pauses per game (``pauses_left``).

What one player's calendar, vacation or pause excludes is excluded from that player's counted time only:
the other player's clock is never touched. Under ``whole_days`` and ``exact`` the excluded time is
measured by the second, the sources overlapping counted once under the first of leave, holiday, weekend,
night, vacation, pause; under ``dates`` only weekend days can be personal (a date has no night, and
vacation and pauses are instants: they need a count of instants).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import Enum
from typing import Any

from .calendar import WEEKDAYS, Exclusions, MoveOnLeave, read_weekend_days
from .counts import DAY_SECONDS, Count, local_date, parse_instant, start_of, zone
from .errors import ClockError, clock_error

SLOT_LEAVE = 0
SLOT_HOLIDAY = 1
SLOT_WEEKEND = 2
SLOT_NIGHT = 3
SLOT_VACATION = 4
SLOT_PAUSE = 5
SLOTS = 6
"""Reasons for excluded time, in their order of precedence (``calendar.REASONS`` names them)."""


class CalendarZone(str, Enum):
    """Whether a tournament lets players keep their own calendar, and whose zone it is read in."""

    NONE = "none"
    """No personal calendar: a game file that gives one is refused (the default: ICCF, postal play)."""
    OWN_ZONE = "own_zone"
    """Each player's weekend and night are read in the player's own zone (OGS, DGS)."""
    GAME_ZONE = "game_zone"
    """Players may keep a weekend and a night, read in the game's zone: a calendar naming a zone is refused."""


@dataclass(frozen=True, slots=True)
class Night:
    """A nightly sleeping window: ``hours`` from ``start_minute`` (minutes after local midnight)."""

    start_minute: int
    hours: int

    def as_json(self) -> dict[str, Any]:
        return {"from": f"{self.start_minute // 60:02d}:{self.start_minute % 60:02d}", "hours": self.hours}


@dataclass(frozen=True, slots=True)
class PlayerCalendar:
    """A player's own days and hours that do not count for them: ``players.<id>.calendar``."""

    time_zone: str | None = None
    """The player's IANA zone; None reads the calendar in the game's zone."""
    weekend_days: tuple[str, ...] = ()
    night: Night | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.time_zone is not None:
            out["time_zone"] = self.time_zone
        if self.weekend_days:
            out["weekend_days"] = list(self.weekend_days)
        if self.night is not None:
            out["night"] = self.night.as_json()
        return out


@dataclass(frozen=True, slots=True)
class Span:
    """A stretch of time ``[first, last)`` (instants, UTC) when one player's clock was stopped.

    ``automatic``: a vacation that the server started itself when the flag would have fallen (chess.com's
    members). ``by``: for a pause, who asked for it (they spend one of their pauses); None, the player.
    """

    first: datetime
    last: datetime
    automatic: bool = False
    by: str | None = None

    def as_json(self) -> dict[str, Any]:
        from .counts import rfc3339

        out: dict[str, Any] = {"from": rfc3339(self.first), "to": rfc3339(self.last)}
        if self.automatic:
            out["automatic"] = True
        if self.by is not None:
            out["by"] = self.by
        return out


def read_calendar(data: Any, field: str) -> PlayerCalendar | None:
    """``players.<id>.calendar``: ``{"time_zone", "weekend_days", "night": {"from": "HH:MM", "hours"}}``.

    :raises ClockError: naming the field for an unknown key, zone, weekday, a night of 0 or 24 hours or more.
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise clock_error("calendar_not_object", field=field)
    for key in data:
        if key not in ("time_zone", "weekend_days", "night"):
            raise clock_error("calendar_unknown_key", field=f"{field}.{key}", known="night, time_zone, weekend_days")
    time_zone = data.get("time_zone")
    if time_zone is not None:
        try:
            zone(time_zone)
        except ClockError as error:  # the zone's own words, naming the calendar's field
            raise clock_error(error.code, field=f"{field}.time_zone", value=error.params.get("value")) from None
    weekend = read_weekend_days(data.get("weekend_days"), f"{field}.weekend_days")
    night = None
    raw = data.get("night")
    if raw is not None:
        where = f"{field}.night"
        if not isinstance(raw, dict) or set(raw) != {"from", "hours"}:
            raise clock_error("night_not_object", field=where, value=repr(raw))
        start, hours = raw["from"], raw["hours"]
        if (not isinstance(start, str) or len(start) != 5 or start[2] != ":" or not start[:2].isdigit()
                or not start[3:].isdigit() or int(start[:2]) > 23 or int(start[3:]) > 59):
            raise clock_error("night_from", field=f"{where}.from", value=repr(start))
        if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= 23:
            raise clock_error("night_hours", field=f"{where}.hours", value=repr(hours))
        night = Night(int(start[:2]) * 60 + int(start[3:]), hours)
    return PlayerCalendar(time_zone, weekend, night)


def read_spans(data: Any, field: str, *, automatic: bool = False, by: bool = False) -> tuple[Span, ...]:
    """A list of ``{"from": instant, "to": instant}`` (``"automatic"`` / ``"by"`` where allowed), in order.

    :raises ClockError: naming ``field[i]`` and the key for anything malformed, reversed or overlapping.
    """
    if data is None:
        return ()
    if not isinstance(data, list):
        raise clock_error("spans_not_list", field=field)
    allowed = {"from", "to"} | ({"automatic"} if automatic else set()) | ({"by"} if by else set())
    out: list[Span] = []
    for i, item in enumerate(data):
        where = f"{field}[{i}]"
        if not isinstance(item, dict) or not {"from", "to"} <= set(item) or not set(item) <= allowed:
            raise clock_error("span_not_object", field=where, value=repr(item), known=", ".join(sorted(allowed)))
        first, last = parse_instant(item["from"], f"{where}.from"), parse_instant(item["to"], f"{where}.to")
        if last <= first:
            raise clock_error("span_reversed", field=f"{where}.to", where=where)
        if out and first < out[-1].last:
            raise clock_error("span_overlaps", field=f"{where}.from", where=where)
        flag = item.get("automatic", False)
        if flag is not True and flag is not False:
            raise clock_error("not_boolean", field=f"{where}.automatic", value=repr(flag))
        who = item.get("by")
        if who is not None and (not isinstance(who, str) or not who):
            raise clock_error("span_by", field=f"{where}.by", value=repr(who))
        out.append(Span(first, last, flag, who))
    return tuple(out)


class PersonalExclusions(Exclusions):
    """One player's excluded time under an instant count: the tournament's dates (in the game's zone),
    the player's own weekend and night (in their zone), vacation and pauses (internal, mutable: a move may
    end a vacation)."""

    __slots__ = ("time_zone", "count", "own_zone", "own_weekdays", "night", "spans")

    def __init__(self, leave, holidays, weekend_days, option: MoveOnLeave, time_zone: str, count: Count,
                 calendar: PlayerCalendar | None, spans: list[tuple[datetime, datetime, int]]) -> None:
        super().__init__(leave, holidays, weekend_days, option)
        self.time_zone = time_zone
        self.count = count
        self.own_zone = time_zone if calendar is None or calendar.time_zone is None else calendar.time_zone
        self.own_weekdays = frozenset(WEEKDAYS.index(d) for d in (() if calendar is None else calendar.weekend_days))
        self.night = None if calendar is None else calendar.night
        self.spans = spans

    def pieces(self, after: datetime, through: datetime) -> list[tuple[datetime, int, int]]:
        """The boundaries of every excluded stretch meeting ``[after, through)``: (instant, +1/-1, slot)."""
        out: list[tuple[datetime, int, int]] = []
        if self.leave or self.holidays or self.weekdays:  # the tournament's dates and the player's leave
            day, last = local_date(after, self.time_zone), local_date(through, self.time_zone)
            while day <= last:
                why = Exclusions.reason(self, day)
                if why is not None:
                    slot = {"leave": SLOT_LEAVE, "holiday": SLOT_HOLIDAY}.get(why.value, SLOT_WEEKEND)
                    _add(out, start_of(day, self.time_zone), start_of(day + timedelta(days=1), self.time_zone), slot,
                         after, through)
                day += timedelta(days=1)
        if self.own_weekdays or self.night is not None:  # the player's own calendar, in their zone
            own = self.own_zone
            day = local_date(after, own) - timedelta(days=1)  # a night that began the evening before
            last = local_date(through, own)
            night = self.night
            while day <= last:
                if (day.toordinal() - 1) % 7 in self.own_weekdays:
                    _add(out, start_of(day, own), start_of(day + timedelta(days=1), own), SLOT_WEEKEND, after, through)
                if night is not None:
                    begin = _wall(day, night.start_minute, own)
                    _add(out, begin, begin + timedelta(hours=night.hours), SLOT_NIGHT, after, through)
                day += timedelta(days=1)
        for first, last_, slot in self.spans:
            if first < through and last_ > after:
                _add(out, first, last_, slot, after, through)
        out.sort()
        return out

    def excluded_seconds(self, after: datetime, through: datetime) -> tuple[int, ...]:
        """Seconds of ``[after, through)`` excluded for this player, by reason (``SLOTS`` of them)."""
        amounts = [0] * SLOTS
        if through <= after:
            return tuple(amounts)
        active = [0] * SLOTS
        previous = after
        for instant, step, slot in self.pieces(after, through):
            if instant > previous:
                top = next((s for s in range(SLOTS) if active[s]), -1)
                if top >= 0:
                    delta = instant - previous
                    amounts[top] += delta.days * DAY_SECONDS + delta.seconds
                previous = instant
            active[slot] += step
        return tuple(amounts)

    def counts(self, after: date, through: date) -> tuple[int, ...]:
        """What the excluded time takes off a move from ``after`` to ``through``, by reason, in the count's
        unit: seconds (exact), or the whole days it takes off the move's whole days (whole_days)."""
        assert isinstance(after, datetime) and isinstance(through, datetime)
        amounts = self.excluded_seconds(after, through)
        if self.count is Count.EXACT:
            return amounts
        delta = through - after
        seconds = delta.days * DAY_SECONDS + delta.seconds
        total = seconds // DAY_SECONDS - (seconds - sum(amounts)) // DAY_SECONDS
        by_reason: list[int] = []
        for amount in amounts:  # each reason's whole days, in order, within the total
            by_reason.append(min(total - sum(by_reason), -(-amount // DAY_SECONDS)))
        by_reason[-1] += total - sum(by_reason)
        return tuple(by_reason)

    def reason(self, day: date):
        return Exclusions.reason(self, local_date(day, self.time_zone) if isinstance(day, datetime) else day)

    def leave_on(self, day: date) -> tuple[int, int] | None:
        return Exclusions.leave_on(self, local_date(day, self.time_zone) if isinstance(day, datetime) else day)

    def end_leave(self, day: date) -> None:
        Exclusions.end_leave(self, local_date(day, self.time_zone) if isinstance(day, datetime) else day)

    def end_vacation(self, sent: datetime) -> None:
        """A move sent during one of the player's vacations ends it there (chess.com: "ended by any move")."""
        for i, (first, last, slot) in enumerate(self.spans):
            if slot == SLOT_VACATION and first < sent < last:
                self.spans[i] = (first, sent, slot)

    def flag_point(self, first: datetime, seconds: int) -> datetime:
        """The instant at which ``seconds`` counted seconds have run from ``first``, this player's excluded
        time skipped; where the count is reached just as excluded time begins, the flag falls when counting
        starts again (as :meth:`InstantExclusions.flag_point`)."""
        left = seconds
        start = first
        week = timedelta(days=7)
        for _round in range(100_000):  # a week at a time; every calendar leaves counted time in a week
            end = start + week
            cursor = start
            # Each counted gap before an excluded stretch, then the week's last gap (before an empty one at its end).
            for begin, stop in [*_union(self.pieces(start, end)), (end, end)]:
                gap = begin - cursor
                length = gap.days * DAY_SECONDS + gap.seconds
                if left < length:
                    return cursor + timedelta(seconds=left)
                left -= length
                cursor = stop
            start = end
        raise clock_error("flag_beyond_reach", field="players")  # pragma: no cover - a calendar with no counted time


def _add(out: list[tuple[datetime, int, int]], begin: datetime, end: datetime, slot: int, after: datetime,
         through: datetime) -> None:
    begin, end = max(begin, after), min(end, through)
    if end > begin:
        out.append((begin, 1, slot))
        out.append((end, -1, slot))


def _union(pieces: list[tuple[datetime, int, int]]) -> list[tuple[datetime, datetime]]:
    """The stretches covered by at least one piece, in order."""
    out: list[tuple[datetime, datetime]] = []
    depth = 0
    begin = None
    for instant, step, _slot in pieces:
        if depth == 0 and step > 0:
            begin = instant
        depth += step
        if depth == 0 and begin is not None:
            if out and out[-1][1] >= begin:
                out[-1] = (out[-1][0], instant)
            else:
                out.append((begin, instant))
            begin = None
    return out


def _wall(day: date, minute: int, time_zone: str) -> datetime:
    """``minute`` minutes after midnight of ``day`` on the wall clocks of ``time_zone``, in UTC."""
    local = datetime(day.year, day.month, day.day, minute // 60, minute % 60, tzinfo=zone(time_zone))
    return local.astimezone(UTC)
