"""Every time-control system (issue: every system of the seeds and of the leading servers).

Each system is shown at its boundaries with worked examples; the arithmetic is
in the comments. ``t`` is the days charged to a move. The systems are driven
through ``MoveTimes`` directly (the control layer) and, for the options and
the JSON, through whole games (both layers).
"""

from __future__ import annotations

import pytest

from corr.clock import Ruleset, RulesetError, Variant, compute
from corr.clock.systems import (
    Byoyomi, Canadian, Delay, Fischer, MoveTimes, PerMove, Periods, Stage, parse_time_control,
)
from corr.clock.presets import PRESETS, preset_ruleset

from .builders import alternate, d, game, move, penalty


def fold(system, completed, current=0):
    return system.state(MoveTimes(completed=tuple(completed), current=current, number=len(completed) + 1))


def fell_at(state):
    return None if state.overstepped is None else state.overstepped.through_move


# --- periods -----------------------------------------------------------------------------------

FIDE = Periods((Stage(40, 120), Stage(20, 60), Stage(None, 30)))


def test_periods_carry_unused_time_to_the_next_stage():
    # 40 moves of 2 days = 80 of 120; the next 20 moves get 60 + the 40 saved: 100 left at move 41.
    s = fold(FIDE, [2] * 40)
    assert (s.window.number, s.window.through_move, s.window.allowed_days, s.window.remaining_days) == (2, 60, 180, 100)


def test_a_move_ending_exactly_on_the_flag_does_not_overstep():
    # Stage 1: 39 moves of 3 days = 117, move 40 takes 3: 120 = 120 exactly.
    assert fell_at(fold(FIDE, [3] * 40)) is None
    # One more day on move 40: 121 > 120, the flag fell at the end of stage 1 (move 40).
    assert fell_at(fold(FIDE, [3] * 39 + [4])) == 40


def test_the_rest_of_the_game_stage_has_no_last_move():
    s = fold(FIDE, [1] * 70)
    # 70 used of 120 + 60 + 30 = 210: 140 left, in stage 3 which runs to the end.
    assert (s.window.number, s.window.remaining_days, s.clock["stage_last_move"]) == (3, 140, None)


def test_non_cumulative_periods_lose_unused_time():
    lss = Periods((Stage(10, 30),), repeat_last=True, cumulative=False)
    # Moves 1-10 use 10 of 30. Moves 11-20 use 21 + 8 * 1 + 2 = 31: over their own 30, the 20
    # saved days being lost, so the flag falls at move 20.
    games = [1] * 10 + [21] + [1] * 8 + [2]
    assert fell_at(fold(lss, games)) == 20
    # With carry-over the same moves are 10 + 31 = 41 <= 60 through move 20: no overstep.
    carry = Periods((Stage(10, 30),), repeat_last=True, cumulative=True)
    assert fell_at(fold(carry, games)) is None
    # And one day less in the second ten is within 30 even without carry-over.
    assert fell_at(fold(lss, [1] * 10 + [21] + [1] * 8 + [1])) is None


def test_sudden_death_is_one_period_for_all_moves():
    s = fold(parse_time_control({"system": "sudden_death", "time": 60}).system, [5] * 11, current=4)
    assert (s.window.remaining_days, fell_at(s)) == (1, None)  # 55 + 4 = 59 of 60
    assert fell_at(fold(parse_time_control({"system": "sudden_death", "time": 60}).system, [5] * 12, 1)) == 13


# --- Fischer -----------------------------------------------------------------------------------

SM = Fischer(initial=30, increment=1, max=45)


def test_fischer_adds_the_increment_after_each_move_and_caps_the_clock():
    # 30 -> move of 0 -> 31 -> ... after 15 quick moves 45, and it stays at the cap of 45.
    assert fold(SM, [0] * 15).window.allowed_days == 45
    assert fold(SM, [0] * 20).window.allowed_days == 45
    # 30 - 10 + 1 = 21 for move 2.
    assert fold(SM, [10]).window.allowed_days == 21


def test_fischer_flag_falls_when_a_move_exceeds_the_clock():
    assert fell_at(fold(SM, [30])) is None     # exactly the clock: 0 left, then + 1
    assert fell_at(fold(SM, [31])) == 1
    assert fold(SM, [10], current=22).window.remaining_days == -1  # 21 on the clock, 22 used


