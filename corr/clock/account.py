"""Accounts: the calculator's result for one game as of one date."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from .charging import LedgerLine, LedgerRow, PlayerCharges, charge_rows, ledger_line
from .control import ControlState, ControlWindow, CumulativeMovesControl, Overstep, SystemControl, TimeControl
from .counts import DAY_SECONDS, Count, end_of, local_date, moment_text, rfc3339, start_of
from .errors import clock_error, ruleset_error
from .events import Game
from .flagtime import fallen_at
from .rules import Ruleset


@dataclass(init=False, unsafe_hash=True, slots=True)
class Account:
    """One player's time as of a date: used, left, deadline and flags."""

    player: str
    start: date
    made: int
    on_move: bool
    """True when the player has a pending move (the partner's move received, no reply sent)."""
    thinking_days: int
    penalty_days: int
    delay_days: int
    total_days: int
    control: ControlWindow
    deadline: date | None
    time_trouble: bool
    """50.4.12: days left in the current control <= time_trouble_days: registered mail required."""
    overstepped: Overstep | None
    next_charge_number: int
    clock: dict | None = None
    """The time-control system's own state; None under the default 50.4 control."""
    flag_at: datetime | None = None
    """The instant (UTC) the pending move is over its time if not sent before it; under ``dates`` 00:00
    of the day after ``deadline`` in the game's zone; None when ``deadline`` is None."""
    remaining_seconds: int = 0
    """The time left as of the as-of instant, the running move counted: until ``flag_at`` for a player
    on move, what their next move may take for the other; 0 once the flag fell."""
    credit_days: int = 0
    """Time given back (credits), in whole days: taken off ``total_days`` (the seconds are in the ledger)."""

    def __init__(
        self,
        player: str,
        start: date,
        made: int,
        on_move: bool,
        thinking_days: int,
        penalty_days: int,
        delay_days: int,
        total_days: int,
        control: ControlWindow,
        deadline: date | None,
        time_trouble: bool,
        overstepped: Overstep | None,
        next_charge_number: int,
        clock: dict | None = None,
        flag_at: datetime | None = None,
        remaining_seconds: int = 0,
        credit_days: int = 0,
    ) -> None:
        # Written out rather than generated: a dataclass's generated __init__ runs as interpreted code
        # even in the compiled build, at ~150 ns a field (issue 13).
        self.player = player
        self.start = start
        self.made = made
        self.on_move = on_move
        self.thinking_days = thinking_days
        self.penalty_days = penalty_days
        self.delay_days = delay_days
        self.total_days = total_days
        self.control = control
        self.deadline = deadline
        self.time_trouble = time_trouble
        self.overstepped = overstepped
        self.next_charge_number = next_charge_number
        self.clock = clock
        self.flag_at = flag_at
        self.remaining_seconds = remaining_seconds
        self.credit_days = credit_days

    @property
    def remaining_days(self) -> int:
        return self.control.remaining_days

    def as_json(self) -> dict:
        return {
            "start": moment_text(self.start),
            "made": self.made,
            "on_move": self.on_move,
            "thinking_days": self.thinking_days,
            "penalty_days": self.penalty_days,
            "delay_days": self.delay_days,
            "total_days": self.total_days,
            "control": self.control.as_json(),
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "time_trouble": self.time_trouble,
            "overstepped": None if self.overstepped is None else self.overstepped.as_json(),
            "flag_at": rfc3339(self.flag_at),
            "remaining_seconds": self.remaining_seconds,
        } | ({} if self.clock is None else {"clock": self.clock}) | (
            {"credit_days": self.credit_days} if self.credit_days else {})  # only once time was given back


