"""From a game's stored events to the calculator's game: turns, receipts and presumed transit.

Pure: it reads attributes of the stored rows (or any object with the same
names) and returns calculator values; the database is never touched here.
It is part of the calculator's package because it runs on every read of a
clock and twice on every move: it is one of the modules compiled by mypyc
(:mod:`corr.clock.build`), with its pure-Python source tested the same way.

The state machine of a correspondence game, as the service keeps it:

* A move (ordinary, void or variant) passes the turn to the partner. A void
  move was sent like any other; the partner answers it with a notice.
* A notice of an impossible or illegible move (50.4.7) is sent by the player
  to move and gives the turn back to the partner, who must send the move again.
* A repeat (50.4.7) is sent by the player waiting for an answer; the turn stays.
* The player to move has a pending move. It counts from their recorded
  receipt of the partner's last dispatch, or, until one is recorded, from the
  dispatch date plus the tournament's presumed transit days, and says so.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from datetime import date, datetime, timedelta
from typing import Any, Iterable, Protocol

from .calendar import DateRange
from .counts import moment_text, zone
from .events import (
    Credit, Delay, DelayReason, Game, Gift, Move, Notice, NoticeReason, Penalty, PenaltyReason, Player, Variant,
)
from .rules import Ruleset

WHITE, BLACK = "white", "black"
RECORD_KINDS = frozenset({"result", "reopen", "case", "rules", "admin", "leave", "draw_offer", "draw_decline",
                          "calendar"})
"""History lines that are no fact of the clock (``corr.models.RECORD_KINDS``; this module is pure)."""


_SEQ, _SUPERSEDES = attrgetter("seq"), attrgetter("supersedes_id")
_new = tuple.__new__
"""A named tuple made from all its fields (``Move``): its generated ``__new__`` is interpreted Python, even
when compiled code calls it, and most of a long game's assembly was spent there."""
_OTHER = {WHITE: BLACK, BLACK: WHITE}

ClockRow = namedtuple("ClockRow", ["id", "seq", "kind", "player", "number", "received_on", "sent_on", "void",
                                   "variant", "reason", "days", "supersedes_id", "received_at", "sent_at"],
                      defaults=(None, None))
"""A stored event as the clock reads it: a clock tuple with the fields' names.

``received_at``/``sent_at``: the instants of a server game's event (aware), None elsewhere."""

CLOCK_FIELDS: tuple[str, ...] = ClockRow._fields
"""The fields of a stored event the clock reads, in the order of a clock tuple (``assemble(clock_tuples=True)``)."""

_clock_values = attrgetter(*CLOCK_FIELDS)
_AT_SEQ, _AT_SUPERSEDES = itemgetter(1), itemgetter(11)


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


class StoredEvent(Protocol):
    id: int | None
    """None for a row not saved yet (a new event checked with the stored ones before it is written)."""
    seq: int
    kind: str
    player: str
    number: int | None
    received_on: date | None
    sent_on: date | None
    void: bool
    variant: str
    reason: str
    days: int | None
    supersedes_id: int | None
    received_at: datetime | None
    sent_at: datetime | None
    """The instants of a server game's event (aware UTC); None for a postal one."""


@dataclass(frozen=True, slots=True)
class PendingReceipt:
    """When the player to move received what they must answer, and whether that is presumed."""

    player: str
    number: int
    received_on: date | None
    """A date; an aware ``datetime`` (a ``date`` too) when the game is assembled with instants."""
    presumed: bool
    """True until the player records the receipt: dispatch date + presumed transit days."""
    time_zone: str = "UTC"
    """The tournament's IANA zone: the date of an instant ``received_on`` is the date there."""

    def as_json(self) -> dict:
        """``received_on`` a date (YYYY-MM-DD) or null; ``received_at`` the instant (RFC 3339, UTC) or null.

        As the history's lines write an event: an instant's date is its date in
        the tournament's zone, and only a game assembled with instants has one.
        """
        received, at = self.received_on, None
        if isinstance(received, datetime):
            at = moment_text(received)
            received = received.astimezone(zone(self.time_zone)).date()
        return {"player": self.player, "number": self.number,
                "received_on": None if received is None else received.isoformat(), "received_at": at,
                "presumed": self.presumed}


