"""Properties shared by every time-control system, and the 50.4 control as ``periods`` (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from datetime import date, timedelta

from hypothesis import example, given, settings
from hypothesis import strategies as st

from corr.clock import Game, Move, Player, Ruleset, Variant, compute
from corr.clock.systems import (
    Byoyomi, Canadian, Delay, Fischer, MoveTimes, PerMove, Periods, Stage, TimeControl,
)

from .strategies import games

SYSTEM_EXAMPLES = 1500  # a fold of at most 41 moves: cheap, and rare shapes need many draws (conftest.py)
MAIN_STAGES = st.lists(st.builds(Stage, st.integers(1, 4), st.integers(1, 20)), min_size=1, max_size=2).map(tuple)

def days(low: int, high: int):
    """Whole days, half of the draws near the bottom: the flags hide at 0, 1 and 2 days."""
    return st.integers(low, low + 2) | st.integers(low, high)


SYSTEMS = st.one_of(
    st.builds(lambda n, t, r, c: Periods((Stage(n, t),), repeat_last=True, cumulative=c),
              days(1, 12), days(1, 60), st.just(True), st.booleans()),
    st.builds(lambda a, b, t: Periods((Stage(a, b), Stage(None, t))), days(1, 12), days(1, 60), days(1, 60)),
    st.builds(lambda i, inc, cap: Fischer(i, inc, cap), days(1, 60), days(0, 5), st.none() | days(1, 80)),
    st.builds(Delay, days(1, 60), days(0, 5)),
    st.builds(Byoyomi, days(0, 60), days(1, 6), days(1, 5)),
    st.builds(Canadian, days(0, 60), days(1, 6), days(1, 20)),
    st.builds(PerMove, days(1, 10)),
    # Combined controls: stages with an increment or a delay, byo-yomi after move-count main stages.
    st.builds(lambda a, t1, t2, inc, dl, c: Periods((Stage(a, t1, increment=inc), Stage(None, t2, delay=dl)),
                                                    cumulative=c),
              days(1, 12), days(1, 60), days(1, 60), days(0, 3), days(0, 3), st.booleans()),
    st.builds(lambda n, t, inc: Periods((Stage(n, t, increment=inc),), repeat_last=True), days(1, 12),
              days(1, 40), days(1, 3)),
    st.builds(lambda m, p, t: Byoyomi(0, p, t, m), MAIN_STAGES, days(1, 6), days(1, 5)),
    st.builds(lambda m, n, t: Canadian(0, n, t, m), MAIN_STAGES, days(1, 6), days(1, 20)),
)
TIMES = st.lists(days(0, 15), max_size=40)
PLAIN_COUNTED = (Periods,)  # plain stages of N moves are exceeded as a whole, with every day charged


def fold(system, completed, current):
    return system.state(MoveTimes(completed=tuple(completed), current=current, number=len(completed) + 1))


@settings(max_examples=SYSTEM_EXAMPLES)
@given(SYSTEMS, TIMES, st.integers(0, 20))
def test_charging_the_current_move_more_never_leaves_more_time(system, completed, current):
    assert fold(system, completed, current + 1).current_left <= fold(system, completed, current).current_left


# Found by Hypothesis: main 0, blocks of 2 moves in 1 day. Move 1 in 1 day leaves 0 for move 2; move 1
# in 2 days overran the block, whose days then stand at -1 and are not renewed: -1 left, not 1.
@example(Canadian(0, 2, 1), [1], 0, 0)
@settings(max_examples=SYSTEM_EXAMPLES)
@given(SYSTEMS, TIMES, st.integers(0, 20), st.integers(0, 39))
def test_charging_an_earlier_move_more_never_leaves_more_time(system, completed, current, index):
    if not completed:
        return
    i = index % len(completed)
    slower = list(completed)
    slower[i] += 1
    before, after = fold(system, completed, current), fold(system, slower, current)
    if before.overstepped is None and not block_alignment_moved(system, completed, slower):
        assert after.current_left <= before.current_left


def block_alignment_moved(system, faster, slower) -> bool:
    """Canadian only: the two games run out of main time on different moves, so their blocks start apart.

    Then a faster earlier move can leave less time (see ``corr/clock/systems/canadian.py`` and
    ``test_canadian_blocks_start_where_main_time_ran_out``): the property holds for the rest.
    """
    if not isinstance(system, Canadian):
        return False
    return main_out_at(system, faster) != main_out_at(system, slower)


def main_out_at(system, times) -> int | None:
    """The number of the move during (or at the end of) which main time ran out; None if it has not."""
    if system.main_stages:
        return None  # move-count main stages: main time ends at a fixed move whatever the days
    used = 0
    for number, days in enumerate(times, start=1):
        used += days
        if used >= system.main:
            return number
    return None


def test_canadian_blocks_start_where_main_time_ran_out():
    # Main 2, blocks of 2 moves in 2 days. Moves of 2 and 2 days: main runs out on move 1, which opens
    # block 1 with 0 days over; move 2 completes it (2 of 2 days): move 3 has a fresh block of 2 days.
    system = Canadian(2, 2, 2)
    assert fold(system, [2, 2], 2).overstepped is None and fold(system, [2, 2], 2).current_left == 0
    # Moves of 1 and 2 days: main runs out on move 2 (1 day over), which opens block 1 with 1 of 2 days
    # left for move 3: 2 days oversteps. Move 1 was faster, yet move 3 has less time: the rule's own count.
    assert fold(system, [1, 2], 1).current_left == 0
    assert fold(system, [1, 2], 2).overstepped is not None


@settings(max_examples=SYSTEM_EXAMPLES)
@given(SYSTEMS, TIMES, st.integers(0, 20), st.data())
def test_a_game_that_never_oversteps_stays_valid_when_a_move_is_made_faster(system, completed, current, data):
    if fold(system, completed, current).overstepped is not None:
        return
    moves = list(completed) + [current]
    i = data.draw(st.integers(0, len(moves) - 1))
    if moves[i] == 0:
        return
    faster = list(moves)
    faster[i] -= 1
    if block_alignment_moved(system, faster, moves):
        return  # Canadian blocks start where main time ran out (test_canadian_blocks_start_where_...)
    assert fold(system, faster[:-1], faster[-1]).overstepped is None


@settings(max_examples=SYSTEM_EXAMPLES)
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


@settings(max_examples=SYSTEM_EXAMPLES // 2)
@given(SYSTEMS, TIMES, st.integers(0, 20), st.integers(1, 10), TIMES, st.integers(0, 20))
def test_where_the_flag_fell_does_not_change_with_later_days_or_moves(system, completed, current, more, later,
                                                                     after):
    over = fold(system, completed, current).overstepped
    if over is None:
        return
    longer = fold(system, completed, current + more).overstepped  # a later as-of date
    played_on = fold(system, completed + [current + more] + later, after).overstepped  # later moves
    if isinstance(system, PLAIN_COUNTED) and not system.by_move and system.stages[0].moves is not None:
        # A stage of N moves is exceeded as a whole: its days through its last move (50.4 shape).
        def same(o):
            return o.control, o.through_move, o.allowed_days
    else:
        def same(o):
            return o
    assert same(longer) == same(over) and same(played_on) == same(over)


# --- accepted variant moves: completed moves for every per-move mechanism (50.4.8 keeps the days) ----

BY_MOVE = SYSTEMS.filter(lambda system: system.by_move)


def black_after_a_variant(rules, black_days, at, accepted, running):
    """White and black alternate (white's move days 1, transit 2); black's move ``at`` is played from
    white's variant (``accepted``) or by post as a reply of 0 days. Black's last move runs ``running`` days.

    In the variant game black's move ``at`` and white's ``at + 1`` come with white's move ``at``, and black's
    move ``at + 1`` answers that letter: the same days on every one of black's moves in both games.
    """
    day = date(2026, 1, 10)
    events = [Move("white", 1, sent_on=day + timedelta(days=1))]
    day += timedelta(days=1)
    white_number = 1
    for number, days in enumerate(black_days + [None], start=1):
        received = day + timedelta(days=2)
        if number == at and accepted:
            events += [Move("black", number, variant=Variant.ACCEPTED),
                       Move("white", white_number + 1, variant=Variant.CONDITIONAL)]
            white_number += 1
            day = received - timedelta(days=2)  # black's next move answers the same letter
            continue
        if days is None:
            events.append(Move("black", number, received))
            return Game(date(2026, 1, 10), (Player("white"), Player("black")), tuple(events), rules), \
                received + timedelta(days=running)
        sent = received + timedelta(days=0 if number == at else days)
        events.append(Move("black", number, received, sent))
        white_number += 1
        day = sent + timedelta(days=3)
        events.append(Move("white", white_number, sent + timedelta(days=2), day))


@settings(max_examples=300)
@given(BY_MOVE, st.lists(st.integers(0, 6), min_size=1, max_size=12), st.integers(1, 12), st.integers(0, 12))
def test_an_accepted_variant_move_never_leaves_less_time_than_a_reply_of_0_days(system, days, at, running):
    at = (at - 1) % len(days) + 1
    rules = Ruleset(time_control=TimeControl(system))
    by_post = compute(*black_after_a_variant(rules, days, at, False, running)).accounts["black"]
    variant = compute(*black_after_a_variant(rules, days, at, True, running)).accounts["black"]
    assert variant.remaining_days >= by_post.remaining_days
    if by_post.overstepped is None:
        assert variant.overstepped is None