@dataclass(init=False, unsafe_hash=True)
class GameClock:
    """The calculator's result: every player's account and the ledger that explains them.

    The ledger is built on first use (a second pass over the events): the
    nightly job and the stored clocks need the accounts only.
    """

    as_of: date
    accounts: dict[str, Account]
    ruleset: Ruleset
    game: Game = field(repr=False, compare=False)
    rows: tuple[LedgerRow, ...] | None = field(default=None, repr=False, compare=False)
    """The ledger's rows when they were built with the accounts (``compute(..., with_ledger=True)``)."""
    lines: tuple[LedgerLine, ...] | None = field(default=None, repr=False, compare=False)
    """The ledger once asked for."""
    vacation: dict[str, dict] | None = field(default=None, repr=False, compare=False)
    """Each player's vacation (allowance left, vacations taken) under a ruleset with vacation (issue 40)."""

    def __init__(
        self,
        as_of: date,
        accounts: dict[str, Account],
        ruleset: Ruleset,
        game: Game,
        rows: tuple[LedgerRow, ...] | None = None,
        lines: tuple[LedgerLine, ...] | None = None,
    ) -> None:
        self.as_of = as_of
        self.accounts = accounts
        self.ruleset = ruleset
        self.game = game
        self.rows = rows
        self.lines = lines
        self.vacation = None

    @property
    def ledger(self) -> tuple[LedgerLine, ...]:
        """The ledger, built on first use and kept (plain attributes rather than a ``cached_property``:
        compiled classes have no ``__dict__``)."""
        lines = self.lines
        if lines is None:
            lines = self.lines = tuple([ledger_line(row) for row in self.ledger_rows])
        return lines

    @property
    def ledger_rows(self) -> tuple[LedgerRow, ...]:
        """The ledger's lines as plain tuples in :class:`LedgerLine`'s field order (what a printer needs)."""
        rows = self.rows
        if rows is None:
            rows = self.rows = tuple(charge_rows(self.game, self.as_of, ledger=True)[1])
        return rows

    def as_json(self) -> dict:
        """The JSON of ``manage.py clock --json`` for one game."""
        return {
            "as_of": rfc3339(self.as_of) if isinstance(self.as_of, datetime) else self.as_of.isoformat(),
            "players": {pid: account.as_json() | ({} if self.vacation is None else {"vacation": self.vacation[pid]})
                        for pid, account in self.accounts.items()},
            "ledger": [line.as_json() for line in self.ledger],
        }


def control_for(ruleset: Ruleset) -> TimeControl:
    """The time-control system a ruleset asks for (50.4.3 unless it names another)."""
    if ruleset.time_control is not None:
        if ruleset.is_live:
            # Issue 16: the 50.4 charging layer counts whole days only; a live game has its own clock.
            raise ruleset_error("live_unit", field="ruleset.time_control.unit")
        return SystemControl(ruleset.time_control)
    return CumulativeMovesControl(ruleset.moves_per_control, ruleset.days_per_control)


def compute(game: Game, as_of: date, *, with_ledger: bool = False) -> GameClock:
    """Compute every player's account of ``game`` as of ``as_of``.

    Linear in the number of events. Pure: the date is a parameter, nothing is
    read from the clock or stored. ``with_ledger`` builds the ledger in the
    same pass (for callers that print it); otherwise it is built on first use.

    ``as_of`` is a date or an instant (an aware datetime). Under ``dates`` an instant is read as its
    date in the game's zone (its seconds still count in ``remaining_seconds``); under ``whole_days``
    and ``exact`` a date means the end of that date.

    :raises EventError: for the first malformed or out-of-sequence event.
    :raises ClockError: naming the player when a deadline would fall after 9999-12-31
        (``date.max``), or a late start notice's start would.
    """
    rules = game.ruleset
    if rules.vacation is not None or rules.pauses_per_game is not None or rules.gifts is not None:
        return _compute_with_allowances(game, as_of, with_ledger)
    return _compute(game, as_of, with_ledger)


def _compute_with_allowances(game: Game, as_of: date, with_ledger: bool) -> GameClock:
    """:func:`compute` of a game under a ruleset with vacation, pauses or gifts (issue 40): the vacations
    and pauses checked (:mod:`corr.clock.vacation`), the gifts' bounds (:mod:`corr.clock.gifts`), the
    automatic vacations derived from the flags; each account then says its vacation."""
    from .gifts import check_gifts
    from .vacation import prepare, vacation_json, with_automatic_vacation

    game = prepare(game)
    check_gifts(game, lambda g, at: {p: a.remaining_seconds for p, a in _compute(g, at, False).accounts.items()})
    game = with_automatic_vacation(game, lambda g: {p: a.overstepped for p, a in _compute(g, as_of, False)
                                                    .accounts.items()})
    clock = _compute(game, as_of, with_ledger)
    if game.ruleset.vacation is not None and isinstance(clock.as_of, datetime):
        clock.vacation = {p.id: vacation_json(game, p, clock.as_of) for p in game.players}
    return clock


def _compute(game: Game, as_of: date, with_ledger: bool) -> GameClock:
    count = game.ruleset.count
    if count is Count.DATES:
        moment: datetime | None = as_of if isinstance(as_of, datetime) else None
        if moment is not None:
            as_of = local_date(moment, game.time_zone)
    else:
        if not isinstance(as_of, datetime):
            as_of = end_of(as_of, game.time_zone)
        moment = as_of
    charges, rows = charge_rows(game, as_of, ledger=with_ledger)
    control = control_for(game.ruleset)
    trouble_days = game.ruleset.time_trouble_days
    for pid, c in charges.items():  # ICCF Playing Rules 3b: a "Use 40+ days" notice lifts the limit of its move
        c.unlimited_moves = tuple(number for player, number in game.long_moves if player == pid)
    accounts = {pid: _account(c, _fold(control, c), trouble_days, game, control, as_of, moment)
                for pid, c in charges.items()}
    return GameClock(as_of=as_of, accounts=accounts, ruleset=game.ruleset, game=game,
                     rows=tuple(rows) if with_ledger else None)  # with_ledger: no second pass


