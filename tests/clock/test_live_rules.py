"""The over-the-board rules of the seeds on a live clock: flags, lag, pauses, arbiter actions, late
arrival, service gaps, and the events refused. Worked examples; arithmetic in the comments."""

from __future__ import annotations

import pytest

from corr.clock import ClockError, EventError, Ruleset
from corr.clock.live import (
    LiveAdjust, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart, live_clock,
)
from corr.clock.presets import PRESETS

from .live_builders import S, T0, presses, seconds

SD60 = seconds({"system": "sudden_death", "time": 60})
FISCHER = seconds({"system": "fischer", "initial": 60, "increment": 5})
HOUR = seconds({"system": "sudden_death", "time": 3600})


# --- flags ------------------------------------------------------------------------------------------

def test_a_press_at_the_instant_the_flag_falls_is_an_overstep():
    # 000 12.9: "Если в момент переключения часов флажок упал, то фиксируется просрочка времени."
    at_flag = live_clock(SD60, [LiveStart(T0), LiveMove("white", 1, T0 + 60 * S)], T0 + 60 * S)
    assert [(p, at) for p, at, _, _ in at_flag.flags] == [("white", T0 + 60 * S)]
    just_before = live_clock(SD60, [LiveStart(T0), LiveMove("white", 1, T0 + 60 * S - 1)], T0 + 60 * S)
    assert just_before.flags == () and just_before.players["white"].remaining_ms == 1


def test_the_flag_is_recorded_at_its_instant_whenever_it_is_computed():
    events = [LiveStart(T0)]
    before = live_clock(SD60, events, T0 + 10 * S)
    assert before.next_flag_at_ms == T0 + 60 * S and before.players["white"].remaining_ms == 50 * S
    for later in (60 * S, 61 * S, 3600 * S):
        c = live_clock(SD60, events, T0 + later)
        assert c.flags == (("white", T0 + 60 * S, 1, 1),)
        assert c.players["white"].flag_fallen and c.players["white"].remaining_ms == 0
        assert c.next_flag_at_ms is None


def test_a_move_after_the_flag_is_a_flag_and_earns_no_increment():
    # White's 60 s run out at T0 + 60 s; the press at 70 s comes after: flag, and no 5 s increment.
    events = [LiveStart(T0), LiveMove("white", 1, T0 + 70 * S)]
    c = live_clock(FISCHER, events, T0 + 80 * S)
    assert c.flags == (("white", T0 + 60 * S, 1, 1),)
    assert c.players["white"].remaining_ms == 0
    assert c.running == "black" and c.players["black"].remaining_ms == 50 * S


def test_both_flags_fall_in_order_and_the_order_is_known():
    events = [LiveStart(T0), LiveMove("white", 1, T0 + 70 * S)]
    c = live_clock(SD60, events, T0 + 200 * S)
    assert [(p, at) for p, at, _, _ in c.flags] == [("white", T0 + 60 * S), ("black", T0 + 130 * S)]
    assert c.both_fallen_order_unknown is False


def test_a_lag_compensated_move_does_not_escape_a_flag_that_fell_before_it_arrived():
    # The flag falls at 60 s; the move arrives at 60.04 s claiming 40 ms of lag: still a flag, so a
    # flag recorded by the scheduled check is never undone by a later replay.
    events = [LiveStart(T0), LiveMove("white", 1, T0 + 60_040, lag_ms=40)]
    assert live_clock(SD60, events, T0 + 61 * S).flags[0][:2] == ("white", T0 + 60 * S)


# --- lag --------------------------------------------------------------------------------------------

def test_lag_is_forgiven_within_the_quota():
    # 60+5 is estimated at 60 + 40 x 5 = 260 s: gain min(1 s, 260 x 2/5 cs + 15 cs) = 1 s, quota 3 s at the
    # start, 7 s at most. 300 ms of a 10 s move forgiven; the quota becomes 3 - 0.3 + 1 = 3.7 s.
    events, t = presses([10 * S], lag_ms=[300])
    white = live_clock(FISCHER, events, t).players["white"]
    assert white.remaining_ms == 60 * S - (10 * S - 300) + 5 * S
    assert white.lag_quota_ms == 3 * S - 300 + 1 * S


