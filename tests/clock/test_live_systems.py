"""Every system of time control in seconds (issue 16, part 1): the same implementation as in days.

Worked examples with their arithmetic in the comments; amounts are seconds in the JSON and integer
milliseconds everywhere else. ``W``/``B`` are white's and black's thinking times in order.
"""

from __future__ import annotations

import pytest

from corr.clock import Ruleset, RulesetError
from corr.clock.presets import PRESETS
from corr.clock.systems import parse_time_control

from .live_builders import S, clock_after, seconds


def test_sudden_death_in_seconds_is_one_clock_for_the_game():
    sd = seconds({"system": "sudden_death", "time": 300})
    # W 100 s, B 50 s, W 150 s: white 300 - 250 = 50 s; black 250 s and running 20 s: 230 s.
    c = clock_after(sd, [100 * S, 50 * S, 150 * S], running_ms=20 * S)
    assert (c.players["white"].remaining_ms, c.players["black"].remaining_ms) == (50 * S, 230 * S)
    assert c.running == "black" and c.next_flag_at_ms == c.now_ms + 230 * S


def test_fischer_in_seconds_adds_the_increment_after_the_move_fractions_of_a_second_kept():
    fischer = seconds({"system": "fischer", "initial": 60, "increment": 2.25})
    # White: 60 - 10.5 + 2.25 = 51.75 s, then 51.75 - 1 + 2.25 = 53 s.
    c = clock_after(fischer, [10_500, 4 * S, 1 * S])
    assert c.players["white"].remaining_ms == 53_000
    assert c.players["white"].state["increment_ms"] == 2250
    assert c.players["black"].remaining_ms == 60 * S - 4 * S + 2250


def test_fide_classical_live_carries_unused_time_and_adds_30_s_from_move_1():
    fide = Ruleset.from_mapping(PRESETS["fide_classical_live"])
    # 40 moves of 2 minutes each side: 5400 + 40 x 30 - 40 x 120 = 1800 s saved, plus the 1800 s of
    # the second period: 3600 s for the rest of the game, control 2.
    c = clock_after(fide, [120 * S] * 80)
    white = c.players["white"]
    assert white.remaining_ms == 3600 * S and white.state["stage"] == 2
    # Move 40 in control 1, one second before the end: 39 x 120 + ... no flag.
    assert not c.flags


def test_plain_stages_in_seconds_flag_the_stage_at_its_instant():
    draughts = Ruleset.from_mapping(PRESETS["draughts_live"])
    # 40 moves in 7200 s: white spends 7200 s on its first move; black answers at once; white's flag
    # for control 1 falls the instant its clock shows 0 (000 12.9), during move 2.
    c = clock_after(draughts, [7199 * S, 1 * S], running_ms=5 * S)
    (player, at, control, move), = c.flags
    assert (player, at - (c.now_ms - 5 * S), control, move) == ("white", 1 * S, 1, 2)


def test_delay_in_seconds_leaves_the_main_time_as_it_was_within_the_delay():
    delay = seconds({"system": "delay", "main": 300, "delay": 5})
    # White: 3 s (within the delay: 300 s), then 8 s (3 s beyond it: 297 s); running 2 s: the main
    # time is untouched and 3 s of the delay remain; the flag falls after 297 + 3 s.
    c = clock_after(delay, [3 * S, 1 * S, 8 * S, 1 * S], running_ms=2 * S)
    white = c.players["white"]
    assert (white.state["main_ms"], white.state["delay_left_ms"], white.remaining_ms) == (297 * S, 3 * S, 300 * S)


def test_byoyomi_in_seconds_uses_up_overrun_periods():
    go = seconds({"system": "byoyomi", "main": 10, "periods": 3, "period_time": 5}, first="black")
    # Black 12 s: 2 s past main time, in period 1, which it keeps: 3 periods. Black 11 s: past two
    # periods (5, 10), made in the third: 1 period left, 5 s. White (1 s each) has 8 s main time left.
    c = clock_after(go, [12 * S, 1 * S, 11 * S, 1 * S], first="black")
    black = c.players["black"]
    assert (black.state["periods_left"], black.state["period_ms"], black.remaining_ms) == (1, 5 * S, 5 * S)
    assert c.players["white"].state["main_ms"] == 8 * S
    # With nobody pressing, the flag falls 5 s after black's clock starts.
    assert c.next_flag_at_ms == c.now_ms + 5 * S


