"""Network lag compensation, bounded so that it cannot be abused (issue 16: "as the best servers do it").

lichess's ``LagTracker`` (scalachess): a move's time is reduced by the lag its client reported, at
most by a per-player quota; the quota is spent by what it compensates and regains a fixed amount after
every move, up to a cap. A player who always claims a long lag gets at most the regain per move, so a
lying client buys little; an honest one on a bad line is made whole. Everything is in the move event
(``lag_ms``), so a replay compensates exactly as the live computation did.
"""

from __future__ import annotations

QUOTA_INITIAL_MS = 1_000
"""The quota each player starts the game with."""
QUOTA_GAIN_MS = 1_000
"""What the quota regains after every move (lichess: one second in games of 3 minutes or more)."""
QUOTA_MAX_MS = 3_000
"""The quota never grows beyond this, however many moves were played without lag."""


def compensate(thinking_ms: int, lag_ms: int, quota_ms: int) -> tuple[int, int]:
    """(milliseconds forgiven to a move of ``thinking_ms`` that reported ``lag_ms``, the quota after it).

    Never more than the lag, the quota or the move's own time (a move is never charged below 0).
    """
    forgiven = max(0, min(lag_ms, quota_ms, thinking_ms))
    return forgiven, min(quota_ms - forgiven + QUOTA_GAIN_MS, QUOTA_MAX_MS)
