"""The lag grace of byo-yomi periods (issue 40, OGS): a period overrun by less than ``period_grace_seconds``
is kept, and the last period's flag falls that much after its end. Worked examples; arithmetic in the comments."""

from __future__ import annotations

import pytest

from corr.clock import RulesetError
from corr.clock.live import LiveMove, LiveStart, live_clock
from corr.clock.presets import PRESETS, preset_ruleset
from corr.clock import Ruleset

from .live_builders import S, T0, clock_after, seconds

# 60 s main time, then 3 periods of 30 s; OGS's grace of 1 s.
GRACED = seconds({"system": "byoyomi", "main": 60, "periods": 3, "period_time": 30}, period_grace_seconds=1)
STRICT = seconds({"system": "byoyomi", "main": 60, "periods": 3, "period_time": 30})


def periods_left(clock, side="white") -> int:
    return clock.players[side].state["periods_left"]


def test_a_period_overrun_by_nine_tenths_of_a_second_is_forgiven():
    # 60 s of main time + 30 s of period 1 + 0.9 s: period 1's end passed by 900 ms < 1 s: kept (3 left).
    clock = clock_after(GRACED, [90_900])
    assert periods_left(clock) == 3
    assert "overrun by 900 ms forgiven" in clock.ledger[-1].note
    # Without the grace (seed 003, 12.2) the same move uses period 1 up.
    assert periods_left(clock_after(STRICT, [90_900])) == 2


def test_a_period_overrun_by_one_and_a_tenth_seconds_is_a_period_lost():
    # 1,100 ms past period 1's end >= the 1 s grace: period 1 is used up (2 left), as without a grace.
    clock = clock_after(GRACED, [91_100])
    assert periods_left(clock) == 2 == periods_left(clock_after(STRICT, [91_100]))
    assert "forgiven (period_grace_seconds)" not in clock.ledger[-1].note


def test_the_grace_forgives_the_last_period_end_and_no_more():
    # 60 + 3 x 30 = 150 s: the last period ends there; the flag falls 1 s later, at 151 s.
    in_grace = clock_after(GRACED, [150_900])
    assert in_grace.flags == () and periods_left(in_grace) == 1
    running = live_clock(GRACED, [LiveStart(T0)], T0 + 10 * S)
    assert running.next_flag_at_ms == T0 + 151 * S
    late = live_clock(GRACED, [LiveStart(T0), LiveMove("white", 1, T0 + 151_100)], T0 + 151_100)
    assert [(p, at) for p, at, _, _ in late.flags] == [("white", T0 + 151 * S)]
    strict = live_clock(STRICT, [LiveStart(T0), LiveMove("white", 1, T0 + 150_900)], T0 + 150_900)
    assert [(p, at) for p, at, _, _ in strict.flags] == [("white", T0 + 150 * S)]


def test_a_move_from_main_time_into_the_first_period_overruns_no_period():
    # 60.5 s: half a second into period 1, which it keeps with or without a grace: nothing to forgive.
    clock = clock_after(GRACED, [60_500])
    assert periods_left(clock) == 3 and "period_grace_seconds" not in clock.ledger[-1].note


def test_the_grace_is_byoyomi_s_only_and_written_back_when_set():
    fischer = seconds({"system": "fischer", "initial": 60, "increment": 0}, period_grace_seconds=1)
    # 60.5 s of a 60 s Fischer clock: the flag fell at 60 s, the grace is no Fischer rule.
    assert [at for _, at, _, _ in clock_after(fischer, [60_500]).flags] == [T0 + 60 * S]
    assert GRACED.time_control.live.as_json()["period_grace_seconds"] == 1
    assert "period_grace_seconds" not in STRICT.time_control.live.as_json()


def test_ogs_preset_forgives_a_second():
    ruleset = Ruleset.from_mapping(preset_ruleset("ogs_byoyomi_live", None))
    assert ruleset.time_control.live.period_grace_ms == 1000
    assert PRESETS["go_byoyomi_live"]["time_control"].get("period_grace_seconds") is None


def test_a_negative_grace_is_refused_naming_the_field():
    with pytest.raises(RulesetError) as error:
        seconds({"system": "byoyomi", "main": 60, "periods": 3, "period_time": 30}, period_grace_seconds=-1)
    assert error.value.field == "ruleset.time_control.period_grace_seconds"


# OGS forgives an overrun of *less than* a second: exactly the grace is not forgiven, in a middle period
# (a period lost) as in the last one (a flag at the very instant of the press, 000 12.9).
def test_a_middle_period_overrun_by_999_ms_is_forgiven():
    # 60 s + 30 s of period 1 + 0.999 s: 999 ms < 1 s: period 1 kept (3 left).
    clock = clock_after(GRACED, [90_999])
    assert periods_left(clock) == 3
    assert "overrun by 999 ms forgiven" in clock.ledger[-1].note


def test_a_middle_period_overrun_by_exactly_the_grace_is_a_period_lost():
    # 60 s + 30 s + 1.000 s: 1000 ms is not less than the 1 s grace: period 1 used up (2 left), as strict.
    clock = clock_after(GRACED, [91_000])
    assert periods_left(clock) == 2 == periods_left(clock_after(STRICT, [91_000]))
    assert "forgiven (period_grace_seconds)" not in clock.ledger[-1].note


def test_the_last_period_overrun_by_999_ms_is_forgiven():
    # 60 + 3 x 30 = 150 s, + 0.999 s: no flag, the last period kept.
    clock = live_clock(GRACED, [LiveStart(T0), LiveMove("white", 1, T0 + 150_999)], T0 + 150_999)
    assert clock.flags == () and periods_left(clock) == 1


def test_the_last_period_overrun_by_exactly_the_grace_is_a_flag():
    # 150 s + 1.000 s: the flag falls at 151 s, the very instant of the press: an overstep (000 12.9).
    clock = live_clock(GRACED, [LiveStart(T0), LiveMove("white", 1, T0 + 151_000)], T0 + 151_000)
    assert [(p, at) for p, at, _, _ in clock.flags] == [("white", T0 + 151 * S)]