def test_a_client_claiming_huge_lag_gets_at_most_the_quota():
    # Claiming 10 s of lag on every move: the first is forgiven the 3 s quota, every later one the 1 s
    # regained, never the 10 s; the quota never exceeds its cap of 7 gains.
    moves = [10 * S, 1 * S] * 5
    lags = [10 * S, 0] * 5
    events, t = presses(moves, lag_ms=lags)
    white = live_clock(FISCHER, events, t).players["white"]
    assert white.remaining_ms == 60 * S - (5 * 10 * S - (3 + 1 + 1 + 1 + 1) * S) + 5 * 5 * S
    honest, t2 = presses([1 * S] * 20)
    assert live_clock(FISCHER, honest, t2).players["white"].lag_quota_ms == 7 * S


def test_lag_never_makes_a_move_cost_less_than_nothing():
    events, t = presses([200], lag_ms=[900])
    assert live_clock(FISCHER, events, t).players["white"].remaining_ms == 65 * S


# --- pause, resume, gaps ----------------------------------------------------------------------------

def test_a_pause_stops_both_clocks_until_the_resume():
    events = [LiveStart(T0), LivePause(T0 + 10 * S), LiveResume(T0 + 100 * S)]
    paused = live_clock(SD60, events[:2], T0 + 500 * S)
    assert (paused.paused, paused.running, paused.next_flag_at_ms) == (True, None, None)
    assert paused.players["white"].remaining_ms == 50 * S and paused.flags == ()
    resumed = live_clock(SD60, events, T0 + 110 * S)
    assert resumed.players["white"].remaining_ms == 40 * S and resumed.next_flag_at_ms == T0 + 150 * S


def test_time_the_service_was_down_is_no_ones_and_no_flag_falls_in_it():
    # White has 60 s; the service is down from 10 s to 500 s: back up, white still has 50 s.
    events = [LiveStart(T0), LiveGap(T0 + 10 * S, T0 + 500 * S)]
    c = live_clock(SD60, events, T0 + 501 * S)
    assert c.flags == () and c.players["white"].remaining_ms == 49 * S


# --- the arbiter ------------------------------------------------------------------------------------

def test_an_adjustment_adds_or_takes_time():
    events = [LiveStart(T0), LiveAdjust("black", 120 * S, T0 + 1 * S), LiveAdjust("white", -600 * S, T0 + 2 * S)]
    c = live_clock(HOUR, events, T0 + 2 * S)
    # White: 3600 - 2 - 600 = 2998 s; black 3600 + 120 s.
    assert (c.players["white"].remaining_ms, c.players["black"].remaining_ms) == (2998 * S, 3720 * S)


def test_a_draughts_correction_may_not_leave_less_than_15_minutes():
    # 000 12.5: "судья может сократить время ... только так, чтобы после исправления ошибки до контроля
    # осталось не менее 15 минут". White has 3600 - 100 = 3500 s: taking 2601 s leaves 899 s.
    draughts = seconds({"system": "sudden_death", "time": 3600}, min_after_correction_seconds=900)
    ok = [LiveStart(T0), LiveAdjust("white", -2600 * S, T0 + 100 * S)]
    assert live_clock(draughts, ok, T0 + 100 * S).players["white"].remaining_ms == 900 * S
    bad = [LiveStart(T0), LiveAdjust("white", -2601 * S, T0 + 100 * S)]
    with pytest.raises(EventError) as error:
        live_clock(draughts, bad, T0 + 100 * S)
    assert error.value.field == "events[1].delta_ms" and "000 12.5" in str(error.value)


def test_without_a_floor_a_taking_may_leave_anything_but_nothing():
    # Chess and Go set no floor (FIDE 6.13: the arbiter's judgement; Go 17.4 c): 3500 s left, 3499 s taken
    # leaves 1 s; taking all 3500 is refused (a loss is a sanction of its own, 17.4 d).
    ok = [LiveStart(T0), LiveAdjust("white", -3499 * S, T0 + 100 * S)]
    assert live_clock(HOUR, ok, T0 + 100 * S).players["white"].remaining_ms == 1 * S
    with pytest.raises(EventError) as error:
        live_clock(HOUR, [LiveStart(T0), LiveAdjust("white", -3500 * S, T0 + 100 * S)], T0 + 100 * S)
    assert "17.4 d" in str(error.value)


