"""The facts of a game: moves, notices, penalties, delays and credits, as recorded.

Events are immutable values. They carry only what happened; every day count is
derived from them by :mod:`corr.clock.charging`. They are named tuples rather
than frozen dataclasses because a federation's batch holds millions of them and
a named tuple is built about three times faster; the other values stay
dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple
from datetime import date
from enum import Enum

from .calendar import DateRange
from .personal import PlayerCalendar, Span
from .rules import Ruleset


class Variant(str, Enum):
    """How a move taken from a conditional variant was played (50.4.8)."""

    ACCEPTED = "accepted"
    """The receiver's move taken from the partner's variant; their time is counted on it."""
    CONDITIONAL = "conditional"
    """The proposer's own move played automatically; costs nothing."""


class NoticeReason(str, Enum):
    """Why a player answered with a notice instead of a move (50.4.7)."""

    IMPOSSIBLE_MOVE = "impossible_move"
    """50.4.7: the partner sent an impossible move."""
    ILLEGIBLE_MOVE = "illegible_move"
    """50.4.7: the partner's move could not be read."""
    REPEAT = "repeat"
    """50.4.7: answering the partner's repeated move by repeating one's own previous move."""


class PenaltyReason(str, Enum):
    """Faults that delay the game and cost penalty days (50.4.9)."""

    IMPOSSIBLE_MOVE = "impossible_move"
    """50.4.9.1: sending an impossible move."""
    ILLEGIBLE_MOVE = "illegible_move"
    """50.4.9.1: sending an illegible move."""
    WRONG_REPETITION = "wrong_repetition"
    """50.4.9.2: repeating the partner's move wrongly."""
    UNREGISTERED_MAIL = "unregistered_mail"
    """50.4.9.3: not sending by registered mail when the arbiter or the rules require it."""
    ADDRESS_ERROR = "address_error"
    """50.4.9.4: an error in the address."""


class DelayReason(str, Enum):
    """Why the arbiter added a delay to a player's time (50.4.11)."""

    LATE_REPEAT = "late_repeat"
    """50.4.11: a repeated move sent late; its whole delay is added."""


class Move(NamedTuple):
    """A player's move, numbered 1, 2, 3 ... in that player's own sequence.

    ``received_on`` is the date the partner's move being answered arrived
    (``None`` only on the player's first move: the player's start is used).
    ``sent_on`` ``None`` means the move is pending: its clock is running.
    Under the ``whole_days`` and ``exact`` counts both are instants (aware datetimes, the game
    file's ``received_at`` / ``sent_at``).
    """

    player: str
    number: int
    received_on: date | None = None
    sent_on: date | None = None
    void: bool = False
    variant: Variant | None = None

    @property
    def type(self) -> str:
        """The event's kind as a game file writes it (a property: a named tuple's class attributes are
        not typed, and the compiled calculator is type-checked)."""
        return "move"

    @property
    def pending(self) -> bool:
        return self.sent_on is None and self.variant is None


class Notice(NamedTuple):
    """A notice of an impossible/illegible move, or the repeat of one's own move (50.4.7).

    ``move`` is the player's move number that the counted days are charged to.
    """

    player: str
    move: int
    reason: NoticeReason
    received_on: date
    sent_on: date

    @property
    def type(self) -> str:
        """The event's kind as a game file writes it (a property: a named tuple's class attributes are
        not typed, and the compiled calculator is type-checked)."""
        return "notice"


class Penalty(NamedTuple):
    """A penalty for a fault of 50.4.9; its days follow from the game's earlier penalties."""

    player: str
    move: int
    reason: PenaltyReason

    @property
    def type(self) -> str:
        """The event's kind as a game file writes it (a property: a named tuple's class attributes are
        not typed, and the compiled calculator is type-checked)."""
        return "penalty"


