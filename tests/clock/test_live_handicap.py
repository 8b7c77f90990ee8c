"""Go's free handicap placement is not charged (issue 40, OGS): black places its stones first, one move each, on
a clock that does not run; white's clock starts at the last stone. Worked examples."""

from __future__ import annotations

import pytest

from corr.clock import EventError
from corr.clock.live import LiveMove, LiveStart, live_clock

from .live_builders import S, T0, seconds

GO = seconds({"system": "fischer", "initial": 600, "increment": 10}, first="black", late_arrival_seconds=300)


def test_black_s_clock_does_not_run_while_it_places_its_stones():
    # Three stones at 40 s, 100 s and 400 s: 400 s of wall time, more than the 300 s of late arrival.
    events = [LiveStart(T0, handicap_stones=3)] + [LiveMove("black", n, T0 + at * S) for n, at in
                                                     ((1, 40), (2, 100))]
    placing = live_clock(GO, events, T0 + 399 * S)
    assert placing.to_move == "black" and placing.running is None and placing.handicap_stones_left == 1
    assert placing.next_flag_at_ms is None and placing.late_arrival_deadline_ms is None
    assert placing.players["black"].remaining_ms == 600 * S and placing.forfeit is None
    done = live_clock(GO, events + [LiveMove("black", 3, T0 + 400 * S)], T0 + 430 * S)
    # No increment for the stones (they are no moves of the time control); white has run 30 s since the last.
    assert done.players["black"].remaining_ms == 600 * S and done.players["black"].used_ms == 0
    assert done.running == "white" and done.handicap_stones_left == 0
    assert done.players["white"].remaining_ms == 570 * S
    assert [line.charged_ms for line in done.ledger if line.kind == "move"] == [0, 0, 0]


def test_black_s_first_move_after_white_s_is_charged_as_usual():
    events = [LiveStart(T0, handicap_stones=2), LiveMove("black", 1, T0 + 50 * S), LiveMove("black", 2, T0 + 90 * S),
              LiveMove("white", 1, T0 + 100 * S), LiveMove("black", 3, T0 + 120 * S)]
    clock = live_clock(GO, events, T0 + 120 * S)
    # White: 10 s, +10 s increment; black's move 3: 20 s, +10 s.
    assert clock.players["white"].remaining_ms == 600 * S
    assert clock.players["black"].remaining_ms == 590 * S


def test_without_a_handicap_black_s_clock_runs_from_the_start():
    clock = live_clock(GO, [LiveStart(T0), LiveMove("black", 1, T0 + 40 * S)], T0 + 40 * S)
    assert clock.players["black"].remaining_ms == 570 * S and clock.to_move == "white"


@pytest.mark.parametrize("stones, first, words", [
    (1, "black", "one stone is black's first move"),
    (10, "black", "0..9"),
    (2, "white", "black moves first"),
])
def test_a_handicap_that_is_no_free_placement_is_refused_naming_the_field(stones, first, words):
    ruleset = seconds({"system": "fischer", "initial": 600, "increment": 10}, first=first)
    with pytest.raises(EventError) as error:
        live_clock(ruleset, [LiveStart(T0, handicap_stones=stones)], T0)
    assert error.value.field == "events[0].handicap_stones" and words in str(error.value)
