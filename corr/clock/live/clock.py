"""A live game's clock: the events walked in time order, each move's milliseconds folded by the system.

:func:`live_clock` is the one entry point. Pure and deterministic: the same ruleset, events and
``now_ms`` give the same :class:`LiveClock`, whether computed as the events happened or replayed later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import ClockError, EventError, RulesetError
from ..systems.base import SystemState, carry_from_json, carry_json
from ..units import Unit
from .events import (
    LiveAdjust, LiveEvent, LiveExcuse, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart,
)
from .lag import LagQuota
from .grace import flag_grace_ms, forgiven_overrun_ms
from .handicap import handicap_error, placing
from .rules import SIDES, LiveRules

if TYPE_CHECKING:
    from ..rules import Ruleset


PLAYER_FIELDS = ("remaining_ms", "used_ms", "flag_fallen", "flag_at_ms", "moves_made", "lag_quota_ms")
"""A player's own clock fields, first in every mapping of a player (:meth:`LivePlayer.fields`)."""

SYSTEM_NAMES = {"remaining_ms": "stage_remaining_ms", "used_ms": "stage_used_ms", "allowed_ms": "stage_allowed_ms"}
"""The system fields renamed beside a player's own (issue 24): the stages of ``periods`` report their own
``remaining``, ``used`` and ``allowed``, which are the stage's (below zero once its flag fell, the whole
stage under a per-move limit), not the player's clock."""


def system_fields(state: dict[str, Any]) -> dict[str, Any]:
    """A system's state (named in ms) as it stands beside a player's own fields: never one of their names."""
    named = {SYSTEM_NAMES.get(k, k): v for k, v in state.items()}
    clash = set(named) & set(PLAYER_FIELDS)
    if clash:  # a system that reports a player's field under its own name must be given a name here
        raise ValueError(f"system fields {sorted(clash)} would overwrite the player's own")
    return named


@dataclass(frozen=True, slots=True)
class LivePlayer:
    """One side's clock at ``now_ms``."""

    remaining_ms: int
    """Milliseconds until the flag falls if this side's clock runs from now (0 once it fell)."""
    flag_fallen: bool
    flag_at_ms: int | None
    """The instant the flag fell (None while it stands)."""
    state: dict[str, Any]
    """The system's own fields in ms (byo-yomi ``periods_left``, ``period_ms``; ``stage``; ``main_ms``...),
    named by :func:`system_fields`: none has the name of a field of the player's own."""
    moves_made: int = 0
    lag_quota_ms: int = 0
    """Lag compensation still available to the next move (:mod:`corr.clock.live.lag`)."""
    used_ms: int = 0
    """Milliseconds this player's clock has run: each completed move's thinking less its lag compensation,
    and the move in hand so far; up to the flag once it fell. Arbiter adjustments and the system's
    increments are not in it (they are the system's, in ``state``)."""

    def fields(self) -> dict[str, Any]:
        """The one mapping of a player's clock (issue 24): the player's own fields, then the system's beside
        them. ``manage.py clock`` prints it, ``--json``, the API and the WebSocket send it."""
        own = {"remaining_ms": self.remaining_ms, "used_ms": self.used_ms, "flag_fallen": self.flag_fallen,
               "flag_at_ms": self.flag_at_ms, "moves_made": self.moves_made, "lag_quota_ms": self.lag_quota_ms}
        return {**own, **system_fields(self.state)}

    def as_json(self) -> dict[str, Any]:
        return self.fields()


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
    """When the side to move loses by late arrival if it has not moved (002 6.6, 003 12.7): the first
    millisecond past the allowed lateness, ``late_arrival_seconds`` of its own clock; None once both have
    moved or while no clock runs."""
    started_at_ms: int | None = None
    ledger: tuple[LiveLedgerLine, ...] = ()
    ended_by_move: dict[str, Any] | None = None
    """``{"player", "number", "at_ms"}`` of the move that ended the game (002 6.7 a: a mate, a stalemate, a
    draughts move leaving the partner no move): no clock runs after it. None otherwise."""
    handicap_stones_left: int = 0
    """Free handicap stones black has still to place (issue 40, :mod:`corr.clock.live.handicap`): while more than
    0, black is on move and no clock runs."""
    snapshot: dict[str, Any] | None = field(default=None, compare=False)
    """The engine's state just after the last event (JSON; before running on to ``now_ms``): given back to
    :func:`live_clock` with the events after it, it gives the clock that the replay of them all gives."""

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
            "next_check_at_ms": self.next_check_at_ms, "ended_by_move": self.ended_by_move,
            "handicap_stones_left": self.handicap_stones_left,
        }


