"""A live game's clock: the events walked in time order, each move's milliseconds folded by the system.

:func:`live_clock` is the one entry point. Pure and deterministic: the same ruleset, events and
``now_ms`` give the same :class:`LiveClock`, whether computed as the events happened or replayed later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import ClockError
from .events import LiveEvent

if TYPE_CHECKING:
    from ..rules import Ruleset


@dataclass(frozen=True, slots=True)
class LivePlayer:
    """One side's clock at ``now_ms``."""

    remaining_ms: int
    """Milliseconds until the flag falls if this side's clock runs from now (0 once it fell)."""
    flag_fallen: bool
    flag_at_ms: int | None
    """The instant the flag fell (None while it stands)."""
    state: dict[str, Any]
    """The system's own fields in ms (byo-yomi ``periods_left``, ``period_ms``; ``stage``; ``main_ms``...)."""
    moves_made: int = 0
    lag_quota_ms: int = 0
    """Lag compensation still available to the next move (:mod:`corr.clock.live.lag`)."""

    def as_json(self) -> dict[str, Any]:
        return {"remaining_ms": self.remaining_ms, "flag_fallen": self.flag_fallen, "flag_at_ms": self.flag_at_ms,
                "moves_made": self.moves_made, "lag_quota_ms": self.lag_quota_ms, **self.state}


@dataclass(frozen=True, slots=True)
class LiveLedgerLine:
    """What one event did to the clocks, for ``manage.py clock`` and the game's history."""

    index: int
    """The event's position in the list (-1 for a flag, which is derived, not an event)."""
    kind: str
    at_ms: int
    player: str | None
    charged_ms: int = 0
    """Milliseconds charged to ``player``'s move (a move: thinking less lag compensation; an adjustment:
    minus its delta)."""
    remaining_ms: int | None = None
    """``player``'s clock just after the event."""
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "at_ms": self.at_ms, "player": self.player,
                "charged_ms": self.charged_ms, "remaining_ms": self.remaining_ms, "note": self.note}


@dataclass(frozen=True, slots=True)
class LiveClock:
    """Both clocks of a live game at ``now_ms``, and what the rules made of the events."""

    now_ms: int
    running: str | None
    """The side whose clock runs now; None before the start, while paused."""
    paused: bool
    to_move: str
    """The side to move (its clock runs unless paused or not started)."""
    players: dict[str, LivePlayer]
    next_flag_at_ms: int | None
    """The instant the running side's flag falls if nothing else happens (before the start: the first
    mover's); None when no clock runs or it already fell."""
    flags: tuple[tuple[str, int, int, int], ...] = ()
    """``(player, at_ms, control, move)`` for every flag fallen, in order of fall."""
    both_fallen_order_unknown: bool = False
    """002 6.11: both flags fell and which first cannot be told (the same millisecond): play on."""
    illegal_counts: dict[str, int] = field(default_factory=dict)
    forfeit: dict[str, str] | None = None
    """``{"player", "reason": "illegal_moves"|"late_arrival", "rule", "at_ms"}`` or None."""
    late_arrival_deadline_ms: int | None = None
    """When the side to move loses by late arrival if it has not moved (002 6.6, 003 12.7); None once
    both have moved or while no clock runs."""
    started_at_ms: int | None = None
    ledger: tuple[LiveLedgerLine, ...] = ()

    @property
    def next_check_at_ms(self) -> int | None:
        """The next instant the rules act with nobody pressing: a flag or a late-arrival deadline."""
        times = [t for t in (self.next_flag_at_ms, self.late_arrival_deadline_ms) if t is not None]
        return min(times) if times else None

    def as_json(self) -> dict[str, Any]:
        return {
            "now_ms": self.now_ms, "running": self.running, "paused": self.paused, "to_move": self.to_move,
            "players": {side: p.as_json() for side, p in self.players.items()},
            "next_flag_at_ms": self.next_flag_at_ms,
            "flags": [{"player": p, "at_ms": at, "control": c, "move": m} for p, at, c, m in self.flags],
            "both_fallen_order_unknown": self.both_fallen_order_unknown,
            "illegal_counts": dict(self.illegal_counts), "forfeit": self.forfeit,
            "late_arrival_deadline_ms": self.late_arrival_deadline_ms, "started_at_ms": self.started_at_ms,
            "next_check_at_ms": self.next_check_at_ms,
        }


def live_clock(ruleset: "Ruleset", events: Sequence[LiveEvent], now_ms: int) -> LiveClock:
    """Both clocks of a live game at ``now_ms``, computed from its events alone.

    ``ruleset.time_control`` must have ``"unit": "seconds"``. ``events`` are in time order (each at or
    after the one before; a :class:`LiveGap` is ordered by its start and the next event is at or after
    its end) and none after ``now_ms``; the first is the one :class:`LiveStart`.

    Rules kept: a move counts once pressed, and a flag at the press is an overstep (000 12.9); a move
    pressed after its player's flag fell is a flag and earns nothing; lag is compensated within a quota;
    the arbiter's pause, resume, adjustments and illegal moves; late arrival; service gaps are no one's
    time.

    :raises RulesetError: when the ruleset has no time control in seconds.
    :raises EventError: naming the event and field: a move by the side not to move or with the wrong
        number, a move while paused, a resume while not paused, an event out of time order, a
        shortening correction leaving less than ``min_after_correction_seconds``.
    :raises ClockError: when ``now_ms`` is before the last event.
    """
    raise ClockError("live_clock is not implemented yet")
