"""The incremental live clock equals the replay (issue 27, "A press in constant time").

The service keeps the engine's state after the last event (``LiveClock.snapshot``) and folds each new
event onto it. The full replay stays the definition: at every prefix of every game, for every system,
with pauses, adjustments (added and taken), service gaps, illegal moves, late arrival excused and a
move that ends the game, the clock folded one event at a time from snapshots (stored as JSON, as the
database keeps them) is the clock the replay of every event gives, and an event the replay refuses is
refused the same way.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from corr.clock import EventError
from corr.clock.live import LiveAdjust, LiveExcuse, LiveMove, SnapshotMismatch, live_clock

from .live_builders import T0, presses, seconds
from .test_live_properties import SPECS, end_of, live_games


@st.composite
def live_games_with_more(draw):
    """:func:`live_games` with a few more kinds of events slipped in: a taking adjustment (which the rules
    may refuse), an excuse of late arrival, and a last move that ends the game."""
    rules, events, now = draw(live_games())
    events = list(events)
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(1, len(events)))
        at = end_of(events[k - 1])
        extra = draw(st.sampled_from(["take", "excuse"]))
        if extra == "take":
            events.insert(k, LiveAdjust(draw(st.sampled_from(["white", "black"])), -draw(st.integers(1, 30_000)), at))
        else:
            events.insert(k, LiveExcuse(draw(st.sampled_from(["white", "black"])), at))
    if draw(st.booleans()):
        replay = _outcome(rules, events, end_of(events[-1]))
        if not isinstance(replay, EventError) and not replay.paused:
            side = replay.to_move
            at = end_of(events[-1]) + draw(st.integers(0, 5000))
            events.append(LiveMove(side, replay.players[side].moves_made + 1, at, ends_game=True))
            now = max(now, at)
    return rules, events, now


def _outcome(rules, events, at, snapshot=None):
    """``live_clock``'s clock, or the EventError it raised."""
    try:
        return live_clock(rules, events, at, snapshot=snapshot)
    except EventError as error:
        return error


def _same(incremental, replay) -> None:
    if isinstance(replay, EventError):
        assert isinstance(incremental, EventError), f"the replay refused {replay}, the fold did not"
        assert (incremental.field, str(incremental)) == (replay.field, str(replay))
        return
    assert not isinstance(incremental, EventError), incremental
    assert incremental.as_json() == replay.as_json()
    assert {s: p.fields() for s, p in incremental.players.items()} == {s: p.fields() for s, p in replay.players.items()}
    assert incremental.snapshot == replay.snapshot


@given(live_games_with_more(), st.data())
def test_folding_one_event_at_a_time_gives_the_replay_at_every_prefix(game, data):
    rules, events, now = game
    stored = None  # the snapshot as the database keeps it: JSON text, read back
    for k in range(len(events)):
        at = end_of(events[k])
        replay = _outcome(rules, events[:k + 1], at)
        incremental = _outcome(rules, events[k:k + 1], at, stored) if k else _outcome(rules, events[:1], at)
        _same(incremental, replay)
        if isinstance(replay, EventError):
            return
        # The clock at a later instant from the snapshot, with no new event: what a page's read computes.
        later = at + data.draw(st.integers(0, 60_000), label="later")
        _same(live_clock(rules, [], later, snapshot=json.loads(json.dumps(replay.snapshot))),
              live_clock(rules, events[:k + 1], later))
        stored = json.loads(json.dumps(incremental.snapshot))
    final = live_clock(rules, events, now)
    assert live_clock(rules, [], now, snapshot=stored).as_json() == final.as_json()


@given(live_games(), st.data())
def test_a_snapshot_taken_anywhere_resumes_to_the_same_clock(game, data):
    rules, events, now = game
    k = data.draw(st.integers(0, len(events) - 1))
    snapshot = live_clock(rules, events[:k + 1], end_of(events[k])).snapshot
    _same(live_clock(rules, events[k + 1:], now, snapshot=snapshot), live_clock(rules, events, now))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s["system"])
def test_a_long_game_folds_to_the_replay_under_every_system(spec):
    """3,000 presses one by one from snapshots: the state after the last is the replay's."""
    rules = seconds(spec)
    events, last = presses([(i * 7919) % 2500 for i in range(3000)])
    clock = live_clock(rules, events[:1], T0)
    for k in range(1, len(events)):
        clock = live_clock(rules, events[k:k + 1], events[k].at_ms, snapshot=clock.snapshot)
    assert clock.as_json() == live_clock(rules, events, last).as_json()


def test_a_snapshot_of_another_time_control_is_refused():
    fischer = seconds({"system": "fischer", "initial": 20, "increment": 2})
    events, last = presses([1000, 2000])
    snapshot = live_clock(fischer, events, last).snapshot
    with pytest.raises(SnapshotMismatch, match="another time control"):
        live_clock(seconds({"system": "fischer", "initial": 30, "increment": 2}), [], last, snapshot=snapshot)
    with pytest.raises(SnapshotMismatch, match="not a live clock snapshot"):
        live_clock(fischer, [], last, snapshot={**snapshot, "format": 0})