def test_fischer_without_a_cap_grows():
    assert fold(Fischer(initial=30, increment=3), [0] * 10).window.allowed_days == 60


# --- delay (temps différé) -----------------------------------------------------------------------

def test_the_first_days_of_each_move_are_free_and_unused_delay_is_lost():
    fide = Delay(main=30, delay=2)
    # Moves of 1, 2 and 5 days: only 5 - 2 = 3 comes off the main time: 27 left.
    s = fold(fide, [1, 2, 5])
    assert s.window.remaining_days == 27
    # The current move may use its 2 free days plus the 27: the flag falls after 29 days.
    assert fold(fide, [1, 2, 5], current=29).overstepped is None
    assert fell_at(fold(fide, [1, 2, 5], current=30)) == 4


# --- Japanese byo-yomi (Go 12.2 type 1) -----------------------------------------------------------

DGS = Byoyomi(main=10, periods=3, period_time=2)


def test_main_time_comes_first():
    s = fold(DGS, [4, 4])
    assert (s.clock["main_days"], s.clock["periods_left"], s.clock["in_byoyomi"]) == (2, 3, False)


def test_the_first_move_after_main_time_starts_in_the_periods():
    # Main 10: a move of 13 runs 3 days past it: period 1 (2 days) used up, made in period 2.
    s = fold(DGS, [13])
    assert (s.clock["main_days"], s.clock["periods_left"]) == (0, 2)


def test_a_move_within_a_period_keeps_it_and_one_ending_on_its_end_too():
    s = fold(DGS, [10, 2, 1, 2])
    assert s.clock["periods_left"] == 3


def test_the_flag_falls_when_the_last_period_is_overrun():
    # After main: 3 periods of 2 days = 6 days for one move; 6 is the limit, 7 oversteps.
    assert fell_at(fold(DGS, [10, 6])) is None
    assert fold(DGS, [10, 6]).clock["periods_left"] == 1  # made in period 3: two used up
    assert fell_at(fold(DGS, [10, 7])) == 2
    # In the last period: a move of 3 days > 2 oversteps.
    assert fell_at(fold(DGS, [10, 6, 3])) == 3


# --- Canadian byo-yomi (Go 12.2 type 2) -----------------------------------------------------------

CA = Canadian(main=10, moves=3, period_time=6)


def test_canadian_blocks_reset_afresh_and_saved_time_is_lost():
    # Move 1 uses the 10 days of main time exactly: it opens block 1 (moves 1-3, 6 days) with 0 days.
    # Moves 2 and 3 take 1 day each: block 1 done with 4 days saved, which are lost. Block 2 starts
    # afresh; move 4 takes 1 day: 5 days left for its 2 other moves.
    s = fold(CA, [10, 1, 1, 1])
    assert (s.clock["block"], s.clock["block_moves_left"], s.clock["block_days_left"]) == (2, 2, 5)


def test_a_move_that_runs_out_of_main_time_starts_the_first_block():
    # Main 10: a move of 12 puts 2 days in block 1: 4 days left for 2 more moves.
    s = fold(CA, [12])
    assert (s.clock["in_overtime"], s.clock["block_moves_left"], s.clock["block_days_left"]) == (True, 2, 4)


def test_the_flag_falls_when_a_block_runs_out_before_its_moves():
    assert fell_at(fold(CA, [10, 3, 3, 1])) is None   # block 1 = moves 1-3: 0 + 3 + 3 = 6 of 6
    assert fell_at(fold(CA, [10, 3, 4])) == 3         # 0 + 3 + 4 = 7 > 6 before the block's third move


def test_playing_faster_never_shifts_a_canadian_block_against_the_player():
    # Found by the property test: with moves 1, 10, 15, 1 and main 25 the first block starts at
    # move 3 (25 days used up); playing move 1 in 0 days must not leave move 5 less time.
    slow, fast = Canadian(main=25, moves=2, period_time=5), [0, 10, 15, 1]
    assert fell_at(fold(slow, [1, 10, 15, 1], current=5)) is None
    assert fell_at(fold(slow, fast, current=5)) is None