class Delay(NamedTuple):
    """A delay of the game the arbiter determined, added whole to the player's time (50.4.11)."""

    player: str
    move: int
    days: int
    reason: DelayReason = DelayReason.LATE_REPEAT

    @property
    def type(self) -> str:
        """The event's kind as a game file writes it (a property: a named tuple's class attributes are
        not typed, and the compiled calculator is type-checked)."""
        return "delay"


class Credit(NamedTuple):
    """Time given back to a player, taken off what is charged to ``move`` (the inverse of a penalty).

    Not a rule of 50.4, which only charges: corr models what the servers and federations do. ICCF's
    tournament directors credit days after a server outage; lichess's "+" gives the opponent time; Dragon
    Go Server lets the opponent add days. The credit changes no rule: the control, its days and its
    moves stay; only the amount charged to ``move`` (by default the player's current one) is smaller,
    so the time left in that control is larger. ``days`` are whole days of the control; ``seconds``
    (only under the ``exact`` count, where the clock has seconds) are added to them.
    """

    player: str
    move: int
    days: int = 0
    seconds: int = 0

    @property
    def type(self) -> str:
        """The event's kind as a game file writes it (a property: a named tuple's class attributes are
        not typed, and the compiled calculator is type-checked)."""
        return "credit"


class Gift(NamedTuple):
    """Time the opponent gave ``player`` at the instant ``at`` (issue 40): taken off what is charged to the
    player's move in hand then, charged to no one, so that the player's flag moves by exactly ``days``.

    lichess's "+" (``giveTime``: a day, while the time left is under the increment less an hour,
    ``moretimeable``); Dragon Go Server's "add time" (up to 14 days, ``GameAddTime::add_time``). The bound of
    each server is the ruleset's ``gifts`` rule (:mod:`corr.clock.gifts`), checked against the clock at ``at``.
    ``at`` is a date under the ``dates`` count.
    """

    player: str
    at: date
    days: int
    reset_byoyomi: bool = False
    """Dragon Go Server's "reset byo-yomi" (``GameAddTime::add_time($add_hours, $reset_byo)``): the receiver's
    byo-yomi periods are restored in full; ``days`` may then be 0. Ignored by systems without byo-yomi (DGS
    ignores it under Fischer time)."""

    @property
    def type(self) -> str:
        """The event's kind as a game file writes it."""
        return "gift"


Event = Move | Notice | Penalty | Delay | Credit | Gift


@dataclass(frozen=True, slots=True)
class Player:
    """A player of a game: an id (``white``, ``black`` or a name), the late-notice date (50.4.6), leave."""

    id: str
    notice_received_on: date | None = None
    leave: tuple[DateRange, ...] = ()
    """The player's own days that do not count (both ends included); see :mod:`corr.clock.calendar`."""
    calendar: PlayerCalendar | None = None
    """The player's own weekend and night, in their zone (:mod:`corr.clock.personal`); None: none."""
    vacation: tuple[Span, ...] = ()
    """The player's vacation, booked or automatic (instants), in order."""
    allowance_hours: int | None = None
    """The player's vacation allowance at the official start, in hours; None: the rule's initial amount."""
    pauses: tuple[Span, ...] = ()
    """Stretches when the player's clock was paused (OGS), in order."""


@dataclass(frozen=True, slots=True)
class Game:
    """Everything the calculator needs about one game, apart from the "as of" date."""

    official_start: date
    """A date; an instant (aware datetime) under the ``whole_days`` and ``exact`` counts."""
    players: tuple[Player, Player]
    events: tuple[Event, ...]
    ruleset: Ruleset
    time_zone: str = "UTC"
    """The IANA zone whose calendar dates count: what a date means where an instant is read, the
    dates of ``dates`` read from instants, and the days of leave, holidays and weekends."""
    long_moves: tuple[tuple[str, int], ...] = ()
    """(player, move number) of each "Use 40+ days" notice (ICCF Playing Rules 3b): the limit for one move
    (``max_per_move``) does not apply to that move; its time is charged as usual."""

