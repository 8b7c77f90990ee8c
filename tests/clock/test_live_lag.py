"""Lag compensation is lichess's quota, as scalachess computes it (issue 24 item 6): the gain from the clock's
estimated total time, 3 gains to start, 7 at most, the compensation the lag at most the quota.

The worked examples are the cases of scalachess's ``ClockLagCompTest`` (test-kit/src/test/scala/ClockTest.scala),
played as live events: white presses at once, black after ``wait + lag`` reporting ``lag``, over and over;
the figure is black's clock after its last press. Arithmetic in the comments, in centiseconds as there.
"""

from __future__ import annotations

import pytest

from corr.clock.live import LiveMove, LiveStart, live_clock
from corr.clock.live.lag import LagQuota, estimate_total_ms

from .live_builders import S, T0, seconds


def black_after(limit_s: int, wait_cs: int, lags_cs: list[int]) -> int:
    """Black's clock in centiseconds after the presses of scalachess's ``clockStep``."""
    rules = seconds({"system": "fischer", "initial": limit_s, "increment": 0})
    events, t = [LiveStart(T0), LiveMove("white", 1, T0)], T0
    for number, lag in enumerate(lags_cs, start=1):
        t += (wait_cs + lag) * 10
        events.append(LiveMove("black", number, t, lag_ms=lag * 10))
        events.append(LiveMove("white", number + 1, t))
    return live_clock(rules, events, t).players["black"].remaining_ms // 10


@pytest.mark.parametrize("limit_s, wait_cs, lags_cs, expected_cs", [
    # 600+0: gain min(100, 600 x 2/5 + 15) = 100 cs, quota 300 at the start, 700 at most.
    (600, 0, [0], 60000),                  # premove, no lag
    (600, 0, [20], 60000),                 # small lag: all of it forgiven
    (600, 0, [400], 59900),                # 400 of lag, 300 of quota: 100 charged
    (600, 100, [0], 59900),                # a 1 s move
    (600, 100, [20], 59900),
    (600, 100, [400], 59800),              # 500 elapsed, 300 forgiven
    (600, 0, [0, 0], 60000),
    (600, 0, [300, 300], 59800),           # 300 forgiven, quota 100; then 100 of 300: 200 charged
    (600, 0, [0, 300], 60000),             # quota 400 after a move without lag
    (600, 0, [0] * 8 + [800], 59900),      # quota at its cap, 700: 100 charged
    (600, 0, [0] * 5 + [500, 600], 59700),  # cap 700: 500 forgiven (quota 300), then 300 of 600
    (600, 0, [0] * 5 + [500] * 3, 59400),  # 500, then 300, then 100 forgiven: 0 + 200 + 400 charged
    # 60+0: gain 60 x 2/5 + 15 = 39 cs, quota 117 at the start, 273 at most.
    (60, 0, [0, 0], 6000),
    (60, 0, [0, 300], 5856),               # quota 156 after a move: 300 - 156 = 144 charged
    (60, 0, [0, 0, 0, 0, 700], 5573),      # quota 117 + 4 x 39 = 273 (the cap): 700 - 273 = 427 charged
])
def test_scalachess_lag_compensation_cases(limit_s, wait_cs, lags_cs, expected_cs):
    assert black_after(limit_s, wait_cs, lags_cs) == expected_cs


@pytest.mark.parametrize("control, gain_ms", [
    ({"system": "fischer", "initial": 180, "increment": 0}, 870),   # 3+0: 180 x 2/5 + 15 = 87 cs
    ({"system": "fischer", "initial": 60, "increment": 0}, 390),    # 1+0
    ({"system": "fischer", "initial": 120, "increment": 1}, 790),   # 2+1: 160 s estimated, 64 + 15 cs
    ({"system": "fischer", "initial": 300, "increment": 3}, 1000),  # capped at 1 s
    ({"system": "sudden_death", "time": 180}, 870),
    ({"system": "delay", "main": 120, "delay": 2}, 950),            # 120 + 40 x 2 = 200 s: 80 + 15 cs
    ({"system": "byoyomi", "main": 0, "periods": 1, "period_time": 10}, 1150),  # 25 x 10 s = 250 s: capped
    ({"system": "byoyomi", "main": 60, "periods": 1, "period_time": 3}, 690),   # 60 + 75 s: 54 + 15 cs
    ({"system": "canadian", "main": 60, "moves": 10, "period_time": 20}, 710),  # 60 + 40 x 2 s = 140 s
    ({"system": "per_move", "time": 3}, 630),                                   # 40 x 3 s = 120 s
])
def test_the_gain_depends_on_the_clocks_estimated_total_time(control, gain_ms):
    system = seconds(control).time_control.system
    quota = LagQuota.for_system(system)
    assert (quota.gain_ms, quota.start_ms, quota.max_ms) == (min(gain_ms, 1000), 3 * min(gain_ms, 1000),
                                                             7 * min(gain_ms, 1000))
    assert estimate_total_ms(system) > 0


def test_lag_is_never_credited_beyond_the_quota():
    # 3+0: quota 2.61 s, gain 0.87 s, cap 6.09 s. Ten seconds claimed on each of 20 moves of 5 s: forgiven
    # 2.61 s, then 0.87 s a move, 2.61 + 19 x 0.87 = 19.14 s in all, never more.
    rules = seconds({"system": "fischer", "initial": 180, "increment": 0})
    events, t = [LiveStart(T0)], T0
    for number in range(1, 21):
        t += 5 * S
        events.append(LiveMove("white", number, t, lag_ms=10 * S))
        events.append(LiveMove("black", number, t))
    white = live_clock(rules, events, t).players["white"]
    assert white.used_ms == 20 * 5 * S - (2610 + 19 * 870)
    assert white.lag_quota_ms == 870