@dataclass(frozen=True, slots=True)
class Assembled:
    """The calculator's game for the stored events, and the turn."""

    game: Game
    to_move: str | None
    """The colour to move; None when the game is over."""
    made: dict[str, int]
    pending: PendingReceipt | None
    last_move_seq: dict[str, int | None]
    """Seq of each player's last move event (for a notice that voids it)."""
    sources: tuple[int | None, ...]
    """The stored seq behind each calculator event (None for the pending move)."""


def _chains(rows: Iterable[StoredEvent]) -> tuple[list[int | None], dict[int | None, StoredEvent],
                                                   dict[int | None, int | None]]:
    """(root ids in sequence, latest row of each root, root id of every row); a new row's id is None."""
    root_of: dict[int | None, int | None] = {}
    current: dict[int | None, StoredEvent] = {}
    order: list[int | None] = []
    for row in sorted(rows, key=_SEQ):
        if row.supersedes_id is None:
            root_of[row.id] = row.id
            order.append(row.id)
        else:
            root_of[row.id] = root_of[row.supersedes_id]
        current[root_of[row.id]] = row
    return order, current, root_of


def active_events(rows: Iterable[StoredEvent]) -> list[StoredEvent]:
    """The events in force, in sequence: each replaced by its latest correction, withdrawals dropped.

    A correction takes the place of the event it supersedes (a correction of a
    correction too), so the sequence the rules see is the one the game had.
    """
    rows = sorted(rows, key=_SEQ)
    if not any(map(_SUPERSEDES, rows)):  # ids are positive: None is the only false value
        # Nothing corrected or withdrawn (most games): every row is its own chain.
        return [row for row in rows if row.kind != "withdrawal"]
    order, current, _ = _chains(rows)
    return [current[root] for root in order if current[root].kind != "withdrawal"]


def current_row(rows: Iterable[StoredEvent], seq: int) -> StoredEvent | None:
    """The row now in force in the place of the row numbered ``seq`` (itself if never corrected)."""
    rows = list(rows)
    _, current, root_of = _chains(rows)
    row = next((r for r in rows if r.seq == seq), None)
    return None if row is None else current[root_of[row.id]]


def rows_before(rows: Iterable[StoredEvent], seq: int) -> list[StoredEvent]:
    """The rows (corrections included) of the events that come before event ``seq`` in the game's sequence.

    A correction stands in the place of the event it corrects, so it belongs
    here when that event does, whatever its own seq.
    """
    rows = list(rows)
    _, _, root_of = _chains(rows)
    target = next(r for r in rows if r.seq == seq)
    first_seq = {r.id: r.seq for r in rows if r.supersedes_id is None}
    place = first_seq[root_of[target.id]]
    return [r for r in rows if first_seq[root_of[r.id]] < place]


def rows_as_of(rows: Iterable[StoredEvent], on: date, entered_on) -> tuple[list[StoredEvent], bool]:
    """The rows of the game as it stood on ``on``, and whether any row was left out.

    Left out: what is dated after ``on`` (a move or notice sent later, a receipt
    or start notice received later) and what has no date of its own (penalties,
    delays, withdrawals, corrections, records) but was entered after ``on``
    (``entered_on(row)`` gives its calendar date). A move received on or before
    ``on`` but sent after it leaves its receipt: it was pending that day.
    """
    ordered = sorted(rows, key=_SEQ)
    if _nothing_after(ordered, on, entered_on):
        # The nightly's usual case, checked in C: nothing entered or dated after ``on`` leaves nothing out.
        return [row for row in ordered if row.kind not in RECORD_KINDS], False
    return rows_as_of_walked(ordered, on, entered_on)


