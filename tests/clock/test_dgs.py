"""Dragon Go Server's clock (issue 40): a day of 15 counted hours, and add time with a byo-yomi reset.

The figures of the add-time cases are DGS's own: its unit test scripts/tests/GameAddTimeTest.php
(``test_add_time``, labels J.R1 to F.R4) on a game "J: 14d + 1d * 10" held in hours (a day is 15 hours,
``time_convert_to_hours``): Maintime 210, Byotime 15, Byoperiods 10. DGS keeps a player's clock as (m, b, p):
main hours left, hours left in the period in hand, periods left *after* it (-1 before byo-yomi is entered;
entering it sets b = B, p = P - 1, include/time_functions.php ``time_remaining``). corr keeps, between
moves, (main left, periods left counting the one in hand), each period whole (Japanese byo-yomi refills
the period with every move made in it): DGS's (m, B, p) is corr's (m, p + 1), DGS's (m, 0, -1) corr's
(m, P). The rows DGS seeds with b = 7 compare on m and p: corr holds no half-used period between moves.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corr.clock import ClockError, compute, read_game
from corr.clock.counts import rfc3339
from corr.clock.presets import preset_ruleset
from corr.clock.systems import parse_time_control

HOUR = 3600
DAY = 15 * HOUR  # DGS: "15h = 1d incl. 9h sleeping-time" (specs/db/table-Games.txt)
START = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)  # a Monday

# GameAddTimeTest's setUp: T=JAP, M=210 (14 d), B=15 (1 d), P=10.
JAPANESE = parse_time_control({"system": "byoyomi", "main": 14, "periods": 10, "period_time": 1,
                               "count": "exact", "day_hours": 15}).system


def carry(main_hours, periods_left):
    """corr's carry of a player at the start of a move: main time left and periods left."""
    start = JAPANESE.begin(1)
    return type(start)(start.made, start.at_zero, None, 0, 0, 0, main_hours * HOUR, periods_left, False)


def corr_periods(dgs_p):
    """corr's periods left for DGS's Byoperiods p (b = B): the one in hand and p more; -1, all P to come."""
    return JAPANESE.periods if dgs_p < 0 else dgs_p + 1


@pytest.mark.parametrize(("label", "seed", "hours", "reset", "expected"), [
    # (label, DGS (m, p) before, add_hours, reset_byo, DGS (m, p) after), from GameAddTimeTest::test_add_time
    ("J.R2", (210, 3), 0, True, (210, -1)),       # no add, with reset: byo-yomi as not entered
    ("J.R3", (0, 3), 0, False, (0, 3)),            # no add, no reset (byo-yomi started): untouched
    ("J.R4", (210, 3), 45, False, (255, 3)),       # add 45 h (3 d), no reset: periods kept
    ("J.R5", (210, 3), 45, True, (255, -1)),       # add, with reset: all periods to come
    ("J.R8", (0, 3), 0, True, (0, 10)),            # no add, with reset in byo-yomi: b = 15, p = 10
])
def test_dgs_add_time_cases_give_dgs_figures(label, seed, hours, reset, expected):
    after = JAPANESE.give(carry(seed[0], corr_periods(seed[1])), hours * HOUR, reset)
    assert (after.main, after.periods) == (expected[0] * HOUR, corr_periods(expected[1])), label


def test_a_full_reset_in_byoyomi_leaves_one_period_more_than_entering_it_as_dgs_counts():
    # J.R8 leaves b = 15, p = 10; time_remaining flags once the hours used E reach b + p * B (its comment:
    # "d = floor((S + E - B)/S)", byoper - d < 0): 15 + 10 * 15 = 165 h, 11 periods of 15 h. A move of
    # 164 h keeps the last; one of 165 h (the flag falls at zero under exact) loses.
    reset = JAPANESE.give(carry(0, 4), 0, True)
    assert JAPANESE._play(reset.main, reset.periods, 164 * HOUR, 1) == (0, 1, False)
    assert JAPANESE._play(reset.main, reset.periods, 165 * HOUR, 1)[2] is True


