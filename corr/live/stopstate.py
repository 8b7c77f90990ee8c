"""A player's stop still to be ruled on, read from a live game's events (the state below the services).

:mod:`corr.live.stops` writes the stops and the rulings; the reads of a game (:mod:`corr.live.state`) and
the arbiter's actions (:mod:`corr.live.services`) ask this module whether one is pending.
"""

from __future__ import annotations

from dataclasses import dataclass

from corr.models import Game, GameStatus, LiveEventKind, LiveGame

CALL, CLAIM, RESIGNED = "call", "draw_claim", "resignation"
"""What a pending stop is: a call of the arbiter, a draw claimed by a stop, a stop that resigned."""

RULINGS = {CALL: ("justified", "warning", "penalty"), CLAIM: ("draw", "resignation", "warning"),
           RESIGNED: ("warning",)}
"""The rulings each pending stop allows."""


@dataclass(frozen=True)
class PendingStop:
    """A player's stop awaiting the arbiter's ruling."""

    kind: str
    """:data:`CALL`, :data:`CLAIM` or :data:`RESIGNED`."""
    player: str
    at_ms: int

    def as_json(self) -> dict:
        return {"kind": self.kind, "player": self.player, "at_ms": self.at_ms, "rulings": list(RULINGS[self.kind])}


def pending_stop(game: Game, live: LiveGame, rows) -> PendingStop | None:
    """The player's stop the arbiter has still to rule on, read from the events, or None.

    The clocks' last stop or restart decides: a player's ``call`` or ``stop`` not followed by a restart is
    pending (a stop that resigned only while the game stays ended by it).
    """
    last = None
    for row in rows:
        if row.kind in (LiveEventKind.STOP, LiveEventKind.CALL, LiveEventKind.PAUSE, LiveEventKind.RESUME):
            last = row
    if last is None or last.kind not in (LiveEventKind.STOP, LiveEventKind.CALL):
        return None
    if last.kind == LiveEventKind.CALL:
        return PendingStop(CALL, last.player, last.at_ms) if game.status == GameStatus.ONGOING else None
    if game.status == GameStatus.ONGOING:
        return PendingStop(CLAIM, last.player, last.at_ms)
    resigned = live.ended_at_ms == last.at_ms and rows[-1].kind == LiveEventKind.RESULT and rows[-1].seq > last.seq
    return PendingStop(RESIGNED, last.player, last.at_ms) if resigned else None


