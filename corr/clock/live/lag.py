"""Network lag compensation: lichess's quota, exactly as scalachess computes it (issue 24 item 6).

scalachess (``core/src/main/scala/LagTracker.scala`` and ``Clock.scala``, lichess-org/scalachess):

- a player's quota *gain* is ``min(100, estimateTotalSeconds * 2 / 5 + 15)`` centiseconds (integer
  arithmetic), where ``estimateTotalSeconds = limitSeconds + 40 * incrementSeconds``: 3+0 gains 0.87 s,
  1+0 0.39 s, every clock estimated at 213 s or more 1 s;
- the quota starts at 3 × the gain and never exceeds 7 × the gain;
- on each move the compensation is the reported lag, at most the quota (``lag.atMost(quota)``); the quota
  becomes ``min(quota + gain - compensation, 7 × gain)``; the move is charged ``max(0, elapsed -
  compensation)`` (``moveTime = (elapsed - lagComp).nonNeg``).

So a client that claims ten seconds of lag on every move is forgiven at most the gain per move once its
starting quota is spent, however much it claims: lag is never credited beyond the quota.

Where corr differs, and why:

- lichess has Fischer clocks only. corr estimates the total time of its other systems in the same shape,
  the time given at the start plus 40 moves' worth of what each move brings: sudden death and stages, the
  first stage's time plus 40 × its increment (a delay counted as an increment); a delay, the main time
  plus 40 × the delay; Japanese byo-yomi, the main time plus 25 × periods × period time (lishogi's
  byo-yomi clock, the shogi fork of the same code, counts ``25 * periods * byoyomiSeconds``); Canadian
  byo-yomi, the main time plus 40 × the block's time per move; days per move, 40 × the time per move
  (scalachess's 0+t). Amounts are in milliseconds: ``estimate_ms * 2 // 5000`` is scalachess's
  ``seconds * 2 / 5`` for whole seconds.
- scalachess lowers the gain to ``frameLag + 0.14 s`` when the client reports its frame lag
  (``withFrameLag``); corr's page reports no frame lag, so every player has the largest gain.
- lichess's first move of each side runs no clock; corr's first mover's clock runs from the start (003
  12.5), so every move, the first included, is compensated.
- lichess flags a clock only when it is past zero by more than ``min(quota, 2 s)``
  (``outOfTime(withGrace)``); corr's flag falls at the instant the time reaches zero (000 12.9, 001 1.7.9),
  and a move that arrives after it is a flag whatever lag it claims.

Everything is in the move event (``lag_ms``), so a replay compensates exactly as the live computation did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ESTIMATED_MOVES = 40
"""scalachess ``estimateTotalSeconds``: the limit plus this many increments."""
BYOYOMI_PERIOD_MOVES = 25
"""lishogi's byo-yomi estimate: this many moves in each period."""
GAIN_MAX_CS = 100
"""The largest gain, in centiseconds (scalachess ``maxQuotaGainFor``: 1 s)."""
GAIN_BASE_CS = 15
START_GAINS = 3
"""The quota a player starts with, in gains (``LagTracker.init``: ``quotaGain * 3``)."""
MAX_GAINS = 7
"""The quota's cap, in gains (``quotaMax = quotaGain * 7``)."""


def estimate_total_ms(system: Any) -> int:
    """The estimated total time per player of a time control, in ms: as scalachess estimates a Fischer clock
    (``limit + 40 × increment``), and the other systems in the same shape (see the text of the module)."""
    name = getattr(system, "name", "")
    if name == "fischer":
        return system.initial + ESTIMATED_MOVES * system.increment
    if name == "delay":
        return system.main + ESTIMATED_MOVES * system.delay
    if name == "per_move":
        return ESTIMATED_MOVES * system.time
    if name in ("byoyomi", "canadian"):
        main = system.main_stages[0].time if system.main_stages else system.main
        if name == "byoyomi":
            return main + BYOYOMI_PERIOD_MOVES * system.periods * system.period_time
        return main + ESTIMATED_MOVES * (system.period_time // system.moves)
    stages = getattr(system, "stages", ())
    if stages:
        first = stages[0]
        return first.time + ESTIMATED_MOVES * (first.increment + first.delay)
    return 0


@dataclass(frozen=True, slots=True)
class LagQuota:
    """A game's lag quota in ms: what a move regains, what a player starts with, and the cap."""

    gain_ms: int
    start_ms: int
    max_ms: int

    @classmethod
    def for_system(cls, system: Any) -> "LagQuota":
        """scalachess ``LagTracker.init``: the gain from the estimated total time, 3 × it to start, 7 × at most."""
        gain = 10 * min(GAIN_MAX_CS, estimate_total_ms(system) * 2 // 5000 + GAIN_BASE_CS)
        return cls(gain_ms=gain, start_ms=START_GAINS * gain, max_ms=MAX_GAINS * gain)

    def compensate(self, lag_ms: int, quota_ms: int) -> tuple[int, int]:
        """(the compensation of a move that reported ``lag_ms``, the quota after it): scalachess ``onMove``.

        Never more than the quota. The move is charged its thinking time less the compensation, never
        below 0 (the caller's ``max(0, ...)``, scalachess ``moveTime.nonNeg``).
        """
        compensation = min(max(0, lag_ms), quota_ms)
        return compensation, min(quota_ms + self.gain_ms - compensation, self.max_ms)
