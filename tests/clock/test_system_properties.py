"""Properties shared by every time-control system, and the 50.4 control as ``periods`` (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from corr.clock import compute
from corr.clock.systems import (
    Byoyomi, Canadian, Delay, Fischer, MoveTimes, PerMove, Periods, Stage, TimeControl,
)

from .strategies import games

SYSTEMS = st.one_of(
    st.builds(lambda n, t, r, c: Periods((Stage(n, t),), repeat_last=True, cumulative=c),
              st.integers(1, 12), st.integers(1, 60), st.just(True), st.booleans()),
    st.builds(lambda a, b, t: Periods((Stage(a, b), Stage(None, t))), st.integers(1, 12), st.integers(1, 60),
              st.integers(1, 60)),
    st.builds(lambda i, inc, cap: Fischer(i, inc, cap), st.integers(1, 60), st.integers(0, 5),
              st.none() | st.integers(1, 80)),
    st.builds(Delay, st.integers(1, 60), st.integers(0, 5)),
    st.builds(Byoyomi, st.integers(0, 60), st.integers(1, 6), st.integers(1, 5)),
    st.builds(Canadian, st.integers(0, 60), st.integers(1, 6), st.integers(1, 20)),
    st.builds(PerMove, st.integers(1, 10)),
)
TIMES = st.lists(st.integers(0, 15), max_size=40)


def fold(system, completed, current):
    return system.state(MoveTimes(completed=tuple(completed), current=current, number=len(completed) + 1))


@given(SYSTEMS, TIMES, st.integers(0, 20))
def test_charging_the_current_move_more_never_leaves_more_time(system, completed, current):
    assert fold(system, completed, current + 1).current_left <= fold(system, completed, current).current_left


@given(SYSTEMS, TIMES, st.integers(0, 20), st.data())
def test_charging_an_earlier_move_more_never_leaves_more_time(system, completed, current, data):
    if not completed:
        return
    i = data.draw(st.integers(0, len(completed) - 1))
    slower = list(completed)
    slower[i] += 1
    before, after = fold(system, completed, current), fold(system, slower, current)
    if before.overstepped is None:
        assert after.current_left <= before.current_left


@given(SYSTEMS, TIMES, st.integers(0, 20), st.data())
def test_a_game_that_never_oversteps_stays_valid_when_a_move_is_made_faster(system, completed, current, data):
    if fold(system, completed, current).overstepped is not None:
        return
    moves = list(completed) + [current]
    i = data.draw(st.integers(0, len(moves) - 1))
    if moves[i] == 0:
        return
    moves[i] -= 1
    assert fold(system, moves[:-1], moves[-1]).overstepped is None


@given(SYSTEMS, TIMES, st.integers(0, 20))
def test_the_flag_falls_exactly_when_the_current_move_exceeds_what_was_left(system, completed, current):
    state = fold(system, completed, current)
    if fold(system, completed, 0).overstepped is None:
        assert (state.overstepped is not None) == (state.current_left < 0)


@settings(max_examples=600)  # rare shapes (penalties ahead of an accepted variant move) need many games
@given(games())
def test_the_50_4_control_is_periods_of_n_moves_in_d_days_repeated(case):
    game, as_of = case
    rules = game.ruleset
    periods = TimeControl(Periods((Stage(rules.moves_per_control, rules.days_per_control),), repeat_last=True))
    as_periods = replace(game, ruleset=replace(rules, time_control=periods))
    default = compute(game, as_of).as_json()
    other = compute(as_periods, as_of).as_json()
    for pid, account in other["players"].items():
        account.pop("clock")
        assert account == default["players"][pid]
    assert other["ledger"] == default["ledger"]