# --- days per move ---------------------------------------------------------------------------------

def test_every_move_within_its_days_and_nothing_accumulates():
    lichess = PerMove(time=3)
    assert fold(lichess, [0, 0, 0], current=3).window.remaining_days == 0
    assert fell_at(fold(lichess, [0, 0, 0], current=4)) == 4
    assert fell_at(fold(lichess, [3, 4, 0])) == 2


# --- options through whole games: double time and the per-move limit ------------------------------

# ICCF's numbers counted in dates (as tournaments created before issue 22 keep them): the preset itself
# now counts whole 24-hour days (tests/clock/test_counts.py).
ICCF = Ruleset.from_mapping({"time_control": {**PRESETS["iccf_10_50"]["time_control"], "count": "dates"}})


def test_iccf_days_beyond_twenty_count_double():
    # White's move 1 from the start 01-10 to 02-02: 23 days cost 20 + 2 * 3 = 26 (ICCF).
    g = game(move("white", 1, sent="02-02"), ruleset=ICCF)
    clock = compute(g, d("02-05"))
    assert clock.accounts["white"].thinking_days == 26
    assert clock.ledger[0].rule == "double_after"


def test_a_deadline_under_double_time_counts_the_dearer_days():
    # Pending from 01-10 with 50 days: 20 single days, then 30 more cost 2 each: 15 days. Deadline 01-10 + 35 =
    # 02-14; but ICCF's 40-day limit is later, so it stands.
    g = game(move("white", 1), ruleset=ICCF)
    assert compute(g, d("01-20")).accounts["white"].deadline == d("02-14")


def test_a_single_move_over_the_limit_oversteps_whatever_the_clock():
    # 10 moves in 50 days, but one move of 41 days (charged 20 + 2 * 21 = 62 anyway) breaks the 40-day rule.
    rules = Ruleset.from_mapping({"time_control": {"system": "periods", "stages": [{"moves": 10, "time": 500}],
                                                   "repeat_last": True, "max_per_move": 40}})
    g = game(move("white", 1, sent="02-20"), ruleset=rules)  # 41 days
    over = compute(g, d("03-01")).accounts["white"].overstepped
    # The move counts from the start, 01-10: day 40 is 02-19, so the flag fell at 02-20 00:00.
    assert over.as_json() == {"control": 1, "through_move": 1, "allowed_days": 40, "used_days": 41,
                              "reason": "max_per_move", "at": "2026-02-20T00:00:00Z"}


def test_the_per_move_limit_bounds_the_deadline():
    rules = Ruleset.from_mapping({"time_control": {"system": "sudden_death", "time": 500, "max_per_move": 40}})
    assert compute(game(move("white", 1), ruleset=rules), d("01-11")).accounts["white"].deadline == d("02-19")


def test_the_json_keeps_its_fields_and_adds_the_systems_clock():
    rules = Ruleset.from_mapping(PRESETS["schemingmind_standard"])
    g = game(move("white", 1, sent="01-12"), move("black", 1, "01-14"), ruleset=rules)
    black = compute(g, d("01-20")).as_json()["players"]["black"]
    assert black["clock"] == {"system": "fischer", "clock_days": 24, "increment_days": 1, "max_days": 45}
    assert black["deadline"] == "2026-02-13"  # 01-14 + 30
    assert {"control", "deadline", "time_trouble", "overstepped", "total_days"} <= set(black)


def test_the_default_ruleset_output_has_no_clock_key():
    assert "clock" not in compute(game(move("white", 1)), d("01-20")).as_json()["players"]["white"]


# --- parsing --------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, field", [
    ({"system": "hourglass"}, "ruleset.time_control.system"),
    ({"system": "fischer", "initial": 0, "increment": 1}, "ruleset.time_control.initial"),
    ({"system": "fischer", "initial": 30}, "ruleset.time_control.increment"),
    ({"system": "periods", "stages": []}, "ruleset.time_control.stages"),
    ({"system": "periods", "stages": [{"moves": None, "time": 5}, {"moves": 5, "time": 5}]},
     "ruleset.time_control.stages[0].moves"),
    ({"system": "periods", "stages": [{"moves": 10, "time": 30}]}, "ruleset.time_control.stages"),
    ({"system": "byoyomi", "main": 10, "periods": 0, "period_time": 1}, "ruleset.time_control.periods"),
    ({"system": "per_move", "time": 3, "double_after": -1}, "ruleset.time_control.double_after"),
    ({"system": "per_move", "time": 3, "speed": 1}, "ruleset.time_control.speed"),
])
def test_a_bad_time_control_names_its_field(data, field):
    with pytest.raises(RulesetError) as caught:
        Ruleset.from_mapping({"time_control": data})
    assert caught.value.field == field