def _fold(control: TimeControl, c: PlayerCharges):
    try:
        return control.fold(c)
    except OverflowError:  # the deadline is a date plus days: past date.max it does not exist
        field = f"players.{c.player}.deadline"
        raise clock_error("deadline_after_last_date", field=field, player=c.player, last=date.max) from None


def _account(c: PlayerCharges, state: ControlState, trouble_days: int, game: Game, control: TimeControl,
             as_of: date, moment: datetime | None) -> Account:
    window, overstepped, deadline = state.window, state.overstepped, state.deadline
    thinking, penalty, delay, credit = c.thinking_days, c.penalty_days, c.delay_days, c.credit_days
    zone = game.time_zone
    dates = c.count is Count.DATES
    if dates:
        flag_at = None if deadline is None else _day_start(deadline + timedelta(days=1), zone)
    else:
        flag_at = state.flag_at
        if flag_at is not None:
            deadline = local_date(flag_at - timedelta(seconds=1), zone)  # the last date a move is in time
    if c.pending is None:
        remaining_seconds = state.next_move_seconds
    elif flag_at is None:
        remaining_seconds = 0
    elif dates and moment is None:
        # Under dates the as-of date is counted whole: "as of" is its end, the flag a whole number of days on.
        assert deadline is not None  # a flag_at under dates is the day after the deadline
        remaining_seconds = max(0, (deadline - as_of).days) * DAY_SECONDS
    else:
        assert moment is not None
        remaining_seconds = max(0, _seconds(flag_at - moment))
    if overstepped is not None:
        overstepped = overstepped.fallen_at(_fallen(game, c, overstepped, control))
        if state.rival is not None and overstepped.at is not None:
            rival = state.rival.fallen_at(_fallen(game, c, state.rival, control))
            if rival.at is not None and rival.at < overstepped.at:  # the flag that fell first in time stands
                overstepped = rival
    if c.count is Count.EXACT:  # the account's day fields in whole days; the seconds are said beside them
        # A day of the control: 86,400 counted seconds, or Dragon Go Server's 15 counted hours.
        rules_control = game.ruleset.time_control
        day = DAY_SECONDS if rules_control is None else rules_control.day_seconds
        thinking, penalty, delay = thinking // day, penalty // day, delay // day
        credit = credit // day
        window = ControlWindow(window.number, window.through_move, window.allowed_days // day,
                               window.remaining_days // day)
        if overstepped is not None:
            overstepped = Overstep(overstepped.control, overstepped.through_move,
                                   overstepped.allowed_days // day, -(-overstepped.used_days // day),
                                   overstepped.reason, overstepped.at)
    return Account(
        player=c.player, start=c.start, made=c.made, on_move=c.pending is not None,
        thinking_days=thinking, penalty_days=penalty, delay_days=delay,
        total_days=thinking + penalty + delay - credit, control=window, deadline=deadline,
        time_trouble=window.remaining_days <= trouble_days,
        overstepped=overstepped, next_charge_number=c.next_charge_number, clock=state.clock,
        flag_at=flag_at, remaining_seconds=remaining_seconds, credit_days=credit,
    )


def _fallen(game: Game, c: PlayerCharges, over: Overstep, control: TimeControl) -> datetime | None:
    """When ``over`` fell (:mod:`corr.clock.flagtime`), told which kind of control was exceeded."""
    limit = None
    whole_control = None
    if isinstance(control, CumulativeMovesControl):
        n = control.moves_per_control
        whole_control = ((over.control - 1) * n + 1, over.through_move, True)
    elif isinstance(control, SystemControl):
        time_control = control.time_control
        limit = time_control.max_per_move
        system = time_control.system
        if over.reason is None and not system.by_move and hasattr(system, "stage_of"):
            # Plain stages: a stage of N moves is exceeded as a whole (its last move named), the rest of
            # the game on the move itself, with the stage's whole allowance: walked either way.
            _, first, _, _ = system.stage_of(over.through_move)
            whole_control = (first, over.through_move, system.cumulative)
    return fallen_at(game, c, over, whole_control=whole_control, limit=limit, per_move=c.charges)


def _seconds(delta: timedelta) -> int:
    return delta.days * DAY_SECONDS + delta.seconds


def _day_start(day: date, zone: str) -> datetime:
    """00:00 of ``day`` in ``zone`` (UTC without a zone lookup: the default, and every bench game)."""
    if zone == "UTC":
        return datetime(day.year, day.month, day.day, tzinfo=UTC)
    return start_of(day, zone)