def test_time_added_under_a_delay_is_not_swallowed_by_the_delay():
    delay = seconds({"system": "delay", "main": 300, "delay": 5})
    # White gets 60 s and then moves in 2 s (within the delay): 300 + 60 = 360 s of main time.
    events = [LiveStart(T0), LiveAdjust("white", 60 * S, T0 + 1 * S), LiveMove("white", 1, T0 + 2 * S)]
    assert live_clock(delay, events, T0 + 2 * S).players["white"].state["main_ms"] == 360 * S


def test_illegal_moves_give_the_partner_two_minutes_twice_and_lose_the_third_time():
    # 003 13.4: "за первые два невозможных хода игрока арбитр должен дать его партнеру две минуты
    # дополнительного времени в каждом случае, за третий невозможный ход того же самого игрока арбитр
    # должен признать партию проигранной этим игроком"
    go = Ruleset.from_mapping(PRESETS["go_byoyomi_live"])
    events = [LiveStart(T0)] + [LiveIllegal("black", T0 + i * S) for i in (1, 2)]
    c = live_clock(go, events, T0 + 2 * S)
    assert c.players["white"].state["main_ms"] == 3600 * S + 240 * S and c.forfeit is None
    c = live_clock(go, events + [LiveIllegal("black", T0 + 3 * S)], T0 + 3 * S)
    assert c.illegal_counts == {"white": 0, "black": 3}
    assert c.forfeit == {"player": "black", "reason": "illegal_moves", "rule": "003 13.4", "at_ms": T0 + 3 * S}
    assert c.players["white"].state["main_ms"] == 3840 * S  # the third gives nothing


def test_illegal_move_numbers_are_ruleset_fields():
    fide = seconds({"system": "sudden_death", "time": 600}, illegal_move_seconds=60, illegal_move_limit=2)
    events = [LiveStart(T0), LiveIllegal("white", T0 + 1 * S)]
    assert live_clock(fide, events, T0 + 1 * S).players["black"].remaining_ms == 660 * S
    events.append(LiveIllegal("white", T0 + 2 * S))
    assert live_clock(fide, events, T0 + 2 * S).forfeit["player"] == "white"


# --- late arrival -----------------------------------------------------------------------------------

def test_a_player_without_a_first_move_more_than_an_hour_after_the_start_loses():
    # 002 6.6: "avec plus d'une heure de retard", one hour by default; the first mover's clock runs from the
    # start. Late by more than the hour: the first millisecond past it.
    rules = seconds({"system": "sudden_death", "time": 7200})
    early = live_clock(rules, [LiveStart(T0)], T0 + 10 * S)
    assert early.late_arrival_deadline_ms == T0 + 3600 * S + 1 and early.forfeit is None
    late = live_clock(rules, [LiveStart(T0)], T0 + 3601 * S)
    assert late.forfeit == {"player": "white", "reason": "late_arrival", "rule": "002 6.6",
                            "at_ms": T0 + 3600 * S + 1}


def test_arriving_at_exactly_the_hour_is_in_time():
    # A first move pressed at T0 + 3600 s is not more than an hour late: no forfeit, before or after it.
    rules = seconds({"system": "sudden_death", "time": 7200})
    assert live_clock(rules, [LiveStart(T0)], T0 + 3600 * S).forfeit is None
    c = live_clock(rules, [LiveStart(T0), LiveMove("white", 1, T0 + 3600 * S)], T0 + 3700 * S)
    assert c.forfeit is None and c.players["white"].moves_made == 1
    one_ms_later = live_clock(rules, [LiveStart(T0), LiveMove("white", 1, T0 + 3600 * S + 1)], T0 + 3700 * S)
    assert one_ms_later.forfeit["at_ms"] == T0 + 3600 * S + 1