def test_canadian_in_seconds_renews_a_completed_block():
    canadian = seconds({"system": "canadian", "main": 10, "moves": 2, "period_time": 10})
    # White 10 s: main time used up exactly, the move opens block 1 (1 move left, 10 s); white 4 s
    # completes the block: a fresh one of 2 moves in 10 s.
    c = clock_after(canadian, [10 * S, 1 * S, 4 * S, 1 * S])
    white = c.players["white"]
    assert (white.state["block"], white.state["block_moves_left"], white.state["block_ms_left"]) == (2, 2, 10 * S)
    # In block 1 after one move, 3 s into the second: 10 s - 0 s over main - 3 s = 7 s, 1 move left.
    c = clock_after(canadian, [10 * S, 1 * S], running_ms=3 * S)
    assert (c.players["white"].state["block_moves_left"], c.players["white"].remaining_ms) == (1, 7 * S)


def test_per_move_in_seconds_flags_a_move_over_its_time():
    per_move = seconds({"system": "per_move", "time": 30})
    c = clock_after(per_move, [25 * S, 1 * S], running_ms=31 * S)
    assert [(p, m) for p, _, _, m in c.flags] == [("white", 2)]
    assert c.flags[0][1] == c.now_ms - 1 * S  # 30 s after white's clock started


def test_go_byoyomi_live_preset_starts_black_and_counts_late_arrival_on_half_the_main_time():
    go = Ruleset.from_mapping(PRESETS["go_byoyomi_live"])
    assert go.time_control.live.first == "black"
    assert go.time_control.live.late_arrival_ms == go.time_control.system.main // 2


@pytest.mark.parametrize("name", [n for n in PRESETS if n.endswith("_live")])
def test_every_live_preset_reads_and_writes_back(name):
    ruleset = Ruleset.from_mapping(PRESETS[name])
    assert Ruleset.from_mapping(ruleset.as_dict()) == ruleset


def test_seconds_amounts_are_held_as_whole_milliseconds():
    tc = parse_time_control({"system": "fischer", "initial": 0.5, "increment": 0.001, "unit": "seconds"})
    assert (tc.system.initial, tc.system.increment) == (500, 1)
    assert tc.as_json()["initial"] == 0.5 and tc.as_json()["unit"] == "seconds"


def test_a_days_control_writes_the_json_it_always_wrote():
    spec = {"system": "fischer", "initial": 30, "increment": 1, "max": 45}
    assert parse_time_control(spec).as_json() == spec
    assert parse_time_control({**spec, "unit": "days"}).as_json() == spec


@pytest.mark.parametrize("spec, field", [
    ({"system": "fischer", "initial": 1.0005, "increment": 0, "unit": "seconds"}, "ruleset.time_control.initial"),
    ({"system": "fischer", "initial": "60", "increment": 0, "unit": "seconds"}, "ruleset.time_control.initial"),
    ({"system": "fischer", "initial": 0, "increment": 0, "unit": "seconds"}, "ruleset.time_control.initial"),
    ({"system": "fischer", "initial": 1.5, "increment": 0}, "ruleset.time_control.initial"),
    ({"system": "fischer", "initial": 60, "increment": 0, "unit": "hours"}, "ruleset.time_control.unit"),
    ({"system": "fischer", "initial": 60, "increment": 0, "first": "black"}, "ruleset.time_control.first"),
    ({"system": "fischer", "initial": 60, "increment": 0, "unit": "seconds", "first": "red"},
     "ruleset.time_control.first"),
    ({"system": "fischer", "initial": 60, "increment": 0, "unit": "seconds", "illegal_move_limit": 0},
     "ruleset.time_control.illegal_move_limit"),
    ({"system": "fischer", "initial": 60, "increment": 0, "unit": "seconds", "double_after": 20},
     "ruleset.time_control.double_after"),
    ({"system": "periods", "stages": [{"moves": None, "time": 60, "increment": -1}], "unit": "seconds"},
     "ruleset.time_control.stages[0].increment"),
])
def test_bad_seconds_fields_are_refused_naming_the_field(spec, field):
    with pytest.raises(RulesetError) as error:
        Ruleset.from_mapping({"time_control": spec})
    assert error.value.field == field


def test_a_ruleset_in_seconds_is_a_live_one():
    assert seconds({"system": "sudden_death", "time": 60}).is_live
    assert not Ruleset().is_live
    assert not Ruleset.from_mapping({"time_control": {"system": "sudden_death", "time": 60}}).is_live


def test_the_correspondence_calculator_refuses_a_control_in_seconds():
    from corr.clock import Game, Player, compute
    from datetime import date

    game = Game(date(2026, 1, 10), (Player("white"), Player("black")), (),
                seconds({"system": "sudden_death", "time": 60}))
    with pytest.raises(RulesetError) as error:
        compute(game, date(2026, 1, 11))
    assert error.value.field == "ruleset.time_control.unit"