def test_time_given_in_byoyomi_becomes_main_time_as_dgs_adds_it():
    # DGS: "{opp}_Maintime += add_hours" whatever the periods: in byo-yomi (m = 0, p = 3) 45 h added make
    # m = 45; a move of 20 h then leaves m = 25 and the periods untouched (time_remaining: main > elapsed).
    given_ = JAPANESE.give(carry(0, 4), 45 * HOUR, False)
    assert JAPANESE._play(given_.main, given_.periods, 20 * HOUR, 1) == (25 * HOUR, 4, False)


# Game files: white to move, in DGS's J: 14d + 1d * 10, counted exact in 15-hour days, no nights (every hour
# counts, as for a player whose night the game's hours avoid).
def game(white_hours, events=(), as_of_hours=0, control=None, gifts=None):
    """White's first move took ``white_hours``; black answered at once; white's move 2 runs from then."""
    sent = START + timedelta(hours=white_hours)
    rules = {"time_control": control or {"system": "byoyomi", "main": 14, "periods": 10, "period_time": 1,
                                         "count": "exact", "day_hours": 15},
             "gifts": gifts or {"max_days": 14, "reset_byoyomi": True}}
    data = {"ruleset": rules, "official_start": rfc3339(START), "players": {"white": {}, "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_at": rfc3339(sent)},
                       {"type": "move", "player": "black", "number": 1, "received_at": rfc3339(sent),
                        "sent_at": rfc3339(sent)},
                       {"type": "move", "player": "white", "number": 2, "received_at": rfc3339(sent)},
                       *events]}
    return compute(read_game(data)[0], sent + timedelta(hours=as_of_hours))


def gift(hours_after_move_1, days, reset=False):
    out = {"type": "gift", "player": "white", "at": rfc3339(START + timedelta(hours=hours_after_move_1)),
           "days": days}
    if reset:
        out["reset_byoyomi"] = True
    return out


def test_a_reset_in_a_game_restores_the_periods_and_moves_the_flag_by_them():
    # Move 1 took 210 + 15 * 6 + 5 = 305 h: main time (210 h) and 6 periods used up, the 7th begun and
    # refilled by the move: 4 left (DGS m = 0, p = 3). White's move 2 may then run 4 * 15 = 60 h.
    plain = game(305).accounts["white"]
    assert plain.clock["periods_left"] == 4
    assert plain.flag_at == START + timedelta(hours=305 + 60)
    # Reset one hour into move 2 (J.R8): 11 periods, 165 h from the move's start.
    reset = game(305, [gift(306, 0, reset=True)], as_of_hours=1).accounts["white"]
    assert reset.clock["periods_left"] == 11
    assert reset.flag_at == START + timedelta(hours=305 + 165)
    # The same with 3 days (45 h) added (J.R5 in byo-yomi): m = 45, all 10 periods to come: 45 + 150 h.
    both = game(305, [gift(306, 3, reset=True)], as_of_hours=1).accounts["white"]
    assert both.flag_at == START + timedelta(hours=305 + 45 + 150)
    assert both.clock["main_seconds"] == 44 * HOUR and both.clock["in_byoyomi"] is False


def test_a_reset_is_charged_to_no_one():
    given_ = game(305, [gift(306, 0, reset=True)], as_of_hours=2)
    plain = game(305, as_of_hours=2)
    assert given_.accounts["black"] == plain.accounts["black"]
    assert given_.accounts["white"].thinking_days == plain.accounts["white"].thinking_days
    assert given_.accounts["white"].credit_days == 0


def test_under_fischer_time_a_reset_changes_nothing_but_the_time_added():
    # F.R3 / F.R4: 45 h added make m = 255 with or without the reset (DGS: "if BYOTYPE_FISCHER, reset_byo = 0").
    fischer = {"system": "fischer", "initial": 14, "increment": 1, "count": "exact", "day_hours": 15}
    plain = game(20, control=fischer).accounts["white"]
    added = game(20, [gift(21, 3)], as_of_hours=1, control=fischer).accounts["white"]
    reset = game(20, [gift(21, 3, reset=True)], as_of_hours=1, control=fischer).accounts["white"]
    assert added.flag_at == reset.flag_at == plain.flag_at + timedelta(hours=45)