def test_every_preset_is_a_valid_ruleset_and_round_trips():
    for name in PRESETS:
        rules = Ruleset.from_mapping(preset_ruleset(name, None))
        assert Ruleset.from_mapping(rules.as_dict()) == rules


def test_a_preset_key_can_be_overridden():
    rules = Ruleset.from_mapping(preset_ruleset("iccf_10_50", {"time_trouble_days": 7}))
    assert rules.time_trouble_days == 7 and rules.time_control.double_after == 20


def test_an_unknown_preset_is_refused():
    with pytest.raises(RulesetError):
        preset_ruleset("blitz", None)


def test_a_game_under_a_system_reads_and_writes_its_time_control():
    from corr.clock import read_game, write_game

    events, last = alternate([1] * 3, [2] * 3)
    g = game(*events, ruleset=Ruleset.from_mapping(PRESETS["dgs_byoyomi"]))
    again, _ = read_game(write_game(g, last))
    assert again == g
    assert compute(again, last).accounts["black"].clock["system"] == "byoyomi"



# --- issue 11: exact systems ------------------------------------------------------------------------

def test_sudden_death_names_the_move_where_the_time_ran_out_and_keeps_it():
    sd = Periods((Stage(None, 60),), name="sudden_death")
    # 30 + 40 = 70 > 60 during move 2: the flag fell on its 31st day (61 of 60), whatever follows.
    for completed, current in (([30], 31), ([30], 45), ([30, 40], 0), ([30, 40, 1, 5], 9)):
        assert fold(sd, completed, current).overstepped.as_json() == {
            "control": 1, "through_move": 2, "allowed_days": 60, "used_days": 61, "at": None}  # a fold has no instants


def test_the_rest_of_the_game_stage_names_its_move_after_a_counted_stage():
    # FIDE: stage 1 holds 40 moves of 3 = 120 of 120; stage 3 allows 210 in all; moves 41-60 of 3 = 180,
    # then move 61 of 31 reaches 211 > 210: the flag fell on move 61, not on the move being played.
    assert fell_at(fold(FIDE, [3] * 60 + [31] + [1] * 5)) == 61


def test_byoyomi_and_canadian_number_their_controls_from_1():
    assert fold(DGS, [4]).window.number == 1                 # main time
    assert fold(DGS, [10], current=1).window.number == 2     # period 1
    assert fold(DGS, [10], current=7).overstepped.control == 4  # the last of 3 periods
    assert fold(CA, [4]).window.number == 1
    assert fold(CA, [10, 1, 1, 1]).window.number == 3        # block 2


def test_canadian_clock_fields_count_the_running_move():
    # Main 10, 8 used; the running move is at 12: 2 days into block 1, which has 4 left.
    c = fold(CA, [8], current=4).clock
    assert (c["main_days"], c["in_overtime"], c["block"], c["block_days_left"]) == (0, True, 1, 4)
    # And on main time still: 8 + 1 < 10.
    c = fold(CA, [8], current=1).clock
    assert (c["main_days"], c["in_overtime"], c["block"], c["block_days_left"]) == (1, False, 0, 6)


def test_byoyomi_is_in_byoyomi_once_the_running_move_passes_main_time():
    assert fold(DGS, [8], current=2).clock["in_byoyomi"] is False   # exactly the end of main time
    assert fold(DGS, [8], current=3).clock["in_byoyomi"] is True


def test_a_fischer_increment_on_each_stage_move_carries_to_the_next_stage():
    fide = Periods((Stage(40, 90, increment=1), Stage(None, 30, increment=1)))
    # 40 moves of 3: 90 + 40 - 120 = 10 saved, + 30: 40 for move 41; a move of 41 days oversteps there.
    assert fold(fide, [3] * 40).window.allowed_days == 40
    assert fell_at(fold(fide, [3] * 40, current=41)) == 41
    # The increment comes after the move (6.2 "après chaque coup"): move 1 may take 90, not 91.
    assert fell_at(fold(fide, [], current=91)) == 1