def live_clock(ruleset: "Ruleset", events: Sequence[LiveEvent], now_ms: int,
               snapshot: dict[str, Any] | None = None) -> LiveClock:
    """Both clocks of a live game at ``now_ms``, computed from its events alone.

    ``ruleset.time_control`` must have ``"unit": "seconds"``. ``events`` are in time order (each at or
    after the one before; a :class:`LiveGap` is ordered by its start and the next event is at or after
    its end); the first is the one :class:`LiveStart`, which alone may lie after ``now_ms`` (a game not
    yet begun).

    ``snapshot``: :attr:`LiveClock.snapshot` of an earlier computation with the same ruleset; ``events``
    are then only those after it, and the clock is the same as the replay of every event (issue 27: a
    press folds one event, whatever the length of the game; ``tests/clock/test_live_snapshot.py``). The
    ledger then has the lines of ``events`` only.

    Rules kept: a move counts once pressed, and a flag at the press is an overstep (000 12.9); a move
    pressed after its player's flag fell is a flag and earns nothing; lag is compensated within a quota;
    the arbiter's pause, resume, adjustments and illegal moves; late arrival; service gaps are no one's
    time. A flag that fell stays fallen; forfeits and flags are reported, and the game goes on being
    counted: ending it is the service's (or the arbiter's) decision.

    :raises RulesetError: when the ruleset has no time control in seconds.
    :raises EventError: naming the event and field: a move by the side not to move or with the wrong
        number, a move while paused, a resume while not paused, an event out of time order, a
        shortening correction leaving less than ``min_after_correction_seconds``.
    :raises ClockError: when ``now_ms`` is before an event.
    :raises SnapshotMismatch: a ``snapshot`` of another time control (or not one at all).
    """
    control = ruleset.time_control
    if control is None or control.unit is not Unit.SECONDS:
        raise RulesetError("a live clock needs ruleset.time_control with unit seconds",
                           field="ruleset.time_control.unit")
    if isinstance(now_ms, bool) or not isinstance(now_ms, int):
        raise ClockError(f"now_ms must be whole milliseconds, got {now_ms!r}", field="now_ms")
    walk = _Walk(control, control.live or LiveRules())
    first = 0
    if snapshot is not None:
        walk.restore(snapshot)
        first = walk.last_index + 1
    for index, event in enumerate(events, start=first):
        walk.apply(index, event, now_ms)
    if walk.start is None:
        raise ClockError("a live game begins with its start event", field="events")
    kept = walk.snapshot()
    if now_ms < walk.last:
        if walk.last_index == 0:  # only the start lies ahead: the game has not begun
            return walk.result(now_ms, kept, before_start=True)
        raise ClockError(f"now_ms {now_ms} is before event {walk.last_index} (at {walk.last})", field="now_ms")
    walk.advance(now_ms)
    return walk.result(now_ms, kept)


class SnapshotMismatch(ValueError):
    """A snapshot that is not this engine's state under this time control: replay every event instead."""


SNAPSHOT_FORMAT = 1
"""The version of :meth:`_Walk.snapshot`'s JSON: a stored snapshot of another version is replayed instead."""