def test_the_second_mover_is_late_on_its_own_clock():
    # White moves after 59 min; black's clock starts then and black has its own hour to arrive.
    rules = seconds({"system": "sudden_death", "time": 7200})
    events = [LiveStart(T0), LiveMove("white", 1, T0 + 3540 * S)]
    c = live_clock(rules, events, T0 + 3600 * S)
    assert c.forfeit is None and c.late_arrival_deadline_ms == T0 + 3540 * S + 3600 * S + 1


def test_go_late_arrival_is_more_than_half_the_main_time_for_black_who_starts():
    # 003 12.5 and 12.7: black's clock starts at the start; "более чем на половину" of the 60 minutes: late
    # at the first millisecond past 30 minutes, in time at exactly 30.
    go = Ruleset.from_mapping(PRESETS["go_byoyomi_live"])
    assert live_clock(go, [LiveStart(T0)], T0 + 1800 * S).forfeit is None
    c = live_clock(go, [LiveStart(T0)], T0 + 1801 * S)
    assert c.running == "black"
    assert c.forfeit == {"player": "black", "reason": "late_arrival", "rule": "003 12.7",
                         "at_ms": T0 + 1800 * S + 1}


def test_a_game_not_yet_begun_has_no_running_clock_but_knows_its_first_flag():
    c = live_clock(SD60, [LiveStart(T0)], T0 - 10 * S)
    assert (c.running, c.next_flag_at_ms, c.players["white"].remaining_ms) == (None, T0 + 60 * S, 60 * S)


# --- a move that ends the game -----------------------------------------------------------------------

def test_a_game_ending_move_at_its_flags_instant_stands_and_stops_every_clock():
    # 002 6.7 a: the move that ends the game is complete without the press. White's 60 s run out at the
    # instant of its mating move: no flag; the clocks stop; no increment (the clock was never pressed).
    events = [LiveStart(T0), LiveMove("white", 1, T0 + 60 * S, ends_game=True)]
    c = live_clock(FISCHER, events, T0 + 3600 * S)
    assert c.flags == () and c.running is None and c.next_flag_at_ms is None and c.next_check_at_ms is None
    assert c.ended_by_move == {"player": "white", "number": 1, "at_ms": T0 + 60 * S}
    assert (c.players["white"].remaining_ms, c.players["white"].moves_made) == (0, 1)
    assert c.players["black"].remaining_ms == 60 * S  # black's clock never started
    pressed = live_clock(FISCHER, [LiveStart(T0), LiveMove("white", 1, T0 + 60 * S)], T0 + 60 * S)
    assert pressed.flags[0][:2] == ("white", T0 + 60 * S)  # an ordinary press there is an overstep (000 12.9)
    ended = live_clock(FISCHER, [LiveStart(T0), LiveMove("white", 1, T0 + 10 * S, ends_game=True)], T0 + 20 * S)
    assert ended.players["white"].remaining_ms == 50 * S  # 60 - 10, and no 5 s increment
    with pytest.raises(EventError) as error:
        live_clock(FISCHER, events + [LiveMove("black", 1, T0 + 61 * S)], T0 + 61 * S)
    assert "6.7 a" in str(error.value)


# --- refused events ---------------------------------------------------------------------------------

