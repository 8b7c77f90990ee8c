"""Accounts: the calculator's result for one game as of one date."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from .charging import LedgerLine, LedgerRow, PlayerCharges, charge_rows, ledger_line
from .control import ControlWindow, CumulativeMovesControl, Overstep, SystemControl, TimeControl
from .errors import ClockError, RulesetError
from .events import Game
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

    @property
    def remaining_days(self) -> int:
        return self.control.remaining_days

    def as_json(self) -> dict:
        return {
            "start": self.start.isoformat(),
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
        } | ({} if self.clock is None else {"clock": self.clock})


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
            "as_of": self.as_of.isoformat(),
            "players": {pid: account.as_json() for pid, account in self.accounts.items()},
            "ledger": [line.as_json() for line in self.ledger],
        }


def control_for(ruleset: Ruleset) -> TimeControl:
    """The time-control system a ruleset asks for (50.4.3 unless it names another)."""
    if ruleset.time_control is not None:
        if ruleset.is_live:
            # Issue 16: the 50.4 charging layer counts whole days only; a live game has its own clock.
            raise RulesetError("ruleset.time_control.unit seconds is a live clock: the correspondence"
                               " calculator counts days (use corr.clock.live)", field="ruleset.time_control.unit")
        return SystemControl(ruleset.time_control)
    return CumulativeMovesControl(ruleset.moves_per_control, ruleset.days_per_control)


def compute(game: Game, as_of: date, *, with_ledger: bool = False) -> GameClock:
    """Compute every player's account of ``game`` as of ``as_of``.

    Linear in the number of events. Pure: the date is a parameter, nothing is
    read from the clock or stored. ``with_ledger`` builds the ledger in the
    same pass (for callers that print it); otherwise it is built on first use.

    :raises EventError: for the first malformed or out-of-sequence event.
    :raises ClockError: naming the player when a deadline would fall after 9999-12-31
        (``date.max``), or a late start notice's start would.
    """
    charges, rows = charge_rows(game, as_of, ledger=with_ledger)
    control = control_for(game.ruleset)
    trouble_days = game.ruleset.time_trouble_days
    accounts = {pid: _account(c, _fold(control, c), trouble_days) for pid, c in charges.items()}
    return GameClock(as_of=as_of, accounts=accounts, ruleset=game.ruleset, game=game,
                     rows=tuple(rows) if with_ledger else None)  # with_ledger: no second pass


def _fold(control: TimeControl, c: PlayerCharges):
    try:
        return control.fold(c)
    except OverflowError:  # the deadline is a date plus days: past date.max it does not exist
        field = f"players.{c.player}.deadline"
        raise ClockError(f"{field}: {c.player}'s deadline would fall after {date.max}, the last date there is "
                         "(check the official start, the events' dates and the ruleset's days)",
                         field=field) from None


def _account(c: PlayerCharges, state, trouble_days: int) -> Account:
    return Account(
        player=c.player, start=c.start, made=c.made, on_move=c.pending is not None,
        thinking_days=c.thinking_days, penalty_days=c.penalty_days, delay_days=c.delay_days,
        total_days=c.total_days, control=state.window, deadline=state.deadline,
        time_trouble=state.window.remaining_days <= trouble_days,
        overstepped=state.overstepped, next_charge_number=c.next_charge_number, clock=state.clock,
    )
