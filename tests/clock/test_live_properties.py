"""A live clock equals the replay of its events (issue 16, "Done when").

What the service computes as a game goes on (at every event, at a scheduled flag instant, at any
moment a page asks) must be what a replay of the recorded events computes later: flags, forfeits and
clocks once reported are never contradicted, and the instant announced for the next flag is the
instant the flag is recorded at.
"""

from __future__ import annotations

from hypothesis import given, strategies as st

from corr.clock import EventError
from corr.clock.live import (
    LiveAdjust, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart, live_clock,
)
from corr.clock.live.gamefile import read_live_game, write_live_game

from .live_builders import T0, seconds

SPECS = [
    {"system": "sudden_death", "time": 30},
    {"system": "fischer", "initial": 20, "increment": 2.5, "max": 40},
    {"system": "delay", "main": 20, "delay": 3},
    {"system": "byoyomi", "main": 10, "periods": 3, "period_time": 4},
    {"system": "byoyomi", "main": [{"moves": 3, "time": 15}], "periods": 2, "period_time": 5},
    {"system": "canadian", "main": 10, "moves": 3, "period_time": 12},
    {"system": "per_move", "time": 8},
    {"system": "periods", "stages": [{"moves": 4, "time": 20}], "repeat_last": True},
    {"system": "periods", "stages": [{"moves": 3, "time": 15, "increment": 1}, {"moves": None, "time": 10,
                                                                                "delay": 2}]},
]


@st.composite
def live_games(draw):
    """A ruleset in seconds and a valid list of events, with instants drawn a few seconds apart."""
    spec = draw(st.sampled_from(SPECS))
    rules = seconds(spec, first=draw(st.sampled_from(["white", "black"])), illegal_move_seconds=3,
                    late_arrival_seconds=draw(st.sampled_from([5, 25, 3600])),
                    min_after_correction_seconds=1)
    first = rules.time_control.live.first
    events = [LiveStart(T0)]
    t, to_move, paused = T0, first, False
    made = {"white": 0, "black": 0}
    for _ in range(draw(st.integers(0, 25))):
        t += draw(st.integers(0, 9000))
        action = draw(st.sampled_from(["move"] * 6 + ["pause", "adjust", "illegal", "gap"]))
        if paused:
            events.append(LiveResume(t))
            paused = False
        elif action == "move":
            made[to_move] += 1
            events.append(LiveMove(to_move, made[to_move], t, draw(st.integers(0, 1500))))
            to_move = "black" if to_move == "white" else "white"
        elif action == "pause":
            events.append(LivePause(t))
            paused = True
        elif action == "adjust":
            events.append(LiveAdjust(draw(st.sampled_from(["white", "black"])), draw(st.integers(1, 5000)), t))
        elif action == "illegal":
            events.append(LiveIllegal(draw(st.sampled_from(["white", "black"])), t))
        else:
            end = t + draw(st.integers(0, 20000))
            events.append(LiveGap(t, end))
            t = end
    return rules, events, t + draw(st.integers(0, 30000))


def end_of(event) -> int:
    return event.to_ms if isinstance(event, LiveGap) else event.at_ms


@given(live_games())
def test_what_was_reported_at_every_event_is_what_the_replay_reports(game):
    rules, events, now = game
    final = live_clock(rules, events, now)
    for k in range(len(events)):
        at = end_of(events[k])
        step = live_clock(rules, events[:k + 1], at)
        # Flags and forfeits once reported stay, at the same instants, in the same order.
        assert final.flags[:len(step.flags)] == step.flags
        if step.forfeit is not None:
            assert final.forfeit == step.forfeit
        assert all(step.illegal_counts[p] <= final.illegal_counts[p] for p in ("white", "black"))
        # The ledger so far is the start of the final one (flags included at their instants).
        assert final.ledger[:len(step.ledger)] == step.ledger


@given(live_games(), st.data())
def test_the_announced_flag_instant_is_the_instant_the_flag_is_recorded(game, data):
    rules, events, now = game
    k = data.draw(st.integers(0, len(events) - 1))
    at = end_of(events[k])
    step = live_clock(rules, events[:k + 1], at)
    flag_at = step.next_flag_at_ms
    next_at = events[k + 1].at_ms if k + 1 < len(events) else None  # a gap begins at its from_ms
    if flag_at is None or flag_at < at:
        return
    if next_at is None or next_at >= flag_at:
        # The scheduled check at the announced instant finds the flag fallen exactly then.
        checked = live_clock(rules, events[:k + 1], flag_at)
        assert checked.flags[-1][:2] == (step.to_move, flag_at)
        # And a sweep long after it, with nothing pressed, records it at the same instant.
        swept = live_clock(rules, events[:k + 1], flag_at + data.draw(st.integers(1, 100_000)))
        assert swept.flags[len(step.flags)][:2] == (step.to_move, flag_at)
        assert live_clock(rules, events, max(now, flag_at)).flags[len(step.flags)][:2] == (step.to_move, flag_at)
    else:
        # The next event comes first: no flag of the running side before it.
        assert live_clock(rules, events[:k + 1], max(at, next_at - 1)).flags == step.flags


@given(live_games(), st.data())
def test_between_events_only_the_running_clock_moves_one_ms_per_ms(game, data):
    rules, events, now = game
    at = end_of(events[-1])
    base = live_clock(rules, events, at)
    later = live_clock(rules, events, at + (d := data.draw(st.integers(0, 40000))))
    for side in ("white", "black"):
        expected = base.players[side].remaining_ms
        if side == base.running:
            expected = max(0, expected - d)
        assert later.players[side].remaining_ms == expected


@given(live_games())
def test_a_live_game_file_replays_to_the_same_clock(game):
    rules, events, now = game
    again_rules, again_events, again_now = read_live_game(write_live_game(rules, events, now))
    assert (again_rules, list(again_events), again_now) == (rules, events, now)
    assert live_clock(again_rules, again_events, again_now) == live_clock(rules, events, now)


@given(live_games(), st.integers(1, 10_000))
def test_a_move_by_the_side_not_to_move_is_always_refused(game, dt):
    rules, events, now = game
    c = live_clock(rules, events, now)
    other = "black" if c.to_move == "white" else "white"
    bad = LiveMove(other, c.players[other].moves_made + 1, now + dt)
    try:
        live_clock(rules, [*events, bad], now + dt)
    except EventError as error:
        assert error.field in (f"events[{len(events)}].player", f"events[{len(events)}].at_ms")
    else:
        raise AssertionError("a move out of turn was accepted")