def rows_as_of_walked(rows: list, on: date, entered_on) -> tuple[list, bool]:
    """``rows_as_of`` of ``rows`` in sequence, by walking every row (what its fast path must agree with)."""
    kept: list = []
    left_out = False
    dropped_ids: set[int] = set()
    last_dated_move_dropped = False
    for row in rows:
        if row.kind in RECORD_KINDS:
            continue  # lines of the history, never facts of the clock
        if row.supersedes_id in dropped_ids:
            dropped = True  # a correction of a row left out goes with it
        elif row.kind == "move" and row.sent_on is None and row.supersedes_id is None and row.variant:
            dropped = last_dated_move_dropped  # a variant travels with the dated move before it (50.4.8)
        elif row.kind in ("move", "notice"):
            dropped = row.sent_on is not None and row.sent_on > on
        elif row.kind in ("receipt", "start_notice"):
            dropped = row.received_on is not None and row.received_on > on
        else:
            dropped = entered_on(row) > on
        if row.supersedes_id is not None and not dropped and entered_on(row) > on:
            dropped = True  # a correction entered later: as of that day the original stood
        if row.kind == "move" and row.supersedes_id is None and row.sent_on is not None:
            last_dated_move_dropped = dropped
        if dropped:
            left_out = True
            dropped_ids.add(row.id)
            if (row.kind == "move" and row.supersedes_id is None and row.received_on is not None
                    and row.received_on <= on):
                kept.append(_Receipt(id=-row.id, seq=row.seq, player=row.player, number=row.number,
                                     received_on=row.received_on, received_at=row.received_at))
            continue
        kept.append(row)
    return kept, left_out


_SENT_ON, _RECEIVED_ON = attrgetter("sent_on"), attrgetter("received_on")


def _nothing_after(rows: list, on: date, entered_on) -> bool:
    """No row entered after ``on``, and none sent or received after it: ``rows_as_of`` would leave none out."""
    return (max(map(entered_on, rows), default=on) <= on
            and max(filter(None, map(_SENT_ON, rows)), default=on) <= on
            and max(filter(None, map(_RECEIVED_ON, rows)), default=on) <= on)


def _active_clock_tuples(rows) -> list[tuple]:
    """``active_events`` of clock tuples, as clock tuples (the rows a clock read fetched, as they came)."""
    rows = sorted(rows, key=_AT_SEQ)
    if not any(map(_AT_SUPERSEDES, rows)):  # most games: nothing corrected or withdrawn
        return [row for row in rows if row[2] != "withdrawal"]
    named: list[Any] = [ClockRow(*row) for row in rows]  # read-only fields: the protocol's shape, as typed Any
    return list(map(_clock_values, active_events(named)))


@dataclass(frozen=True, slots=True)
class _Receipt:
    """A receipt stood in for a move that was received but not yet sent on the as-of date."""

    id: int
    seq: int
    player: str
    number: int | None
    received_on: date
    kind: str = "receipt"
    sent_on: date | None = None
    void: bool = False
    variant: str = ""
    reason: str = ""
    days: int | None = None
    supersedes_id: int | None = None
    received_at: datetime | None = None
    sent_at: datetime | None = None


