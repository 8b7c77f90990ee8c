"""Charging: from a game's dated events to the days charged to each of a player's moves.

This is the first layer of the calculator (article 50.4.1-50.4.11): it knows
about starts, transit, grace, variants, void moves, penalties and delays, and
nothing about controls. The second layer (:mod:`corr.clock.control`) folds the
per-move charges into remaining days, deadlines and oversteps.

One pass over the events, so the cost is linear in their number. The same pass
validates the sequence (numbers, pending moves, dates) because what is valid
depends on what came before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from collections.abc import Sequence
from typing import Final, NamedTuple

from .calendar import REASONS, WEEKDAYS, Exclusions, MoveOnLeave, excluded_note
from .counts import DAY_SECONDS, Count, duration_text, moment_text
from .errors import EventError, clock_error, event_error
from .events import Credit, Delay, Game, Gift, Move, Notice, NoticeReason, Penalty, Player, Variant
from .instants import INSTANT_MIN, InstantExclusions, check_instants, instant_error, start_of
from .personal import SLOT_PAUSE, SLOT_VACATION, CalendarZone, PersonalExclusions
from .rules import Ruleset

# Ledger kinds: what a line of the ledger explains. (Final: constants of the compiled build, not
# looked up by name at every use.)
KIND_MOVE: Final = "move"
KIND_VOID_MOVE: Final = "void_move"
KIND_VARIANT_MOVE: Final = "variant_move"
KIND_PENDING_MOVE: Final = "pending_move"
KIND_NOTICE: Final = "notice"
KIND_PENALTY: Final = "penalty"
KIND_DELAY: Final = "delay"
KIND_CREDIT: Final = "credit"
KIND_GIFT: Final = "gift"


LEDGER_FIELDS: Final = ("player", "move", "kind", "days", "excluded_days", "rule", "event", "note")


class LedgerLine(NamedTuple):
    """One charged or excluded amount of days and the rule that decided it.

    ``move`` is the player's move number the days are charged to (which for a
    move after an accepted variant is the accepted move, 50.4.8); ``event`` is
    the index of the event that caused the line.
    """

    player: str
    move: int
    kind: str
    days: int
    excluded_days: int
    rule: str
    event: int
    note: str

    def as_json(self) -> dict:
        return dict(zip(LEDGER_FIELDS, self, strict=True))


LedgerRow = tuple[str, int, str, int, int, str, int, str]
"""A ledger line as a plain tuple, in :class:`LedgerLine`'s field order: what the pass builds (a
plain tuple costs a fraction of a named one), made a :class:`LedgerLine` when a caller asks."""


def ledger_json(rows: Sequence[tuple]) -> list[dict[str, object]]:
    """The ledger's rows (``LedgerRow``s) as JSON objects keyed by ``LEDGER_FIELDS``, as the API and
    ``manage.py clock`` write them.

    A long game's clock read is mostly its ledger: built here, in the compiled
    module, an object per line costs a fraction of a Python dict display. The
    rows are typed plain tuples here: as ``LedgerRow``s, each would be checked
    and its numbers unboxed, only to be boxed again into the dict.
    """
    return [{"player": row[0], "move": row[1], "kind": row[2], "days": row[3], "excluded_days": row[4],
             "rule": row[5], "event": row[6], "note": row[7]} for row in rows]


def ledger_line(row: LedgerRow) -> LedgerLine:
    """The :class:`LedgerLine` of a row (``tuple.__new__``: a named tuple's own ``__new__`` is a Python call)."""
    return _new_line(LedgerLine, row)


@dataclass(init=False, unsafe_hash=True, slots=True)
class Pending:
    """A move the player has received the partner's move for and not yet sent."""

    number: int
    """The pending move's own number (made + 1)."""
    charged_to: int
    """The number its running days are charged to (50.4.8 for accepted variants)."""
    counted_from: date
    """``max(received_on, start)``: the first day its running time counts from."""
    running_days: int
    """Days run so far, as of the calculation date (before any double-time charge)."""
    event: int

    def __init__(self, number: int, charged_to: int, counted_from: date, running_days: int, event: int) -> None:
        # Written out rather than generated: a dataclass's generated __init__ runs as interpreted code
        # even in the compiled build, at ~150 ns a field (issue 13).
        self.number = number
        self.charged_to = charged_to
        self.counted_from = counted_from
        self.running_days = running_days
        self.event = event


@dataclass(init=False, unsafe_hash=True, slots=True)
class PlayerCharges:
    """Everything charged to one player, before any control is applied."""

    player: str
    start: date
    made: int
    next_charge_number: int
    """``q`` of the issue: the number the next or pending time is charged to."""
    charges: tuple[int, ...]
    """Days charged to move numbers 1..len(charges) (index 0 is move 1); running days included."""
    thinking_days: int
    penalty_days: int
    delay_days: int
    pending: Pending | None
    move_days: tuple[tuple[int, int, int], ...] = ()
    """(number, raw days, event) of every move, kept only when a per-move limit needs them."""
    double_after: int | None = None
    shifted: tuple[tuple[int, int, int], ...] = ()
    """(charged to, own number, days) of every amount 50.4.8 charges to an accepted variant move
    instead of the move whose days they are: the per-move systems count those days on that move."""
    exclusions: Exclusions | None = None
    """The player's days that do not count (leave, holidays, weekends); None when every day counts."""
    count: Count = Count.DATES
    """How the amounts were counted: days (dates, whole days) or seconds (exact)."""
    credit_days: int = 0
    """Time given back (:class:`~corr.clock.events.Credit`), in the count's unit: taken off the charges."""
    unlimited_moves: tuple[int, ...] = ()
    """The player's move numbers the limit for one move does not apply to (``Game.long_moves``)."""
    gifts: tuple[tuple[int, int, bool], ...] = ()
    """(move in hand as made, amount, byo-yomi reset) of every time given by the opponent (issue 40), the
    amount in the count's unit and also in ``charges`` as a negative charge: a system that keeps main time
    (byo-yomi, as Dragon Go Server's ``GameAddTime::add_time``) takes it as main time instead."""

    def __init__(
        self,
        player: str,
        start: date,
        made: int,
        next_charge_number: int,
        charges: tuple[int, ...],
        thinking_days: int,
        penalty_days: int,
        delay_days: int,
        pending: Pending | None,
        move_days: tuple[tuple[int, int, int], ...] = (),
        double_after: int | None = None,
        shifted: tuple[tuple[int, int, int], ...] = (),
        exclusions: Exclusions | None = None,
        count: Count = Count.DATES,
        credit_days: int = 0,
        unlimited_moves: tuple[int, ...] = (),
        gifts: tuple[tuple[int, int, bool], ...] = (),
    ) -> None:
        self.player = player
        self.start = start
        self.made = made
        self.next_charge_number = next_charge_number
        self.charges = charges
        self.thinking_days = thinking_days
        self.penalty_days = penalty_days
        self.delay_days = delay_days
        self.pending = pending
        self.move_days = move_days
        self.double_after = double_after
        self.shifted = shifted
        self.exclusions = exclusions
        self.count = count
        self.credit_days = credit_days
        self.unlimited_moves = unlimited_moves
        self.gifts = gifts

    @property
    def total_days(self) -> int:
        """50.4.1: thinking time plus penalty days plus delays, less the time credited back."""
        return self.thinking_days + self.penalty_days + self.delay_days - self.credit_days


@dataclass(init=False, slots=True)
class _State:
    """Mutable per-player running state of the single pass (internal)."""

    start: date
    start_rule: str
    player: str = ""
    made: int = 0
    last_made_accepted: bool = False
    last_accepted_number: int = 0
    charges: list[int] = field(default_factory=list)
    thinking_days: int = 0
    penalty_days: int = 0
    penalties: int = 0
    delay_days: int = 0
    credit_days: int = 0
    pending: Pending | None = None
    move_days: list[tuple[int, int, int]] | None = None
    dispatched: date = date.min
    """The date of this player's last dispatch (a dated move or a notice of an impossible or
    illegible move): what the partner answers next cannot have arrived before it."""
    shifted: list[tuple[int, int, int]] | None = None
    partner: _State | None = None
    exclusions: Exclusions | None = None
    gifts: list[tuple[int, int, bool]] | None = None

    def __init__(
        self,
        start: date,
        start_rule: str,
        player: str = "",
        made: int = 0,
        last_made_accepted: bool = False,
        last_accepted_number: int = 0,
        charges: list[int] | None = None,
        thinking_days: int = 0,
        penalty_days: int = 0,
        penalties: int = 0,
        delay_days: int = 0,
        pending: Pending | None = None,
        move_days: list[tuple[int, int, int]] | None = None,
        dispatched: date = date.min,
        shifted: list[tuple[int, int, int]] | None = None,
        partner: _State | None = None,
        exclusions: Exclusions | None = None,
    ) -> None:
        self.start = start
        self.start_rule = start_rule
        self.player = player
        self.made = made
        self.last_made_accepted = last_made_accepted
        self.last_accepted_number = last_accepted_number
        self.charges = list() if charges is None else charges
        self.thinking_days = thinking_days
        self.penalty_days = penalty_days
        self.penalties = penalties
        self.delay_days = delay_days
        self.credit_days = 0
        self.gifts = None
        self.pending = pending
        self.move_days = move_days
        self.dispatched = dispatched
        self.shifted = shifted
        self.partner = partner
        self.exclusions = exclusions

    def charge(self, number: int, days: int) -> None:
        charges = self.charges
        if number > len(charges):
            charges.extend([0] * (number - len(charges)))
        charges[number - 1] += days

    def next_charge(self) -> int:
        """The number the player's next time is charged to (``q``: 50.4.8's accepted variant, else made + 1)."""
        return self.last_accepted_number if self.last_made_accepted else self.made + 1

    def charge_number_for_ordinary_move(self, number: int) -> int:
        # 50.4.8: the receiver of a variant has their time counted on the last
        # accepted move, so an ordinary move after it is charged there.
        return self.last_accepted_number if self.last_made_accepted else number


_new_line: Final = tuple.__new__


def player_start(official_start: date, notice_received_on: date | None, late_notice_start_days: int) -> date:
    """The date a player's thinking time starts (50.4.5, 50.4.6).

    The official start, or, for a player notified late, the later of the
    official start and ``late_notice_start_days`` after the notice arrived.
    """
    if notice_received_on is None:
        return official_start
    return max(official_start, notice_received_on + timedelta(days=late_notice_start_days))


def charge_game(game: Game, as_of: date, *, ledger: bool = True) -> tuple[dict[str, PlayerCharges], list[LedgerLine]]:
    """Charge every event of ``game`` as of ``as_of``; one pass, linear in the events.

    :returns: as :func:`charge_rows`, the ledger's lines as :class:`LedgerLine`.
    """
    charges, rows = charge_rows(game, as_of, ledger=ledger)
    return charges, [ledger_line(row) for row in rows]


def charge_rows(game: Game, as_of: date, *, ledger: bool = True) -> tuple[dict[str, PlayerCharges], list[LedgerRow]]:
    """Charge every event of ``game`` as of ``as_of``; one pass, linear in the events.

    Under the ``whole_days`` and ``exact`` counts (:mod:`corr.clock.counts`) every dated fact and
    ``as_of`` are instants (aware datetimes), and the amounts are whole days or seconds.

    :returns: the charges of each player (keyed by player id, in the game's
        player order) and the ledger explaining every charged or excluded day
        (empty when ``ledger`` is false: accounts alone need no explanation).
    :raises EventError: for the first event that is malformed or out of
        sequence, naming its index and type (and ``received_at`` / ``sent_at``
        where the count reads instants).
    """
    if game.ruleset.count is not Count.DATES:
        check_instants(game, as_of)  # before the pass: its own messages name the instant fields already
    try:
        return _charge_rows(game, as_of, ledger)
    except EventError as error:
        if game.ruleset.count is Count.DATES or error.field is None:
            raise
        raise instant_error(error) from None


def _charge_rows(game: Game, as_of: date, ledger: bool) -> tuple[dict[str, PlayerCharges], list[LedgerRow]]:
    rules = game.ruleset
    control = rules.time_control
    double = control.double_after if control is not None else None
    keep_move_days = control is not None and control.max_per_move is not None
    count = Count.DATES if control is None else control.count
    instants = count is not Count.DATES
    exact = count is Count.EXACT
    # The rules' days (grace, penalties, delays, gifts) in the count's unit: under exact a day of the control,
    # 86,400 s, or Dragon Go Server's 15 counted hours ("day_hours": 15).
    scale = (DAY_SECONDS if control is None else control.day_seconds) if exact else 1
    states: dict[str, _State] = {}
    for p in game.players:
        notice = p.notice_received_on
        if instants and notice is not None:  # a date there means 00:00 of it in the game's zone
            notice = notice if isinstance(notice, datetime) else start_of(notice, game.time_zone)
        if notice is not None and notice > as_of:
            field = f"players.{p.id}.notice_received_on"
            raise clock_error("notice_after_as_of", field=field, day=p.notice_received_on, as_of=as_of,
                              player=p.id)
        try:
            start = player_start(game.official_start, notice, rules.late_notice_start_days)
        except OverflowError:  # a date near 9999-12-31 plus the late-notice days
            field = f"players.{p.id}.notice_received_on"
            raise clock_error("start_after_last_date", field=field, day=p.notice_received_on,
                              days=rules.late_notice_start_days, last=date.max, player=p.id) from None
        states[p.id] = _State(start=start, start_rule="50.4.6" if start != game.official_start else "50.4.5",
                              player=p.id, move_days=[] if keep_move_days else None,
                              dispatched=INSTANT_MIN if instants else date.min,
                              exclusions=exclusions_of(p, rules, game.time_zone, count))
    both = list(states.values())
    both[0].partner, both[-1].partner = both[-1], both[0]
    events = game.events
    lines: list[LedgerRow] = []
    keep = ledger
    append = lines.append if keep else _discard
    grace = rules.grace_days * scale
    # Dates, no per-move option and every day counts: the fast path applies.
    plain = not instants and double is None and not keep_move_days and all(s.exclusions is None for s in both)
    last_sender = None  # who made the last dispatch: the next answer must be the partner's

    for index, event in enumerate(events):
        if plain and isinstance(event, Move):
            # Fast path, inlined: an ordinary sent move in sequence, received on or after the
            # player's start and the partner's last dispatch, not after an accepted variant, dates
            # in order. It is most of every real game; anything else falls through to the checked
            # path below.
            player, number, received, sent, void, variant = event
            state = states.get(player)
            if (state is not None and received is not None and sent is not None and not void
                    and variant is None and state.pending is None and type(_as_given(event)[1]) is int
                    and number == state.made + 1 and not state.last_made_accepted and last_sender != player
                    and (days := (sent - received).days) >= 0  # sent on or after received
                    and state.start <= received and sent <= as_of
                    and (partner := state.partner) is not None and partner.dispatched <= received):
                charges = state.charges
                if number == len(charges) + 1:
                    charges.append(days)
                else:  # a void move or a notice of this number came first, or variants left a gap
                    state.charge(number, days)
                state.thinking_days += days
                state.made = number
                state.dispatched = sent
                last_sender = player
                if keep:
                    lines.append((player, number, KIND_MOVE, days, 0, "50.4.4", index, ""))
                continue
        state = states.get(event.player)
        if state is None:
            raise event_error(index, event.type, "unknown_player", field="player", value=repr(event.player),
                              known=", ".join(states))
        if isinstance(event, Move):
            if _charge_move(index, event, state, as_of, append, double, events, last_sender, count, scale):
                last_sender = state.player
        elif isinstance(event, Notice):
            kind = "notice"
            _check_charge_number(index, event, state)
            received, sent = event.received_on, event.sent_on
            _check_dates(index, kind, received, sent, as_of)
            _check_answers(index, kind, received, "received_on", state, events)
            if event.reason is not NoticeReason.REPEAT:
                # A repeat re-sends the player's earlier move: the partner may answer the original,
                # which can arrive before the repeat was sent (crossing mail), so it bounds nothing.
                _check_turn(index, kind, state, events, last_sender)
                state.dispatched = sent
                last_sender = state.player
            counted_from = max(received, state.start)
            raw = max(0, span(counted_from, sent, exact))
            calendar = ""
            if state.exclusions is not None and raw:
                # 50.4.7 with days that do not count: the raw days are counted the same way as a
                # move's, then the grace days are taken off.
                by_reason = state.exclusions.counts(counted_from, sent)
                raw -= sum(by_reason)
                calendar = "; " + _excluded_text(by_reason, _wall(scale)) if sum(by_reason) else ""
            days = max(0, raw - grace)
            excluded = span(received, sent, exact) - days
            state.charge(event.move, days)
            state.thinking_days += days
            counted = f"{raw} counted day(s)" if not exact else f"{duration_text(raw)} counted"
            append((
                event.player, event.move, "notice", days // scale, excluded // scale, "50.4.7", index,
                f"{event.reason._value_} notice: {counted} from {moment_text(counted_from)} to {moment_text(sent)},"
                f" of which up to {rules.grace_days} are not counted{calendar}",
            ))
        elif isinstance(event, Penalty):
            _check_charge_number(index, event, state)
            first = state.penalties == 0
            days = (rules.first_penalty_days if first else rules.repeat_penalty_days) * scale
            state.penalties += 1
            state.penalty_days += days
            state.charge(event.move, days)
            append((
                event.player, event.move, "penalty", days // scale, 0, "50.4.9" if first else "50.4.10", index,
                f"{event.reason._value_}: {'first' if first else 'repeated'} penalty in this game",
            ))
        elif isinstance(event, Delay):
            _check_charge_number(index, event, state)
            delay = _as_given(event)[2]
            if isinstance(delay, bool) or not isinstance(delay, int) or delay < 0:
                raise event_error(index, "delay", "days_not_whole", field="days", value=repr(delay))
            state.delay_days += delay * scale
            state.charge(event.move, delay * scale)
            append((
                event.player, event.move, "delay", delay, 0, "50.4.11", index,
                f"{event.reason._value_}: whole delay added by the arbiter",
            ))
        elif isinstance(event, Credit):
            _check_charge_number(index, event, state)
            given = _credit_amount(index, event, exact, scale)
            state.credit_days += given
            state.charge(event.move, -given)
            append((
                event.player, event.move, KIND_CREDIT, -(given // scale), 0, "", index,
                f"time given back: {duration_text(given) if exact else f'{given} day(s)'}",
            ))
        elif isinstance(event, Gift):
            given = _gift_amount(index, event, as_of, instants, scale, rules)
            # The move in hand: the pending move's (an accepted variant's where 50.4.8 charges it there),
            # else the next one. The partner's state is not touched: the gift is charged to no one.
            number = state.pending.charged_to if state.pending is not None else state.next_charge()
            state.credit_days += given
            state.charge(number, -given)
            if state.gifts is None:
                state.gifts = []
            reset = event.reset_byoyomi is True
            state.gifts.append((state.made + 1, given, reset))  # the move in hand as moves are made
            append((
                event.player, number, KIND_GIFT, -(given // scale), 0, "", index,
                f"time given by the opponent at {moment_text(event.at)}: {event.days} day(s)"
                + (", byo-yomi reset (DGS reset_byoyomi)" if reset else ""),
            ))
        else:  # pragma: no cover - the parser and the types admit no other kind
            raise EventError(index, str(event.type), "unknown event type", field="type")

    # The two states point at each other: undone here so that reference counting frees them
    # (batches run with the cyclic collector paused, where a cycle per game would pile up).
    both[0].partner = both[-1].partner = None
    result = {}
    for pid, s in states.items():
        q = s.last_accepted_number if s.last_made_accepted else s.made + 1
        result[pid] = PlayerCharges(
            player=pid, start=s.start, made=s.made, next_charge_number=q,
            charges=tuple(s.charges), thinking_days=s.thinking_days,
            penalty_days=s.penalty_days, delay_days=s.delay_days, pending=s.pending,
            move_days=tuple(s.move_days or ()), double_after=double, shifted=tuple(s.shifted or ()),
            exclusions=s.exclusions, count=count, credit_days=s.credit_days, gifts=tuple(s.gifts or ()),
        )
    return result, lines


def _as_given(event: Move | Notice | Penalty | Delay | Credit | Gift) -> tuple[object, ...]:
    """An event's fields as objects: the checks of whole numbers must see a bool as a bool, where the
    compiled build would have read a field declared ``int`` as an int (``True`` as 1)."""
    return event


def _gift_amount(index: int, event: Gift, as_of: date, instants: bool, scale: int, rules: Ruleset) -> int:
    """A gift's amount in the count's unit.

    :raises EventError: for a ruleset without gifts, days that are not a whole number above 0 or not the
        rule's (lichess: one day; DGS: at most 14), an ``at`` of the wrong kind for the count, or after the
        as-of moment. (The bound on the receiver's clock is :mod:`corr.clock.gifts`'.)
    """
    days, at, reset = _as_given(event)[2], _as_given(event)[1], _as_given(event)[3]
    rule = rules.gifts
    if rule is None:
        raise event_error(index, "gift", "gifts_not_allowed", field="type")
    if reset is not True and reset is not False:
        raise event_error(index, "gift", "not_boolean", field="reset_byoyomi", value=repr(reset))
    if reset and not rule.reset_byoyomi:
        raise event_error(index, "gift", "one_of", field="reset_byoyomi", value="true",
                          known="false (ruleset.gifts.reset_byoyomi is not set)")
    # DGS's add_time may give no time and only reset byo-yomi (add_time(0, true)); any other gift gives some.
    if isinstance(days, bool) or not isinstance(days, int) or days < (0 if reset else 1):
        raise event_error(index, "gift", "gift_days", field="days", value=repr(days))
    if rule.days is not None and days != rule.days:
        raise event_error(index, "gift", "gift_not_days", field="days", days=rule.days, value=days)
    if rule.max_days is not None and days > rule.max_days:
        raise event_error(index, "gift", "gift_over_max", field="days", maximum=rule.max_days, value=days)
    if instants and not isinstance(at, datetime):
        raise event_error(index, "gift", "event_date_not_instant", field="at", key="at", day=at, count="instant",
                          at="at")
    if isinstance(at, date) and at > as_of:
        raise event_error(index, "gift", "gift_after_as_of", field="at", day=moment_text(event.at),
                          as_of=moment_text(as_of))
    return days * scale


def exclusions_of(player: Player, rules: Ruleset, time_zone: str, count: Count) -> Exclusions | None:
    """One player's time that does not count under ``rules`` (None when all of it counts).

    The tournament's calendar and the player's leave (:mod:`corr.clock.calendar`), and the player's own
    calendar, vacation and pauses (:mod:`corr.clock.personal`): a player with none of the latter keeps the
    exclusions corr always computed.

    :raises ClockError: naming the player's field, for a calendar the ruleset does not allow (or one naming a
        zone where the game's zone counts), a night, vacation or pauses under the ``dates`` count.
    """
    calendar = player.calendar
    field = f"players.{player.id}"
    if calendar is not None:
        allowed = rules.player_calendars
        if allowed is CalendarZone.NONE:
            raise clock_error("calendar_not_allowed", field=f"{field}.calendar")
        if allowed is CalendarZone.GAME_ZONE and calendar.time_zone is not None:
            raise clock_error("calendar_zone_not_allowed", field=f"{field}.calendar.time_zone")
    if player.vacation and rules.vacation is None:
        raise clock_error("vacation_not_allowed", field=f"{field}.vacation")
    if player.pauses and rules.pauses_per_game is None:
        raise clock_error("pauses_not_allowed", field=f"{field}.pauses")
    personal = calendar is not None or player.vacation or player.pauses
    if count is Count.DATES:
        if calendar is not None and calendar.night is not None:
            raise clock_error("night_needs_instants", field=f"{field}.calendar.night")
        for key, spans in (("vacation", player.vacation), ("pauses", player.pauses)):
            if spans:
                raise clock_error("spans_need_instants", field=f"{field}.{key}", key=key)
        if calendar is not None and calendar.weekend_days:  # a date is a date: the player's weekend days
            days = tuple(d for d in WEEKDAYS if d in calendar.weekend_days or d in rules.weekend_days)
            return Exclusions(player.leave, rules.holidays, days, rules.move_on_leave)
        return Exclusions.of(player.leave, rules)
    if not personal:
        return InstantExclusions.of_instants(player.leave, rules, time_zone, count)
    stops = [(s.first, s.last, SLOT_VACATION) for s in player.vacation]
    stops += [(s.first, s.last, SLOT_PAUSE) for s in player.pauses]
    return PersonalExclusions(player.leave, rules.holidays, rules.weekend_days, rules.move_on_leave, time_zone,
                              count, calendar, stops)


def _credit_amount(index: int, event: Credit, exact: bool, scale: int) -> int:
    """A credit's amount in the count's unit: its days, plus its seconds where the clock has seconds.

    :raises EventError: for an amount that is not a whole number, negative or nothing at all, or
        seconds under a count of days.
    """
    days, seconds = _as_given(event)[2], _as_given(event)[3]
    for name, value in (("days", days), ("seconds", seconds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise event_error(index, "credit", "credit_not_whole", field=name, name=name, value=repr(value))
    if seconds and not exact:
        raise event_error(index, "credit", "credit_seconds_not_exact", field="seconds", value=seconds)
    given = event.days * scale + event.seconds  # checked whole numbers above
    if given == 0:
        raise event_error(index, "credit", "credit_nothing", field="days")
    return given


def _discard(line: LedgerRow) -> None:
    """The ledger sink when only accounts are wanted."""


def double_time(days: int, double_after: int | None) -> int:
    """ICCF double time: the days of one move beyond ``double_after`` are charged twice (23 -> 26 with 20)."""
    if double_after is None or days <= double_after:
        return days
    return days + (days - double_after)


def _charge_move(index: int, move: Move, state: _State, as_of: date, append, double: int | None,
                 events: tuple, last_sender: str | None, count: Count = Count.DATES, scale: int = 1) -> bool:
    """Charge one move, checking every rule (the loop's fast path took the plain ones).

    :returns: True when the move was dispatched (dated) or is a conditional variant move: the partner answers it
        next.
    """
    number = _as_given(move)[1]
    if isinstance(number, bool) or not isinstance(number, int):
        raise event_error(index, "move", "number_not_whole", field="number", value=repr(number))
    if state.pending is not None:
        if move.pending:
            raise event_error(index, "move", "second_pending_move", field="sent_on", player=move.player,
                              number=state.pending.number, event=state.pending.event)
        raise event_error(index, "move", "pending_move_not_last", field="number", player=move.player,
                          number=state.pending.number, event=state.pending.event)
    expected = state.made + 1
    if number != expected:
        raise event_error(index, "move", "number_out_of_sequence", field="number", number=number,
                          player=move.player, made=state.made, expected=expected)

    if move.variant is not None:
        if move.received_on is not None or move.sent_on is not None:
            raise event_error(index, "move", "variant_dated",
                              field="received_on" if move.received_on is not None else "sent_on")
        if move.void:
            raise event_error(index, "move", "variant_void", field="void")
        state.made = number
        accepted = move.variant is Variant.ACCEPTED
        state.last_made_accepted = accepted
        if accepted:
            state.last_accepted_number = number
            note = "accepted from the partner's variant: later time is charged here"
        else:
            note = "played from the player's own conditional variant: costs nothing"
        append((move.player, number, KIND_VARIANT_MOVE, 0, 0, "50.4.8", index, note))
        # A conditional move is the proposer's answer, sent with the dated move before it: the partner's next
        # dated move answers it, whether that dated move was the proposer's own (a postal variant) or the
        # partner's (a server's conditional reply, played the instant the partner's expected move came).
        return not accepted

    received, sent = move.received_on, move.sent_on
    if received is None and number != 1:
        raise event_error(index, "move", "received_required", field="received_on", player=move.player)
    counted_from = state.start if received is None else max(received, state.start)
    charge_to = state.charge_number_for_ordinary_move(number)

    if sent is None:
        if move.void:
            raise event_error(index, "move", "void_unsent", field="sent_on", player=move.player)
        _check_dates(index, "move", received, None, as_of)
        if received is not None:
            _check_answers(index, "move", received, "received_on", state, events)
        _check_turn(index, "move", state, events, last_sender)
        exact = count is Count.EXACT
        running = max(0, span(counted_from, as_of, exact))
        calendar: tuple[int, ...] = _NOTHING
        not_counted = 0
        if state.exclusions is not None and running:
            calendar = state.exclusions.counts(counted_from, as_of)
            not_counted = sum(calendar)
            running -= not_counted
        charged = double_time(running, double)
        state.charge(charge_to, charged)
        if charge_to != number:
            _shift(state, charge_to, number, charged)
        state.thinking_days += charged
        state.pending = Pending(number, charge_to, counted_from, running, index)
        if state.move_days is not None:
            state.move_days.append((number, running, index))
        append((
            move.player, charge_to, KIND_PENDING_MOVE, charged // scale, not_counted // scale,
            "double_after" if charged != running else "50.4.8" if charge_to != number else _RULE[count], index,
            f"move {number} running since {moment_text(counted_from)}"
            + (f": {how_counted(count, span(counted_from, as_of, True), running, charged, double)}"
               if count is not Count.DATES else "")
            + (f", charged to accepted variant move {charge_to}" if charge_to != number else "")
            + (f"; {running - (double or 0)} day(s) beyond {double} count double"
               if charged != running and count is Count.DATES else "")
            + (f"; {_excluded_text(calendar, _wall(scale))}" if not_counted else ""),
        ))
        return False

    _check_dates(index, "move", received, sent, as_of)
    if received is None:  # the player's first move, counted from their start: it was sent after what it answers
        _check_answers(index, "move", sent, "sent_on", state, events)
    else:
        _check_answers(index, "move", received, "received_on", state, events)
    _check_turn(index, "move", state, events, last_sender)
    calendar = _NOTHING
    exclusions = state.exclusions
    if exclusions is not None:
        calendar = _leave_option(index, move, sent, exclusions, counted_from)
    not_counted = sum(calendar)  # the days of leave, holidays, weekends (a player's own night, vacation, pause)
    state.dispatched = sent
    exact = count is Count.EXACT
    raw = max(0, span(counted_from, sent, exact)) - not_counted
    days = double_time(raw, double)
    if state.move_days is not None:
        state.move_days.append((number, raw, index))
    before_start = 0 if received is None else max(0, span(received, sent, exact) - raw - not_counted)
    excluded = before_start + not_counted
    charges = state.charges
    if charge_to == len(charges) + 1:  # the common case, inlined: it runs once per move of a batch
        charges.append(days)
    else:
        state.charge(charge_to, days)
    if charge_to != number:
        _shift(state, charge_to, number, days)
    state.thinking_days += days
    if move.void:
        kind = KIND_VOID_MOVE
        note = f"void move {number}: its days count, but it is not a move made"
    else:
        kind = KIND_MOVE
        state.made = number
        state.last_made_accepted = False
        note = ""
    if count is not Count.DATES:  # how the instants were counted, first: it is what the line is about
        note = how_counted(count, span(counted_from, sent, True), raw, days, double) + (f"; {note}" if note else "")
    if not_counted:
        note += f"{'; ' if note else ''}{_excluded_text(calendar, _wall(scale))}"
    if before_start:
        rule = "50.4.5"
        before = f"{before_start} day(s)" if not exact else duration_text(before_start)
        note += f"{'; ' if note else ''}{before} before the player's start {moment_text(state.start)} not counted"
        if state.start_rule == "50.4.6":
            note += " (late notice, 50.4.6)"
    elif charge_to != number:
        rule = "50.4.8"
        note += f"{'; ' if note else ''}charged to accepted variant move {charge_to} (move {number} sent)"
    else:
        rule = _RULE[count]
    if days != raw:
        rule = "double_after"
        if count is Count.DATES:
            note += f"{'; ' if note else ''}{raw} day(s), those beyond {double} count double: {days}"
    append((move.player, charge_to, kind, days // scale, excluded // scale, rule, index, note))
    return True


_NOTHING: Final[tuple[int, ...]] = (0, 0, 0)
"""No time excluded (by reason)."""

_RULE: Final = {Count.DATES: "50.4.4", Count.WHOLE_DAYS: "ICCF 2.4.2", Count.EXACT: "exact"}
"""The rule a plain move's line cites, by count."""


def how_counted(count: Count, seconds: int, raw: int, charged: int, double: int | None) -> str:
    """How a move's instants were counted, for the ledger.

    ``seconds`` is the move's whole duration from the instant it counts from; ``raw`` its counted
    amount (whole days, or seconds under exact) and ``charged`` that amount after double time:
    ``"25 d 11 h 01 min: 25 whole days (ICCF 2.4.2), 5 beyond 20 doubled: 30"``.
    """
    took = duration_text(seconds)
    if count is Count.WHOLE_DAYS:
        text = f"{took}: {raw} whole day(s) (ICCF 2.4.2)"
        if charged != raw and double is not None:
            text += f", {raw - double} beyond {double} doubled: {charged}"
        return text
    text = f"{took}: counted exactly"
    if charged != raw and double is not None:
        text += (f", {duration_text(raw - double)} beyond {duration_text(double)} doubled:"
                 f" {duration_text(charged)}")
    return text


def span(a: date, b: date, exact: bool) -> int:
    """``b - a`` in the count's unit: whole days (a date difference, or the whole 24-hour periods
    between two instants, ``timedelta.days`` being the floor) or, ``exact``, seconds."""
    delta = b - a
    return delta.days * DAY_SECONDS + delta.seconds if exact else delta.days


def _wall(scale: int) -> int:
    """The unit excluded time is said in: wall-clock days under an instant count (a weekend is 2 days, also
    where a day of the control is DGS's 15 counted hours), dates otherwise."""
    return 1 if scale == 1 else DAY_SECONDS


def _in_days(amounts: tuple[int, ...], scale: int) -> tuple[int, ...]:
    """Excluded amounts by reason in whole days, for the ledger's note (seconds under exact)."""
    return tuple([amount // scale for amount in amounts])


def _excluded_text(amounts: tuple[int, ...], scale: int) -> str:
    """The ledger's words for the excluded amounts: whole days by reason (as corr always wrote them), or, where
    a player's own night, vacation or pause took part of them under ``exact``, their durations."""
    if scale == 1 or not any(amounts[3:]):
        return excluded_note(*_in_days(amounts, scale))
    parts = [f"{duration_text(n)} {why}" for n, why in zip(amounts, REASONS, strict=False) if n]
    return f"{duration_text(sum(amounts))} not counted: {', '.join(parts)}"



def _leave_option(index: int, move: Move, sent: date, exclusions: Exclusions,
                  counted_from: date) -> tuple[int, ...]:
    """Apply the ruleset's option for a move sent on the player's own leave; the move's excluded days.

    :returns: the dates after ``counted_from`` through the sent date that do not count, by reason.
    :raises EventError: when the ruleset refuses moves on leave days and this one was sent on one.
    """
    option = exclusions.option
    span = exclusions.leave_on(sent) if option is not MoveOnLeave.ALLOWED else None
    if span is not None:
        if option is MoveOnLeave.REFUSED:
            first, last = date.fromordinal(span[0]), date.fromordinal(span[1])
            raise event_error(index, "move", "sent_on_leave", field="sent_on", day=sent, player=move.player,
                              first=first, last=last)
        exclusions.end_leave(sent)  # ends_leave: the day before the move is the leave's last day
    if sent <= counted_from:
        return _NOTHING
    return exclusions.counts(counted_from, sent)


def _shift(state: _State, charged_to: int, number: int, days: int) -> None:
    """Record days 50.4.8 charges to an accepted variant move although they are move ``number``'s."""
    if state.shifted is None:
        state.shifted = []
    state.shifted.append((charged_to, number, days))


def _check_turn(index: int, kind: str, state: _State, events: tuple, last_sender: str | None) -> None:
    """A move or notice answers something the partner dispatched after the player's own last dispatch.

    Each player's first dispatch answers nothing of theirs; a repeat (50.4.7) is no dispatch and
    variant moves travel with the dated move they came with.

    :raises EventError: naming the partner's missing move and the player's last dispatch.
    """
    if last_sender != state.player:
        return
    assert state.partner is not None  # both states point at each other during the pass
    partner = state.partner.player
    mine = next(i for i in range(index - 1, -1, -1) if events[i].player == state.player and _dispatch(events[i]))
    last = events[mine]
    what = f"move {last.number}" if last.type == "move" else f"{last.reason.value} notice"
    raise event_error(index, kind, "answers_again", field="player", player=state.player, partner=partner,
                      what=what, event=mine)


def _dispatch(event) -> bool:
    """A dated move, a conditional variant move or a notice other than a repeat: what the partner answers next."""
    if event.type == "move":
        return event.variant is Variant.CONDITIONAL if event.variant is not None else event.sent_on is not None
    return event.type == "notice" and event.reason is not NoticeReason.REPEAT


def _check_charge_number(index: int, event: Notice | Penalty | Delay | Credit, state: _State) -> None:
    number = _as_given(event)[1]
    if isinstance(number, bool) or not isinstance(number, int):
        raise event_error(index, event.type, "move_not_whole", field="move", value=repr(number))
    if not 1 <= number <= state.made + 1:
        raise event_error(index, event.type, "move_out_of_range", field="move", move=number, last=state.made + 1,
                          player=event.player)


def _check_answers(index: int, kind: str, day: date, field: str, state: _State, events: tuple) -> None:
    """A move or notice answers the partner's last dispatch: it cannot have arrived before it was sent.

    :raises EventError: naming ``field`` (``received_on``, or ``sent_on`` of a first move
        without a received date), the partner's dispatch date and its event.
    """
    partner = state.partner
    assert partner is not None  # both states point at each other during the pass
    dispatched = partner.dispatched
    if day >= dispatched:
        return
    source = next((i for i in range(index - 1, -1, -1)
                   if events[i].player == partner.player and getattr(events[i], "sent_on", None) == dispatched
                   and getattr(events[i], "reason", None) is not NoticeReason.REPEAT), None)
    raise event_error(index, kind, "before_dispatch", field=field, day=day, partner=partner.player,
                      dispatched=dispatched, event=source, player=state.player)


def _check_dates(index: int, kind: str, received: date | None, sent: date | None, as_of: date) -> None:
    if received is not None and received > as_of:
        raise event_error(index, kind, "received_after_as_of", field="received_on", day=received, as_of=as_of)
    if sent is not None:
        if sent > as_of:
            raise event_error(index, kind, "sent_after_as_of", field="sent_on", day=sent, as_of=as_of)
        if received is not None and sent < received:
            raise event_error(index, kind, "sent_before_received", field="sent_on", sent=sent,
                              received=received)
