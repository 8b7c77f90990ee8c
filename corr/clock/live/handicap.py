"""Go's free handicap placement, uncharged (issue 40): OGS does not run black's clock while black places its
free handicap stones.

On OGS a game with ``free_handicap_placement`` and a handicap of N begins with black's N stones, one move each,
before white's first move (``GobanEngine.handicapMovesLeft()`` in ``online-go/goban``: ``handicap -
move number`` while free placement lasts; OGS's own game timings list them apart: "when there is free handicap
placement, black plays handicap-1 moves before his actual first turn that white responds to",
``online-go/online-go.com`` commit f2f341e ``GameTimings.tsx``), and its clock does not start until they are
placed (gtp2ogs issue 80: "the clock doesnt start" while a player places them). corr keeps that rule per game:
the start says how many stones black places (:attr:`corr.clock.live.events.LiveStart.handicap_stones`); while
black has placed fewer, black is on move, its clock does not run (no flag, no late arrival), and a stone's
press is charged nothing and is no move of the time control (no increment, no period, no stage's move). White's
clock starts at the last stone's press.
"""

from __future__ import annotations

HANDICAP_MAX = 9
"""The most stones corr lets black place freely: OGS's and the common handicaps go to 9."""


def handicap_error(stones: object, first: str) -> str | None:
    """Why ``stones`` is no free handicap for a game whose first mover is ``first``; None when it is one."""
    if isinstance(stones, bool) or not isinstance(stones, int) or stones < 0 or stones > HANDICAP_MAX:
        return (f"handicap_stones must be a whole number 0..{HANDICAP_MAX} (black's free handicap stones),"
                f" got {stones!r}")
    if stones == 1:
        return "handicap_stones must be 0 or 2..9: one stone is black's first move, no handicap to place"
    if stones and first != "black":
        return "handicap_stones is Go's free handicap: black moves first (time_control.first must be black)"
    return None


def placing(handicap_stones: int, side: str, black_made: int) -> bool:
    """Whether ``side``, on move, is placing a free handicap stone: black, with fewer stones placed than given."""
    return side == "black" and black_made < handicap_stones