@pytest.mark.parametrize("events, now, field", [
    ([LiveStart(T0), LiveMove("black", 1, T0 + 1)], T0 + 1, "events[1].player"),
    ([LiveStart(T0), LiveMove("white", 2, T0 + 1)], T0 + 1, "events[1].number"),
    ([LiveStart(T0), LiveMove("white", 1, T0 + 1, lag_ms=-5)], T0 + 1, "events[1].lag_ms"),
    ([LiveStart(T0), LivePause(T0 + 1), LiveMove("white", 1, T0 + 2)], T0 + 2, "events[2].at_ms"),
    ([LiveStart(T0), LiveResume(T0 + 1)], T0 + 1, "events[1].at_ms"),
    ([LiveStart(T0), LivePause(T0 + 1), LivePause(T0 + 2)], T0 + 2, "events[2].at_ms"),
    ([LiveStart(T0), LiveMove("white", 1, T0 + 5), LivePause(T0 + 4)], T0 + 5, "events[2].at_ms"),
    ([LiveStart(T0), LiveMove("white", 1, T0 + 5)], T0 + 4, "events[1].at_ms"),
    ([LiveStart(T0), LiveStart(T0 + 1)], T0 + 1, "events[1].at_ms"),
    ([LiveMove("white", 1, T0)], T0, "events[0].type"),
    ([LiveStart(T0), LiveAdjust("red", 1000, T0)], T0, "events[1].player"),
    ([LiveStart(T0), LiveAdjust("white", 0, T0)], T0, "events[1].delta_ms"),
    ([LiveStart(T0), LiveGap(T0 + 5, T0 + 1)], T0 + 5, "events[1].to_ms"),
    ([LiveStart(T0), LiveGap(T0 + 5, T0 + 10), LivePause(T0 + 7)], T0 + 10, "events[2].at_ms"),
])
def test_events_out_of_rule_are_refused_naming_the_field(events, now, field):
    with pytest.raises(EventError) as error:
        live_clock(SD60, events, now)
    assert error.value.field == field


def test_now_before_the_last_event_is_refused():
    with pytest.raises(ClockError) as error:
        live_clock(SD60, [LiveStart(T0), LiveMove("white", 1, T0 + 5)], T0 + 4)
    assert error.value.field is not None


def test_a_days_ruleset_has_no_live_clock():
    with pytest.raises(ClockError) as error:
        live_clock(Ruleset(), [LiveStart(T0)], T0)
    assert error.value.field == "ruleset.time_control.unit"


def test_a_flag_before_the_late_arrival_deadline_decides_alone():
    # Sudden death 60 s: white's flag falls at 60 s, long before the hour of 002 6.6.
    c = live_clock(SD60, [LiveStart(T0)], T0 + 4000 * S)
    assert c.flags[0][:2] == ("white", T0 + 60 * S)
    assert c.forfeit is None and c.late_arrival_deadline_ms is None


def test_the_arbiter_may_decide_otherwise_on_a_late_arrival():
    # 003 12.7 "если только ... арбитр не решает иначе": the forfeit is lifted and no longer counted.
    from corr.clock.live import LiveExcuse
    from corr.clock.live.gamefile import read_live_game, write_live_game

    rules = seconds({"system": "sudden_death", "time": 7200})
    events = [LiveStart(T0), LiveExcuse("white", T0 + 3700 * S)]
    assert live_clock(rules, events[:1], T0 + 3700 * S).forfeit["reason"] == "late_arrival"
    c = live_clock(rules, events, T0 + 5000 * S)
    assert c.forfeit is None and c.late_arrival_deadline_ms is None
    assert read_live_game(write_live_game(rules, events, T0 + 5000 * S))[1] == tuple(events)


def test_a_byoyomi_player_sees_what_is_left_of_the_current_period():
    # 003 12.16: the countdown at 15, 10, 5 ... reads the period. 10 s main time, 3 periods of 30 s:
    # 52 s into the move: main time gone, period 1 gone (40 s), 18 s left of period 2.
    go = seconds({"system": "byoyomi", "main": 10, "periods": 3, "period_time": 30}, first="black")
    black = live_clock(go, [LiveStart(T0)], T0 + 52 * S).players["black"]
    assert (black.state["periods_left"], black.state["period_left_ms"], black.remaining_ms) == (2, 18 * S, 48 * S)


def test_a_single_move_over_max_per_move_flags_in_seconds():
    # Fischer with an hour on the clock but no move longer than 90 s: the flag falls at 90 s.
    rules = seconds({"system": "fischer", "initial": 3600, "increment": 0, "max_per_move": 90})
    c = live_clock(rules, [LiveStart(T0)], T0 + 100 * S)
    assert c.flags[0][:2] == ("white", T0 + 90 * S)
    assert live_clock(rules, [LiveStart(T0)], T0 + 10 * S).next_flag_at_ms == T0 + 90 * S