@lru_cache(maxsize=256)
def control_json(control) -> dict[str, Any]:
    """``control.as_json()``, computed once per time control (a snapshot names the control it was taken under).
    Shared: read it, never change it."""
    return control.as_json()


_SIDE_FIELDS = ("made", "adjust", "elapsed", "quota", "main_floor", "used", "used_at_flag", "flag_at",
                "flag_control", "illegal", "excused")


_KINDS = {LiveStart: "start", LiveMove: "move", LivePause: "pause", LiveResume: "resume", LiveAdjust: "adjust",
          LiveIllegal: "illegal", LiveGap: "gap", LiveExcuse: "excuse"}


@dataclass(slots=True)
class _Side:
    """One player's facts so far: the system's carry of the completed moves and the move in hand."""

    carry: Any
    """The system's fold of the completed moves (:meth:`corr.clock.systems.base.System.fold`): a press
    folds one move onto it, so a press costs the same at move 3,000 as at move 3 (issue 27)."""
    made: int = 0
    adjust: int = 0
    """Charged to the move in hand by the arbiter (negative: time added)."""
    elapsed: int = 0
    """Thinking time of the move in hand so far."""
    quota: int = 0
    """The lag quota left (:class:`corr.clock.live.lag.LagQuota`; its start is set by the walk)."""
    main_floor: int | None = None
    """The main time the move in hand started with, when time was added to it after that main time ran out
    (:meth:`_Walk.give`): the move is charged at least this."""
    used: int = 0
    """Thinking time of the completed moves less their lag compensation (the player's ``used_ms``)."""
    used_at_flag: int | None = None
    """What the clock had used when the flag fell: a fallen clock uses nothing more."""
    flag_at: int | None = None
    flag_control: int = 0
    illegal: int = 0
    excused: bool = False
    """The arbiter decided otherwise on this player's late arrival (002 6.6, 003 12.7)."""