@pytest.mark.parametrize(("days", "reset", "gifts", "field"), [
    (15, False, None, "days"),   # "Invalid value for add_hours": above MAX_ADD_DAYS (14) days
    (-7, False, None, "days"),   # "Invalid value": below 0
    (0, False, None, "days"),    # nothing given and nothing reset: DGS's form offers 0 days only with a reset
    (0, True, {"max_days": 14}, "reset_byoyomi"),  # a ruleset without DGS's reset
])
def test_what_dgs_refuses_is_refused_naming_the_field(days, reset, gifts, field):
    with pytest.raises(ClockError) as error:
        game(305, [gift(306, days, reset=reset)], as_of_hours=1, gifts=gifts)
    assert error.value.field == f"events[3].{field}"


def test_the_day_of_fifteen_hours_needs_the_exact_count():
    for count, day_hours in (("whole_days", 15), ("exact", 12)):
        with pytest.raises(ClockError) as error:
            parse_time_control({"system": "per_move", "time": 1, "count": count, "day_hours": day_hours})
        assert error.value.field == "ruleset.time_control.day_hours"


def test_the_dgs_preset_reads_and_writes_its_day():
    control = parse_time_control(preset_ruleset("dgs_japanese", None)["time_control"])
    assert control.day_seconds == DAY
    assert control.as_json()["day_hours"] == 15


# Property tests: the night of a 15-hour day, and a reset, under the preset's rules.
@settings(max_examples=50, deadline=None)
@given(night_start=st.integers(0, 23), received=st.integers(0, 72), into_night=st.integers(0, 9 * 60),
       system=st.sampled_from(["per_move", "byoyomi"]))
def test_the_fifteen_hour_day_never_charges_a_night_hour(night_start, received, into_night, system):
    control = {"per_move": {"system": "per_move", "time": 2},
               "byoyomi": {"system": "byoyomi", "main": 1, "periods": 2, "period_time": 1}}[system]
    control = {**control, "count": "exact", "day_hours": 15}
    got = START + timedelta(hours=received)
    black = {"calendar": {"time_zone": "UTC", "night": {"from": f"{night_start:02d}:00", "hours": 9}}}
    data = {"ruleset": {"time_control": control, "player_calendars": "own_zone"}, "official_start": rfc3339(START),
            "players": {"white": {}, "black": black},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_at": rfc3339(got)},
                       {"type": "move", "player": "black", "number": 1, "received_at": rfc3339(got)}]}
    game_ = read_game(data)[0]
    night = got.replace(hour=night_start)  # the first night to begin after the move arrived: fewer than
    if night <= got:                         # 15 counted hours away, less than the move's 30 (2 DGS days)
        night += timedelta(days=1)
    at_dusk = compute(game_, night).accounts["black"]
    in_night = compute(game_, night + timedelta(minutes=into_night)).accounts["black"]
    if at_dusk.overstepped is None:
        assert in_night.flag_at == at_dusk.flag_at
        assert in_night.thinking_days == at_dusk.thinking_days
        assert in_night.clock == at_dusk.clock
    # The flag never falls inside a night: every counted hour is a day hour.
    flag = compute(game_, got).accounts["black"].flag_at
    into = (flag - START - timedelta(hours=night_start)) % timedelta(days=1)
    assert not timedelta(0) < into < timedelta(hours=9)


@settings(max_examples=50, deadline=None)
@given(first=st.integers(1, 400), after=st.integers(0, 30), days=st.integers(0, 14), reset=st.booleans(),
       later=st.integers(0, 100))
def test_time_given_with_a_reset_is_charged_to_no_one_and_leaves_the_other_clock(first, after, days, reset,
                                                                                    later):
    if days == 0 and not reset:
        reset = True  # a gift of nothing is refused: with no days it is a reset
    events = [gift(first + after, days, reset=reset)]
    as_of = after + later
    plain = game(first, as_of_hours=as_of)
    given_ = game(first, events, as_of_hours=as_of)
    assert given_.accounts["black"] == plain.accounts["black"]
    before, now = plain.accounts["white"], given_.accounts["white"]
    assert now.thinking_days == before.thinking_days
    assert now.credit_days == days
    if before.overstepped is None and after < 1000:
        # never less time than without it: the reset restores periods, the days add main time
        assert now.overstepped is None and now.flag_at >= before.flag_at
        if not reset:
            assert now.flag_at - before.flag_at == timedelta(hours=15 * days)