def test_a_delay_stage_does_not_carry_its_unused_time():
    s = Periods((Stage(10, 20, delay=1), Stage(None, 10, delay=1)))
    assert fold(s, [1] * 10).window.allowed_days == 10 + 1    # 20 unused days lost (6.2 "excepté ...")
    assert fold(s, [1] * 9, current=21).overstepped is None   # 20 + its free day
    assert fold(s, [1] * 9, current=22).overstepped.as_json() == {
        "control": 1, "through_move": 10, "allowed_days": 21, "used_days": 22, "at": None}  # a fold has no instants


def test_a_stage_has_an_increment_or_a_delay_not_both():
    with pytest.raises(RulesetError) as caught:
        Ruleset.from_mapping({"time_control": {"system": "periods", "stages": [
            {"moves": None, "time": 5, "increment": 1, "delay": 1}]}})
    assert caught.value.field == "ruleset.time_control.stages[0].delay"


def test_byoyomi_after_move_count_main_stages():
    go = parse_time_control({"system": "byoyomi", "main": [{"moves": 2, "time": 5}], "periods": 2,
                             "period_time": 3}).system
    assert fell_at(fold(go, [3, 3])) == 2                     # 6 > 5 in main time: lost (12.10)
    assert fold(go, [1, 1], current=4).clock["periods_left"] == 1  # 3 saved days lost (12.2)
    assert go.as_json()["main"] == [{"moves": 2, "time": 5}]


def test_an_accepted_variant_move_earns_its_fischer_increment():
    # Fischer 10 + 3. Black: move 1 in 4 days (9 left), move 2 accepted from white's variant (+3: 12),
    # move 3 answering that letter (01-22) has run 5 days on 01-27: 7 left, deadline 01-22 + 12.
    rules = Ruleset.from_mapping({"time_control": {"system": "fischer", "initial": 10, "increment": 3}})
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12", "01-16"), move("white", 2, "01-18", "01-20"),
             move("black", 2, variant=Variant.ACCEPTED), move("white", 3, variant=Variant.CONDITIONAL),
             move("black", 3, "01-22"), ruleset=rules)
    clock = compute(g, d("01-27"))
    black = clock.accounts["black"]
    assert (black.remaining_days, black.deadline) == (7, d("02-03"))
    assert clock.ledger[-1].move == 2  # the ledger still charges the 5 days to move 2 (50.4.8)


def test_a_canadian_block_completed_by_an_accepted_variant_move_starts_afresh():
    # Canadian 0 + 2 moves in 6 days. Black's move 1 takes 5 (1 left); move 2, accepted, completes the
    # block; move 3 runs in a fresh block of 6: a 5-day reply is in time.
    rules = Ruleset.from_mapping({"time_control": {"system": "canadian", "main": 0, "moves": 2, "period_time": 6}})
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12", "01-17"), move("white", 2, "01-19", "01-20"),
             move("black", 2, variant=Variant.ACCEPTED), move("white", 3, variant=Variant.CONDITIONAL),
             move("black", 3, "01-22", "01-27"), ruleset=rules)
    black = compute(g, d("01-27")).accounts["black"]
    assert black.overstepped is None
    assert (black.clock["block"], black.clock["block_days_left"]) == (2, 1)  # block 2: 6 - 5


def test_a_penalty_above_the_days_per_move_is_a_loss_on_time():
    rules = Ruleset.from_mapping({"time_control": {"system": "per_move", "time": 3}})
    g = game(move("white", 1), penalty("white", 1), ruleset=rules)  # 0 days + 5 penalty days > 3
    over = compute(g, d("01-10")).accounts["white"].overstepped
    assert (over.through_move, over.allowed_days) == (1, 3)


def test_a_single_move_byoyomi_period_overrun_is_a_loss_not_a_passed_turn():
    assert fell_at(fold(Byoyomi(main=0, periods=1, period_time=2), [2, 3])) == 2