def assemble(*, rows: Iterable[StoredEvent], ruleset: Ruleset, official_start: date, first: str,
             transit_days: int | None, ongoing: bool, as_of: date,
             leave: dict[str, tuple[DateRange, ...]] | None = None, clock_tuples: bool = False,
             instants: bool = False, time_zone: str = "UTC") -> Assembled:
    """Build the calculator's game from stored rows (any order), with the pending move if ongoing.

    ``clock_tuples``: the rows are plain tuples of ``CLOCK_FIELDS``, in that
    order (as a clock read fetches them): the events are built straight from
    them, with no object per row. Otherwise any objects with those attributes.

    ``leave`` gives each colour's leave (``players.<colour>.leave`` of the game file).
    The pending move is added only once it has arrived (received on or before
    ``as_of``): a move still presumed in transit runs no one's clock (50.4.3).
    ``transit_days`` None means a server game: a move arrives the day it is sent.

    ``instants`` (a count of ``whole_days`` or ``exact``, issue 22): every dated
    event is built with its stored instants (``received_at``/``sent_at``, aware
    datetimes) in place of its dates, and ``official_start`` and ``as_of`` must
    be aware datetimes too: a date and a datetime do not compare. A row without
    instants then reaches the calculator undated, which refuses it, naming it.
    ``time_zone``: the tournament's IANA zone (``Game.time_zone``: what ``flag_at``
    of a date deadline is, and the calendar of leave, holidays and weekends).
    """
    server = transit_days is None
    transit = timedelta(days=transit_days or 0)
    notices: dict[str, date | None] = {WHITE: None, BLACK: None}
    events: list = []
    sources: list[int | None] = []
    made = {WHITE: 0, BLACK: 0}
    last_move_seq: dict[str, int | None] = {WHITE: None, BLACK: None}
    to_move = first
    # What the player to move must answer: (dispatch date, recorded receipt).
    dispatched: date | None = None
    receipt: date | None = None
    long_moves: list[tuple[str, int]] = []

    active: Iterable[tuple] = (_active_clock_tuples(rows) if clock_tuples
                               else map(_clock_values, active_events(rows)))
    add_event, add_source, other_of = events.append, sources.append, _OTHER
    for _id, seq, kind, player, number, received_on, sent_on, void, variant, reason, days, _, received_at, sent_at \
            in active:
        if instants:
            received_on, sent_on = received_at, sent_at
        if kind == "move":
            add_event(_new(Move, (player, number, received_on, sent_on, void, Variant(variant) if variant else None)))
            add_source(seq)
            if not void:
                made[player] = number
            last_move_seq[player] = seq
            to_move = other_of.get(player, WHITE)  # other(player), inline: once per move
            if sent_on is not None:  # variant moves travel with the dated move before them
                dispatched = sent_on
            receipt = None
        elif kind == "notice":
            notice_reason = NoticeReason(reason)
            add_event(Notice(player, number, notice_reason, received_on, sent_on))
            add_source(seq)
            to_move = other(player) if notice_reason is not NoticeReason.REPEAT else to_move
            dispatched, receipt = sent_on, None
        elif kind == "penalty":
            add_event(Penalty(player, number, PenaltyReason(reason)))
            add_source(seq)
        elif kind == "delay":
            add_event(Delay(player, number, days, DelayReason(reason or "late_repeat")))
            add_source(seq)
        elif kind == "credit":  # its ``reason`` is the unit of its ``days``: days, or seconds (an exact count)
            add_event(Credit(player, number, 0, days) if reason == "seconds" else Credit(player, number, days, 0))
            add_source(seq)
        elif kind == "gift":  # time given by the opponent (issue 40): ``days`` to ``player`` at ``sent_on``
            add_event(Gift(player, sent_on, days))
            add_source(seq)
        elif kind == "receipt":
            receipt = received_on
        elif kind == "start_notice":
            notices[player] = received_on
        elif kind == "long_move":  # a "Use 40+ days" notice (ICCF Playing Rules 3b): no event, a lifted limit
            long_moves.append((player, number))

    pending: PendingReceipt | None = None
    if ongoing:
        number = made[to_move] + 1
        if receipt is not None:
            pending = PendingReceipt(to_move, number, receipt, False, time_zone)
        elif dispatched is not None:
            pending = PendingReceipt(to_move, number, dispatched + transit, not server, time_zone)
        else:  # the first move of the game counts from the player's start
            pending = PendingReceipt(to_move, number, None, False, time_zone)
        if pending.received_on is None or pending.received_on <= as_of:
            events.append(Move(to_move, number, pending.received_on))
            sources.append(None)

    leave = leave or {}
    game = Game(official_start=official_start,
                players=(Player(WHITE, notices[WHITE], leave.get(WHITE, ())),
                         Player(BLACK, notices[BLACK], leave.get(BLACK, ()))),
                events=tuple(events), ruleset=ruleset, time_zone=time_zone, long_moves=tuple(long_moves))
    return Assembled(game=game, to_move=to_move if ongoing else None, made=made, pending=pending,
                     last_move_seq=last_move_seq, sources=tuple(sources))
