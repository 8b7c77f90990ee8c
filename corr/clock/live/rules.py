"""The rules of live play that are not a time-control system: they sit beside it in ``time_control``.

Read only with ``"unit": "seconds"``; every field is optional and takes the seeds' number:

- ``first``: who moves first and whose clock starts at the start: white in chess and draughts, black
  in Go (seed 003, 12.5-12.6 "Игру начинают черные").
- ``illegal_move_seconds`` and ``illegal_move_limit``: Go 13.4 (seed 003): the partner of a player who
  makes an illegal move gets 2 minutes the first two times; the third loses. FIDE-style rules set
  their own numbers.
- ``late_arrival_seconds``: FIDE 6.6 (seed 002): a player who has not made a first move when more
  than this has run on their clock loses ("avec plus d'une heure de retard": one hour unless the rules
  say otherwise); Go 12.7 (seed 003): "более чем на половину основного контроля", half the main time.
  A first move at exactly that instant is in time.
- ``min_after_correction_seconds``: draughts 12.5 (seed 000) and 1.7.8 (seed 001): a correction that
  shortens a clock may never leave less than 15 minutes to the control ("до контроля осталось не менее
  15 минут"). Draughts' rule, not chess's or Go's: the draughts presets set 900, the default is 0 (FIDE
  6.10 and 6.13 leave the times to the arbiter's judgement; Go 17.4 c takes time with no floor), and a
  taking must leave more than 0 whatever the floor.
- ``stop_claims_draw``: draughts 12.11 (seed 000) and 1.7.13 (seed 001): in a competition with a control to
  the end of the game, the stronger side's stop of the clocks in a clearly winning position is a draw
  (the arbiter confirms it); false (the default): a player's stop is resignation (12.11, 1.7.11) unless
  the arbiter finds it a misunderstanding.
- ``period_grace_seconds``: issue 40, OGS: a byo-yomi period overrun by less than this is not a period lost,
  and the flag of the last period falls this much after its end (:mod:`corr.clock.live.grace`). 0 (the
  default): seed 003's 12.2 and 12.10, a move past its period uses it up; the ``ogs_byoyomi_live`` preset: 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import RulesetError
from ..units import Unit, ms_to_seconds

SIDES = ("white", "black")

LIVE_KEYS = frozenset({"first", "illegal_move_seconds", "illegal_move_limit", "late_arrival_seconds",
                       "min_after_correction_seconds", "stop_claims_draw", "period_grace_seconds"})


@dataclass(frozen=True, slots=True)
class LiveRules:
    """Live play's numbers, in integer milliseconds."""

    first: str = "white"
    """The side whose clock starts at the start (003 12.5-12.6: black in Go)."""
    illegal_move_ms: int = 120_000
    """003 13.4: time given to the partner of a player who makes an illegal move (2 minutes)."""
    illegal_move_limit: int = 3
    """003 13.4: the illegal move that loses the game (the third)."""
    late_arrival_ms: int = 3_600_000
    """002 6.6: a player who has not moved *more than* this long after their clock started loses (1 hour)."""
    min_after_correction_ms: int = 0
    """000 12.5, 001 1.7.8: a shortening correction may not leave less than this to the control (15 min in
    the draughts presets; 0 elsewhere)."""

    stop_claims_draw: bool = False
    """000 12.11, 001 1.7.13: in a competition with a control to the end of the game, the stronger side's stop
    in a clearly winning position is a draw, claimed for the arbiter to confirm; otherwise a stop resigns."""

    period_grace_ms: int = 0
    """Issue 40 (OGS): a byo-yomi period overrun by less than this is kept (:mod:`corr.clock.live.grace`); 0: none."""

    @classmethod
    def parse(cls, data: dict, path: str) -> "LiveRules":
        """Read the live fields of a ``time_control`` object. :raises RulesetError: naming the field."""
        first = data.get("first", "white")
        if first not in SIDES:
            raise RulesetError(f"{path}.first must be white or black (003 12.5: black in Go), got {first!r}",
                               field=f"{path}.first")
        seconds = Unit.SECONDS
        limit = data.get("illegal_move_limit", 3)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise RulesetError(f"{path}.illegal_move_limit must be a whole number at least 1 (003 13.4: 3),"
                               f" got {limit!r}", field=f"{path}.illegal_move_limit")
        claims = data.get("stop_claims_draw", False)
        if not isinstance(claims, bool):
            raise RulesetError(f"{path}.stop_claims_draw must be true or false (000 12.11, 001 1.7.13), got"
                               f" {claims!r}", field=f"{path}.stop_claims_draw")
        return cls(
            first=first, stop_claims_draw=claims,
            illegal_move_ms=seconds.read(data, "illegal_move_seconds", path, required=False, default=120_000),
            illegal_move_limit=limit,
            late_arrival_ms=seconds.read(data, "late_arrival_seconds", path, minimum=1, required=False,
                                         default=3_600_000),
            min_after_correction_ms=seconds.read(data, "min_after_correction_seconds", path, required=False,
                                                 default=0),
            period_grace_ms=seconds.read(data, "period_grace_seconds", path, required=False, default=0),
        )

    def as_json(self) -> dict[str, Any]:
        return {"first": self.first, "illegal_move_seconds": ms_to_seconds(self.illegal_move_ms),
                "illegal_move_limit": self.illegal_move_limit,
                "late_arrival_seconds": ms_to_seconds(self.late_arrival_ms),
                "min_after_correction_seconds": ms_to_seconds(self.min_after_correction_ms),
                "stop_claims_draw": self.stop_claims_draw,
                # Written only when set: the game files written before issue 40 read back unchanged.
                **({"period_grace_seconds": ms_to_seconds(self.period_grace_ms)} if self.period_grace_ms else {})}