class _Walk:
    """The events applied one by one; time between them runs on the clock of the side to move."""

    def __init__(self, control, rules: LiveRules) -> None:
        self.control = control
        self.system = control.system
        self.rules = rules
        self.lag = LagQuota.for_system(control.system)
        self.sides = {side: _Side(carry=self.system.begin(0), quota=self.lag.start_ms) for side in SIDES}
        self.to_move = rules.first
        self.start: int | None = None
        self.last = 0
        self.last_index = -1
        self.paused = False
        self.handicap = 0
        """Black's free handicap stones (:mod:`corr.clock.live.handicap`): its clock does not run while placing."""
        self.flags: list[tuple[str, int, int, int]] = []
        self.forfeit: dict | None = None
        self.ledger: list[LiveLedgerLine] = []
        self.ended: tuple[str, int, int] | None = None
        """(player, move number, instant) of the move that ended the game (002 6.7 a); no clock runs after."""

    # -- the clock between events --------------------------------------------------------------------
    def state(self, side: str, running_extra: int = 0) -> SystemState:
        """``side``'s system state, its move in hand charged what it has run (and ``running_extra`` more): one
        :meth:`System.view` of the carry, in constant time."""
        s = self.sides[side]
        return self.system.view(s.carry, s.elapsed + running_extra + s.adjust, s.adjust, ())

    def left(self, side: str) -> int:
        """Milliseconds until ``side``'s flag falls if its clock runs from the last instant."""
        s = self.sides[side]
        left = self.state(side).current_left
        limit = self.control.max_per_move
        if limit is not None:  # a single move over the limit oversteps, whatever the clock says
            left = min(left, limit - s.elapsed)
        return left

    def flag_grace(self, side: str) -> int:
        """Milliseconds the flag of ``side`` falls after its time runs out: the tournament's lag grace of byo-yomi
        periods (issue 40, OGS; :mod:`corr.clock.live.grace`) unless the limit for one move binds first."""
        s = self.sides[side]
        limit = self.control.max_per_move
        if limit is not None and limit - s.elapsed < self.state(side).current_left:
            return 0
        return flag_grace_ms(self.system, s.carry, self.rules.period_grace_ms)

    def placing(self, side: str) -> bool:
        """Whether ``side`` is on move to place a free handicap stone (:mod:`corr.clock.live.handicap`)."""
        return placing(self.handicap, side, self.sides["black"].made)

    def running(self) -> str | None:
        return None if self.start is None or self.paused or self.ended is not None else self.to_move

    def advance(self, t: int, ends_game: bool = False) -> None:
        """Let the clock of the side to move run from the last instant to ``t``: flags and late arrival
        that fall on the way are recorded at their own instant, not at ``t``. ``ends_game``: ``t`` is the
        instant of a move that ends the game, which a flag at that very instant does not overstep."""
        side = self.running()
        if side is not None and self.placing(side):  # issue 40: free handicap placement is not charged (OGS)
            side = None
        if side is not None and t > self.last:
            s = self.sides[side]
            if s.flag_at is None:
                fall = self.last + max(0, self.left(side)) + self.flag_grace(side)
                # 000 12.9: a flag at the very press is an overstep; 002 6.7 a: not for a move that ends the game.
                if fall < t or fall == t and not ends_game:
                    self.fall(side, fall)
            if s.made == 0 and self.forfeit is None and not s.excused:
                deadline = self.late_at(side)
                # A flag that fell first decided the game on time: late arrival adds nothing to it.
                if deadline <= t and (s.flag_at is None or s.flag_at > deadline):
                    self.forfeit = {"player": side, "reason": "late_arrival", "rule": _LATE_RULE[self.rules.first],
                                    "at_ms": deadline}
                    self.ledger.append(LiveLedgerLine(-1, "forfeit", deadline, side,
                                                      note=f"late arrival: more than"
                                                           f" {self.rules.late_arrival_ms} ms of own clock"
                                                           " without a move"))
            s.elapsed += t - self.last
        self.last = max(self.last, t)

    def late_at(self, side: str) -> int:
        """The instant ``side``, still without a move, loses by late arrival if its clock runs from the last
        instant: the first millisecond *past* the allowed lateness. 002 6.6 loses the player who arrives
        "avec plus d'une heure de retard", 003 12.7 the one late "более чем на половину основного контроля
        времени": arriving at exactly the hour (exactly half) is in time. (000 12.9's press at the flag's
        instant is an overstep, but that rule speaks of flags, not of arrival.)"""
        return self.last + self.rules.late_arrival_ms - self.sides[side].elapsed + 1

    def fall(self, side: str, at: int) -> None:
        s = self.sides[side]
        used = at - self.last  # the flag falls this far into the interval
        control = self.state(side, running_extra=used).window.number
        s.flag_at, s.flag_control = at, control
        s.used_at_flag = s.used + s.elapsed + used
        self.flags.append((side, at, control, s.made + 1))
        self.ledger.append(LiveLedgerLine(-1, "flag", at, side, remaining_ms=0,
                                          note=f"flag fell on move {s.made + 1}, control {control}"))

    # -- the events ----------------------------------------------------------------------------------
    def apply(self, index: int, event: LiveEvent, now_ms: int) -> None:
        kind = _KINDS.get(type(event))
        if kind is None:
            raise EventError(index, "?", f"not a live event: {event!r}")
        at = event.at_ms
        _instant(index, kind, at, "from_ms" if kind == "gap" else "at_ms")
        if kind == "start":
            if index != 0:
                raise EventError(index, kind, "a live game has one start, its first event", field="at_ms")
            self.start = self.last = at
            self.last_index = 0
            stones = event.handicap_stones if isinstance(event, LiveStart) else 0
            why = handicap_error(stones, self.rules.first)
            if why is not None:
                raise EventError(index, kind, why, field="handicap_stones")
            self.handicap = stones
            self.ledger.append(LiveLedgerLine(index, kind, at, self.to_move,
                                              remaining_ms=self.left(self.to_move),
                                              note=f"{self.to_move}'s clock starts"))
            return
        if self.start is None:
            raise EventError(index, kind, "the first event of a live game is its start", field="type")
        if self.ended is not None:
            player, number, _ = self.ended
            raise EventError(index, kind, f"the game ended with {player}'s move {number} (002 6.7 a): no event"
                             " follows it", field="type")
        if at < self.last:
            raise EventError(index, kind, f"{'from_ms' if kind == 'gap' else 'at_ms'} {at} is before the event"
                             f" before it ({self.last}): events are in time order", field="from_ms" if kind == "gap"
                             else "at_ms")
        end, name = (event.to_ms, "to_ms") if isinstance(event, LiveGap) else (at, "at_ms")
        if isinstance(end, int) and end > now_ms:
            raise EventError(index, kind, f"{name} {end} is after now ({now_ms})", field=name)
        self.last_index = index
        getattr(self, "_" + kind)(index, event)

    def _move(self, index: int, move: LiveMove) -> None:
        kind = "move"
        _side(index, kind, move.player)
        if self.paused:
            raise EventError(index, kind, "the clocks are paused (002 6.12): the arbiter resumes them first",
                             field="at_ms")
        if move.player != self.to_move:
            raise EventError(index, kind, f"{move.player} moved but {self.to_move} is to move", field="player")
        s = self.sides[move.player]
        if isinstance(move.number, bool) or not isinstance(move.number, int) or move.number != s.made + 1:
            raise EventError(index, kind, f"number must be {s.made + 1} ({move.player}'s next move), got"
                             f" {move.number!r}", field="number")
        if isinstance(move.lag_ms, bool) or not isinstance(move.lag_ms, int) or move.lag_ms < 0:
            raise EventError(index, kind, f"lag_ms must be whole milliseconds >= 0, got {move.lag_ms!r}",
                             field="lag_ms")
        if not isinstance(move.ends_game, bool):
            raise EventError(index, kind, f"ends_game must be true or false, got {move.ends_game!r}",
                             field="ends_game")
        self.advance(move.at_ms, ends_game=move.ends_game)
        if self.placing(move.player) and not move.ends_game:
            self._stone(index, move)
            return
        thinking = s.elapsed
        if move.ends_game:
            # 002 6.7 a, 003 12.8: the move that ends the game is complete without the press. Its clock stops
            # here as it stands (the move is not folded as pressed: no increment), and so does every clock.
            self.ended = (move.player, move.number, move.at_ms)
            self.ledger.append(LiveLedgerLine(index, "move", move.at_ms, move.player, charged_ms=thinking,
                                              remaining_ms=self.remaining(move.player),
                                              note=f"move {move.number}: thought {thinking} ms; it ends the game:"
                                                   " complete without the press, the clocks stop (002 6.7 a)"))
            return
        if s.flag_at is None:
            forgiven, s.quota = self.lag.compensate(move.lag_ms, s.quota)
            note = f"thought {thinking} ms, lag {move.lag_ms} ms, {forgiven} forgiven"
        else:  # pressed after the flag: a flag, not a move in time; nothing forgiven, nothing earned
            forgiven = 0
            note = f"thought {thinking} ms, after the flag (nothing forgiven or earned)"
        net = max(0, thinking - forgiven)  # scalachess: moveTime = (elapsed - lagComp).nonNeg
        charged = net + s.adjust
        # Issue 40 (OGS): a byo-yomi period overrun by less than the tournament's grace is kept.
        overrun = forgiven_overrun_ms(self.system, s.carry, charged, self.rules.period_grace_ms)
        if overrun:
            charged -= overrun
            note += f", a period's end overrun by {overrun} ms forgiven (period_grace_seconds)"
        if s.main_floor is not None:  # time added in byo-yomi after main time ran out in this move (give)
            charged, s.main_floor = max(charged, s.main_floor), None
        s.used += net
        s.carry = self.system.fold(s.carry, charged, s.adjust)
        s.made += 1
        s.adjust = s.elapsed = 0
        self.to_move = _other(move.player)
        self.ledger.append(LiveLedgerLine(index, "move", move.at_ms, move.player, charged_ms=charged,
                                          remaining_ms=self.remaining(move.player), note=f"move {move.number}: {note}"))

    def _stone(self, index: int, move: LiveMove) -> None:
        """Black places free handicap stone ``move.number``: charged nothing, no move of the time control; white
        is on move after the last one (issue 40, OGS)."""
        s = self.sides[move.player]
        s.made += 1
        s.adjust = s.elapsed = 0
        if s.made == self.handicap:
            self.to_move = _other(move.player)
        self.ledger.append(LiveLedgerLine(index, "move", move.at_ms, move.player, charged_ms=0,
                                          remaining_ms=self.remaining(move.player),
                                          note=f"move {move.number}: free handicap stone {s.made} of {self.handicap},"
                                               " placed on a clock that does not run (OGS)"))

    def _pause(self, index: int, event: LivePause) -> None:
        if self.paused:
            raise EventError(index, "pause", "the clocks are already paused", field="at_ms")
        if event.player is not None:
            _side(index, "pause", event.player)
        self.advance(event.at_ms)
        self.paused = True
        note = "clocks stopped (002 6.12)" if event.player is None else \
            f"clocks stopped by {event.player} (002 6.12 b, 000 12.11)"
        self.ledger.append(LiveLedgerLine(index, "pause", event.at_ms, event.player, note=note))

    def _resume(self, index: int, event: LiveResume) -> None:
        if not self.paused:
            raise EventError(index, "resume", "the clocks are not paused", field="at_ms")
        self.advance(event.at_ms)
        self.paused = False
        self.ledger.append(LiveLedgerLine(index, "resume", event.at_ms, self.to_move,
                                          note=f"{self.to_move}'s clock restarts (002 6.13)"))

    def _gap(self, index: int, gap: LiveGap) -> None:
        _instant(index, "gap", gap.to_ms, "to_ms")
        if gap.to_ms < gap.from_ms:
            raise EventError(index, "gap", f"to_ms {gap.to_ms} is before from_ms {gap.from_ms}", field="to_ms")
        self.advance(gap.from_ms)
        self.last = gap.to_ms  # the service was down: that time is no one's (restart fairness)
        self.ledger.append(LiveLedgerLine(index, "gap", gap.from_ms, None, charged_ms=0,
                                          note=f"service down {gap.to_ms - gap.from_ms} ms: not counted"))

    def _adjust(self, index: int, adjust: LiveAdjust) -> None:
        kind = "adjust"
        _side(index, kind, adjust.player)
        delta = adjust.delta_ms
        if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
            raise EventError(index, kind, f"delta_ms must be whole milliseconds other than 0, got {delta!r}",
                             field="delta_ms")
        self.advance(adjust.at_ms)
        if delta < 0:
            left = self.remaining(adjust.player)
            floor = self.rules.min_after_correction_ms
            if left + delta < max(floor, 1):
                raise EventError(index, kind, f"taking {-delta} ms would leave {adjust.player} {left + delta} ms; "
                                 + correction_floor_text(floor), field="delta_ms")
        self.give(adjust.player, delta)
        self.ledger.append(LiveLedgerLine(index, kind, adjust.at_ms, adjust.player, charged_ms=-delta,
                                          remaining_ms=self.remaining(adjust.player),
                                          note=("added" if delta > 0 else "taken") + f" {abs(delta)} ms (003 17.4)"))

    def give(self, side: str, delta_ms: int) -> None:
        """Add (> 0) or take (< 0) ``delta_ms`` on ``side``'s clock now: an arbiter's adjustment (003 17.4 b and c,
        12.14; 000 12.5, 001 1.7.8) or an illegal move's time to the partner (003 13.4).

        The time goes where the player's clock stands: to or from the main time while there is main time;
        in Japanese byo-yomi to or from the current period, and what the move does not use of an addition
        is not kept (the system never turns it into main time); in Canadian byo-yomi to or from the current
        block, which keeps it until its moves are made. Taken time runs on into the next periods as
        thinking time would.
        """
        # 003 12.14: the arbiter sets "время, которое должно быть установлено на часах"; 12.2: "Время,
        # сэкономленное игроком в течение основного и бееми не добавляется ко времени следующего периода".
        s = self.sides[side]
        if delta_ms > 0 and s.main_floor is None:
            clock = self.state(side).clock
            if clock.get("in_byoyomi") or clock.get("in_overtime"):
                # Main time ran out during the move in hand, before the addition: the move is charged at least
                # the main time it started with, so the addition cannot bring main time back.
                start = self.system.view(s.carry, 0, 0, ())
                main = start.clock.get("main_days", 0)
                if main > 0:
                    s.main_floor = main
        s.adjust -= delta_ms

    def _illegal(self, index: int, event: LiveIllegal) -> None:
        kind = "illegal"
        _side(index, kind, event.player)
        self.advance(event.at_ms)
        s = self.sides[event.player]
        s.illegal += 1
        if s.illegal >= self.rules.illegal_move_limit:
            note = f"illegal move {s.illegal}: the game is lost (003 13.4)"
            if self.forfeit is None:
                self.forfeit = {"player": event.player, "reason": "illegal_moves", "rule": "003 13.4",
                                "at_ms": event.at_ms}
        else:
            partner = _other(event.player)
            self.give(partner, self.rules.illegal_move_ms)
            note = f"illegal move {s.illegal}: {self.rules.illegal_move_ms} ms to {partner} (003 13.4)"
        self.ledger.append(LiveLedgerLine(index, kind, event.at_ms, event.player, note=note))

    def _excuse(self, index: int, event: LiveExcuse) -> None:
        kind = "excuse"
        _side(index, kind, event.player)
        self.advance(event.at_ms)
        forfeit = self.forfeit
        if forfeit is not None and forfeit["player"] == event.player and forfeit["reason"] == "late_arrival":
            self.forfeit = None
        self.sides[event.player].excused = True
        self.ledger.append(LiveLedgerLine(index, kind, event.at_ms, event.player,
                                          note="the arbiter decides otherwise on late arrival (002 6.6, 003 12.7)"))

    # -- the snapshot --------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The walk's state after its last event, as JSON (no ledger: the history replays for it)."""
        sides = {}
        for side, s in self.sides.items():
            own = {name: getattr(s, name) for name in _SIDE_FIELDS}
            own["carry"] = carry_json(s.carry)
            sides[side] = own
        return {"format": SNAPSHOT_FORMAT, "control": control_json(self.control), "last_ms": self.last,
                "last_index": self.last_index, "start_ms": self.start, "to_move": self.to_move,
                "paused": self.paused, "handicap": self.handicap, "flags": [list(f) for f in self.flags],
                "forfeit": None if self.forfeit is None else dict(self.forfeit),
                "ended": None if self.ended is None else list(self.ended), "sides": sides}

    def restore(self, data: dict[str, Any]) -> None:
        """Take up the walk where :meth:`snapshot` left it. :raises ValueError: another format or control."""
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise SnapshotMismatch("not a live clock snapshot of this version")
        if data.get("control") != control_json(self.control):
            raise SnapshotMismatch("the snapshot was taken under another time control")
        for side, own in data["sides"].items():
            s = self.sides[side]
            for name in _SIDE_FIELDS:
                setattr(s, name, own[name])
            s.carry = carry_from_json(self.system, own["carry"])
        self.last, self.last_index, self.start = data["last_ms"], data["last_index"], data["start_ms"]
        self.to_move, self.paused = data["to_move"], data["paused"]
        self.handicap = data.get("handicap", 0)
        self.flags = [(f[0], f[1], f[2], f[3]) for f in data["flags"]]
        self.forfeit = None if data["forfeit"] is None else dict(data["forfeit"])
        ended = data["ended"]
        self.ended = None if ended is None else (ended[0], ended[1], ended[2])

    # -- the result ----------------------------------------------------------------------------------
    def remaining(self, side: str) -> int:
        return 0 if self.sides[side].flag_at is not None else max(0, self.left(side))

    def player(self, side: str) -> LivePlayer:
        s = self.sides[side]
        state = self.state(side)
        unit = self.control.unit
        system_state = {"control": state.window.number, "control_through_move": state.window.through_move,
                        **unit.name_state(state.clock)}
        remaining = self.remaining(side)
        if system_state.get("in_byoyomi") and system_state.get("periods_left"):
            # What is left of the period the move stands in: the spoken countdown of 003 12.16 reads it.
            system_state["period_left_ms"] = remaining - (system_state["periods_left"] - 1) * system_state["period_ms"]
        used = s.used_at_flag if s.used_at_flag is not None else s.used + s.elapsed
        final = self.ended is not None and self.ended[0] == side  # the game-ending move, made but not pressed
        return LivePlayer(remaining_ms=remaining, flag_fallen=s.flag_at is not None, flag_at_ms=s.flag_at,
                          state=system_fields(system_state), moves_made=s.made + final, lag_quota_ms=s.quota,
                          used_ms=used)

    def result(self, now_ms: int, snapshot: dict[str, Any] | None = None, before_start: bool = False) -> LiveClock:
        side = self.to_move
        s = self.sides[side]
        ticking = not self.paused and s.flag_at is None and self.ended is None and not self.placing(side)
        next_flag = self.last + self.remaining(side) + self.flag_grace(side) if ticking else None
        late = None
        if ticking and s.made == 0 and self.forfeit is None and not s.excused:
            late = self.late_at(side)
        fallen = [f for f in self.flags]
        unknown = len(fallen) >= 2 and fallen[0][1] == fallen[1][1]
        return LiveClock(
            now_ms=now_ms, running=None if before_start or self.placing(side) else self.running(),
            paused=self.paused, to_move=side,
            players={p: self.player(p) for p in SIDES}, next_flag_at_ms=next_flag, flags=tuple(self.flags),
            both_fallen_order_unknown=unknown,
            illegal_counts={p: self.sides[p].illegal for p in SIDES}, forfeit=self.forfeit,
            late_arrival_deadline_ms=late, started_at_ms=self.start,
            ledger=tuple(sorted(self.ledger, key=lambda line: line.at_ms)),
            ended_by_move=None if self.ended is None else {"player": self.ended[0], "number": self.ended[1],
                                                           "at_ms": self.ended[2]},
            handicap_stones_left=max(0, self.handicap - self.sides["black"].made),
            snapshot=snapshot,
        )


def correction_floor_text(floor_ms: int) -> str:
    """Why a taking is refused: the ruleset's floor (000 12.5, 001 1.7.8), or, without one, that it would take
    all the time left."""
    if floor_ms > 0:
        return (f"a correction may not leave less than {floor_ms} ms to the control (000 12.5, 001 1.7.8:"
                " min_after_correction_seconds)")
    return ("a sanction may not take all the time left: declaring the game lost is a sanction of its own"
            " (003 17.4 d)")


# Whose rule a late arrival breaks: Go (black first, 003 12.7: half the main time) or chess (002 6.6).
_LATE_RULE = {"black": "003 12.7", "white": "002 6.6"}


def _other(side: str) -> str:
    return "black" if side == "white" else "white"


def _side(index: int, kind: str, player: object) -> None:
    if player not in SIDES:
        raise EventError(index, kind, f"player must be white or black, got {player!r}", field="player")


def _instant(index: int, kind: str, value: object, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(index, kind, f"{name} must be whole milliseconds since the epoch, got {value!r}", field=name)
