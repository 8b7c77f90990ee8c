"""The facts of a live game: timestamped events, integer milliseconds since the Unix epoch (UTC).

The server stamps every event (issue 16: the server's clock is the only clock); a live clock is
computed from them alone, as a correspondence clock is from dated events, so a replay of the same
events gives the same clock (:func:`corr.clock.live.live_clock`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LiveStart:
    """The start: the first mover's clock starts at ``at_ms`` whether or not the player is there
    (003 12.5-12.6: "В установленное для начала игры время пускаются часы игрока, играющего черным").

    ``handicap_stones``: Go's free handicap (issue 40, OGS): black, moving first, places this many stones as its
    first moves, one press each, before white's first move; black's clock does not run and those moves charge
    nothing (:mod:`corr.clock.live.handicap`). 0: no free handicap (one stone is no handicap to place)."""

    at_ms: int
    handicap_stones: int = 0


@dataclass(frozen=True, slots=True)
class LiveMove:
    """A press: ``player`` ("white"|"black") completes their move ``number`` (counted per player from 1)
    at ``at_ms``, the instant the server received it.

    ``lag_ms`` is the network lag the client reported for it; the clock compensates it within a quota
    (:mod:`corr.clock.live.lag`). A move counts only once pressed (000 12.9, 003 12.8), unless it ends
    the game: ``ends_game`` (a mate or a stalemate, a draughts move that leaves the partner no move) is
    complete without the press (002 6.7 a: "sauf si le coup effectué met fin à la partie"; 003 12.8):
    the clocks stop at ``at_ms``, a flag falling at that very instant is no overstep, and no increment
    is earned, the clock never having been pressed.
    """

    player: str
    number: int
    at_ms: int
    lag_ms: int = 0
    ends_game: bool = False


@dataclass(frozen=True, slots=True)
class LivePause:
    """Both clocks stop: the arbiter stops them (002 6.12 a, 003 12.13), or a player does (``player``): to call
    the arbiter (002 6.12 b, 003 12.13) or as the stop that resigns or claims a draw (000 12.11, 001 1.7.11,
    1.7.13). The clock counts the same for all of them; what a player's stop means is the service's."""

    at_ms: int
    player: str | None = None
    """The player who stopped the clocks; None for the arbiter."""


@dataclass(frozen=True, slots=True)
class LiveResume:
    """The arbiter restarts the clock of the side to move (002 6.13)."""

    at_ms: int


@dataclass(frozen=True, slots=True)
class LiveAdjust:
    """The arbiter adds (``delta_ms`` > 0) or takes (< 0) time on ``player``'s clock.

    Sanctions of 003 17.4 (b: time added to the partner; c: time taken from the offender) and
    corrections of 000 12.5 / 001 1.7.8 (a shortening correction may not leave less than
    ``min_after_correction`` to the control).
    """

    player: str
    delta_ms: int
    at_ms: int


@dataclass(frozen=True, slots=True)
class LiveIllegal:
    """``player`` made an illegal move (003 13.4 b): the partner gets ``illegal_move_seconds`` the first
    times; the ``illegal_move_limit``-th loses the game."""

    player: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class LiveGap:
    """The service was down from ``from_ms`` to ``to_ms``: that time is no one's (restart fairness; a
    flag cannot fall on time nobody could play)."""

    from_ms: int
    to_ms: int

    @property
    def at_ms(self) -> int:
        """The instant the gap is ordered by among the events: its start."""
        return self.from_ms


@dataclass(frozen=True, slots=True)
class LiveExcuse:
    """The arbiter decides otherwise on ``player``'s late arrival (002 6.6, 003 12.7 "если только ...
    арбитр не решает иначе"): a late-arrival forfeit of theirs is lifted and no longer counted.

    Beside the contract of issue 16 (an addition): without it a forfeit the arbiter waived would stay
    in every replay.
    """

    player: str
    at_ms: int


LiveEvent = LiveStart | LiveMove | LivePause | LiveResume | LiveAdjust | LiveIllegal | LiveGap | LiveExcuse
