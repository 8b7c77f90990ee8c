"""The lag grace of byo-yomi periods (issue 40): a period overrun by less than the grace is not a period lost.

OGS forgives a byo-yomi period overrun by less than a second: its clocks time out "with a grace period to
account for network latency" (``game/timed_out`` in ``online-go/goban``, ``src/engine/protocol/
ClientToServer.ts``), and records of its live games keep a period whose move came up to a second past its
end. corr keeps the same rule per tournament, ``period_grace_seconds`` (:class:`corr.clock.live.rules.
LiveRules`): 0, the over-the-board rule of seed 003 (12.2, 12.10: a move past its period uses it up), unless
the tournament says otherwise; the ``ogs_byoyomi_live`` preset says 1 s. "Less than": an overrun of exactly the
grace is a period lost in a middle period, and in the last period a press at the very instant the flag falls
(its end + the grace) is an overstep (000 12.9) — both ends of the rule agree.

Japanese byo-yomi only (:class:`corr.clock.systems.byoyomi.Byoyomi`), and only in its periods: main time,
and main time in stages (12.10: a stage overrun loses), have no grace.
"""

from __future__ import annotations

from typing import Any


def grace_applies(system: Any, carry: Any, grace_ms: int) -> bool:
    """Whether ``carry`` (a :class:`~corr.clock.systems.byoyomi.ByoyomiCarry`) stands where a period's end can be
    overrun: byo-yomi, a grace of more than 0, no main-time stage still running, the last period not fallen."""
    if grace_ms <= 0 or getattr(system, "name", "") != "byoyomi":
        return False
    return not (carry.stage and carry.stage <= len(system.main_stages)) and not carry.fell


def forgiven_overrun_ms(system: Any, carry: Any, charged_ms: int, grace_ms: int) -> int:
    """The milliseconds of a move charged ``charged_ms`` that ran past the end of a byo-yomi period by less than
    ``grace_ms``: the move is charged as if made at that end, so it keeps the period. 0 when nothing is forgiven.

    The period the move ended in is the one ``into`` ms (1..period) past a period's end; a move that ran from
    main time into the first period has overrun no period; an overrun of ``grace_ms`` or more is a period lost;
    a move past the last period by the grace or more is a flag, not forgiven (:func:`flag_grace_ms`).
    """
    if not grace_applies(system, carry, grace_ms):
        return 0
    over = charged_ms - carry.main  # ms past main time
    period = system.period_time
    if over <= period:  # within the first period, or main time: no period's end passed
        return 0
    into = (over - 1) % period + 1  # 1..period: ms into the period the move ended in (an end keeps its period)
    ended = (over - into) // period  # the periods whose end the move passed
    # OGS forgives "less than a second": exactly the grace is not forgiven, as the last period's flag at
    # end + grace is an overstep at that instant (Clock.advance, 000 12.9).
    if into >= grace_ms or ended > carry.periods:
        return 0
    return into


def flag_grace_ms(system: Any, carry: Any, grace_ms: int) -> int:
    """How long after the last period's end the flag falls: the grace in byo-yomi's periods, else 0."""
    return grace_ms if grace_applies(system, carry, grace_ms) else 0
