"""Days that do not count: a player's leave, the ruleset's holidays and weekend days (issue 14).

The pinned definition: a move received on ``r`` and sent on ``s`` is charged the number of dates
``d`` with ``r < d <= s`` (and after the player's start) that are not excluded for that player; a
running move likewise up to the as-of date; the deadline is the last date on which the move can be
sent without exceeding the control, skipping excluded dates.

2026-01-05 is a Monday in every example below.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corr.clock import (
    ClockError, EventError, Game, Move, Notice, NoticeReason, Player, Ruleset, compute, read_game, write_game,
)
from corr.clock.calendar import WEEKDAYS, DateRange, MoveOnLeave
from corr.clock.systems import Fischer, PerMove, TimeControl

from .strategies import START, games
from .test_system_properties import SYSTEMS

D = date
WEEKEND = ("saturday", "sunday")


MONDAY = D(2026, 1, 5)
PLAIN = Ruleset()


def game(events, ruleset=PLAIN, start=MONDAY, white_leave=(), black_leave=()):
    return Game(start, (Player("white", leave=white_leave), Player("black", leave=black_leave)),
                tuple(events), ruleset)


def leave(first, last):
    return (DateRange(first, last),)


# --- each source, worked -------------------------------------------------------------------------

def test_a_weekend_is_not_charged_and_the_ledger_says_why():
    # White's first move counts from the start, Mon 5 Jan, to Mon 12 Jan: 6..12 is 7 dates,
    # Sat 10 and Sun 11 excluded: 5 days.
    g = game([Move("white", 1, sent_on=D(2026, 1, 12))], Ruleset(weekend_days=WEEKEND))
    clock = compute(g, D(2026, 1, 12), with_ledger=True)
    assert clock.accounts["white"].thinking_days == 5
    (line,) = clock.ledger
    assert (line.days, line.excluded_days) == (5, 2)
    assert "2 day(s) not counted: 2 weekend" in line.note


def test_the_deadline_skips_weekend_days():
    # Black received on Thu 15 Jan; as of Tue 20 Jan it has run 16, 19, 20: 3 days (17, 18 are a
    # weekend); 27 of the 30 days left. 30 weekdays after Thu 15 Jan end on Thu 26 Feb (without a
    # weekend clock the deadline would be 15 Jan + 30 = 14 Feb).
    g = game([Move("white", 1, sent_on=D(2026, 1, 12)), Move("black", 1, received_on=D(2026, 1, 15))],
             Ruleset(weekend_days=WEEKEND))
    black = compute(g, D(2026, 1, 20)).accounts["black"]
    assert (black.thinking_days, black.remaining_days, black.deadline) == (3, 27, D(2026, 2, 26))
    assert compute(replace(g, ruleset=Ruleset()), D(2026, 1, 20)).accounts["black"].deadline == D(2026, 2, 14)


def test_holidays_count_for_neither_player():
    # Holidays 31 Dec - 2 Jan. Black received on 30 Dec and sent on 4 Jan: 31, 1, 2, 3, 4 less the
    # three holidays: 2 days.
    rules = Ruleset(holidays=(DateRange(D(2025, 12, 31), D(2026, 1, 2)),))
    g = game([Move("white", 1, sent_on=D(2025, 12, 29)),
              Move("black", 1, received_on=D(2025, 12, 30), sent_on=D(2026, 1, 4))], rules, start=D(2025, 12, 28))
    clock = compute(g, D(2026, 1, 4), with_ledger=True)
    assert clock.accounts["black"].thinking_days == 2
    assert "3 day(s) not counted: 3 holiday" in clock.ledger[1].note


def test_leave_stops_only_the_players_own_clock():
    # Black on leave 10-20 Jan received on 8 Jan and sent on 24 Jan: 16 dates less 11 of leave = 5.
    # White's move running 26-30 Jan is charged in full: the leave is black's.
    g = game([Move("white", 1, sent_on=D(2026, 1, 6)),
              Move("black", 1, received_on=D(2026, 1, 8), sent_on=D(2026, 1, 24)),
              Move("white", 2, received_on=D(2026, 1, 26))],
             black_leave=leave(D(2026, 1, 10), D(2026, 1, 20)))
    clock = compute(g, D(2026, 1, 30), with_ledger=True)
    assert clock.accounts["black"].thinking_days == 5
    assert clock.accounts["white"].thinking_days == 1 + 4
    assert clock.ledger[1].excluded_days == 11 and "11 leave" in clock.ledger[1].note


def test_a_date_excluded_twice_is_counted_once_as_the_first_reason():
    # Leave 9-12 Jan over a weekend (10, 11): received 8, sent 13 is 9..13, 4 excluded, all leave.
    g = game([Move("white", 1, sent_on=D(2026, 1, 6)),
              Move("black", 1, received_on=D(2026, 1, 8), sent_on=D(2026, 1, 13))],
             Ruleset(weekend_days=WEEKEND), black_leave=leave(D(2026, 1, 9), D(2026, 1, 12)))
    clock = compute(g, D(2026, 1, 13), with_ledger=True)
    assert clock.accounts["black"].thinking_days == 1
    assert clock.ledger[1].note == "4 day(s) not counted: 4 leave"


def test_the_deadline_skips_the_leave_and_reaches_its_last_day_when_it_follows_the_last_counted_day():
    # Black received on 8 Jan, leave 10-20 Jan. 30 days: 9 Jan, then 21 Jan .. 18 Feb (8 + 30 + 11).
    rules = Ruleset()
    black_leave = leave(D(2026, 1, 10), D(2026, 1, 20))
    events = [Move("white", 1, sent_on=D(2026, 1, 6)), Move("black", 1, received_on=D(2026, 1, 8))]
    assert compute(game(events, rules, black_leave=black_leave), D(2026, 1, 9)).accounts["black"].deadline \
        == D(2026, 2, 18)
    # One day left: 9 Jan is the last counted day, and sending on 10-20 Jan costs nothing more.
    short = Ruleset(days_per_control=1)
    assert compute(game(events, short, black_leave=black_leave), D(2026, 1, 8)).accounts["black"].deadline \
        == D(2026, 1, 20)
    # ... unless the ruleset refuses moves on leave days: then 9 Jan is the last date a move can be sent.
    refused = Ruleset(days_per_control=1, move_on_leave=MoveOnLeave.REFUSED)
    assert compute(game(events, refused, black_leave=black_leave), D(2026, 1, 8)).accounts["black"].deadline \
        == D(2026, 1, 9)


def test_leave_crossing_a_control_boundary():
    # 1 move in 5 days, cumulative. Black's leave 10-20 Jan covers the end of move 1 and the start
    # of move 2. Move 1: 8 -> 12 Jan is 9 (10-12 leave): 1 day. Move 2: 15 -> 23 Jan is 21, 22, 23:
    # 3 days. 4 <= 10 through move 2. Without the leave: 4 + 8 = 12 > 10, the flag of control 2.
    rules = Ruleset(moves_per_control=1, days_per_control=5)
    events = [Move("white", 1, sent_on=D(2026, 1, 6)),
              Move("black", 1, received_on=D(2026, 1, 8), sent_on=D(2026, 1, 12)),
              Move("white", 2, received_on=D(2026, 1, 13), sent_on=D(2026, 1, 14)),
              Move("black", 2, received_on=D(2026, 1, 15), sent_on=D(2026, 1, 23))]
    black = compute(game(events, rules, black_leave=leave(D(2026, 1, 10), D(2026, 1, 20))),
                    D(2026, 1, 25)).accounts["black"]
    assert black.overstepped is None
    assert (black.control.number, black.control.allowed_days, black.remaining_days) == (3, 15, 11)
    assert compute(game(events, rules), D(2026, 1, 25)).accounts["black"].overstepped.control == 2


def test_notices_count_their_raw_days_the_same_way_before_the_grace_days():
    # A repeat received Fri 9 Jan and answered Wed 14 Jan: 10..14 is 5 dates, 2 of them a weekend:
    # 3 counted days, all within the 3 grace days. Without the weekend: 5 - 3 = 2.
    events = [Move("white", 1, sent_on=D(2026, 1, 6)),
              Notice("black", 1, NoticeReason.REPEAT, D(2026, 1, 9), D(2026, 1, 14))]
    assert compute(game(events, Ruleset(weekend_days=WEEKEND)), D(2026, 1, 14)).accounts["black"].thinking_days == 0
    assert compute(game(events), D(2026, 1, 14)).accounts["black"].thinking_days == 2


# --- every system: pauses never give per-move time back (the OGS weekend bug) --------------------

def with_system(system) -> Ruleset:
    return Ruleset(time_control=TimeControl(system), weekend_days=WEEKEND)


def test_a_weekend_clock_with_fischer_charges_only_the_weekdays():
    # Fischer 10 + 1. Black received Fri 9 Jan and sent Mon 12 Jan: 1 day (10, 11 are a weekend),
    # so 10 - 1 + 1 = 10 is on the clock; without the weekend clock 10 - 3 + 1 = 8.
    events = [Move("white", 1, sent_on=D(2026, 1, 6)),
              Move("black", 1, received_on=D(2026, 1, 9), sent_on=D(2026, 1, 12))]
    fischer = with_system(Fischer(10, 1, None))
    assert compute(game(events, fischer), D(2026, 1, 12)).accounts["black"].control.allowed_days == 10
    plain = Ruleset(time_control=TimeControl(Fischer(10, 1, None)))
    assert compute(game(events, plain), D(2026, 1, 12)).accounts["black"].control.allowed_days == 8


def test_a_weekend_never_gives_a_days_per_move_clock_its_days_back():
    # 3 days per move. Received Thu 8 Jan, sent Wed 14 Jan: 9..14 less 10, 11 is 4 days: the flag.
    # The weekend pauses the move's days; it does not start them again (OGS gave the full time back).
    events = [Move("white", 1, sent_on=D(2026, 1, 6)),
              Move("black", 1, received_on=D(2026, 1, 8), sent_on=D(2026, 1, 14))]
    black = compute(game(events, with_system(PerMove(3))), D(2026, 1, 14)).accounts["black"]
    assert black.overstepped is not None and black.overstepped.through_move == 1
    # Sent on Tue 13 Jan: 9, 12, 13 = 3 days, in time.
    events[1] = events[1]._replace(sent_on=D(2026, 1, 13))
    assert compute(game(events, with_system(PerMove(3))), D(2026, 1, 13)).accounts["black"].overstepped is None


def excluded_dates(ruleset: Ruleset, player: Player, first: date, last: date) -> set[date]:
    """The oracle: every date of ``first..last`` excluded for ``player``, one day at a time."""
    out = set()
    day = first
    while day <= last:
        if (WEEKDAYS[day.weekday()] in ruleset.weekend_days
                or any(r.first <= day <= r.last for r in ruleset.holidays + player.leave)):
            out.add(day)
        day += timedelta(days=1)
    return out


def compressed(g: Game, as_of: date, excluded: set[date]) -> tuple[Game, date]:
    """The same game on a calendar from which the ``excluded`` dates were cut out."""
    ordered = sorted(excluded)

    def f(day):
        if day is None:
            return None
        return day - timedelta(days=sum(1 for e in ordered if e <= day))

    events = []
    for e in g.events:
        if isinstance(e, Move):
            events.append(e._replace(received_on=f(e.received_on), sent_on=f(e.sent_on)))
        elif isinstance(e, Notice):
            events.append(e._replace(received_on=f(e.received_on), sent_on=f(e.sent_on)))
        else:
            events.append(e)
    plain = replace(g.ruleset, holidays=(), weekend_days=())
    players = tuple(Player(p.id) for p in g.players)
    return Game(f(g.official_start), players, tuple(events), plain), f(as_of)


RANGES = st.lists(st.tuples(st.integers(-10, 200), st.integers(0, 12)), max_size=3).map(
    lambda spans: tuple(DateRange(START + timedelta(days=a), START + timedelta(days=a + n)) for a, n in spans))


@given(games(), st.none() | SYSTEMS, RANGES, st.lists(st.sampled_from(WEEKDAYS[:6]), max_size=2), RANGES, RANGES)
def test_excluded_days_never_leave_more_time_than_a_calendar_without_them(case, system, holidays, weekend,
                                                                           white_leave, black_leave):
    """Each player's account equals that of the same game on a calendar without that player's excluded days.

    So no system can give time back for a pause (a per-move allowance restarted after a weekend, the
    OGS bug): the player has exactly the time of never having lived through those days.
    """
    g, as_of = case
    rules = replace(g.ruleset, holidays=holidays, weekend_days=tuple(weekend),
                    time_control=None if system is None else TimeControl(system))
    players = (Player("white", leave=white_leave), Player("black", leave=black_leave))
    g = Game(g.official_start, players, g.events, rules)
    clock = compute(g, as_of)
    for player in players:
        low = min(g.official_start, START) - timedelta(days=10)
        other, other_as_of = compressed(g, as_of, excluded_dates(rules, player, low, as_of))
        expected = compute(other, other_as_of).accounts[player.id]
        got = clock.accounts[player.id]
        # The instant the flag fell lies on the other calendar's dates: compared without it.
        assert (got.thinking_days, got.total_days, got.control, undated(got.overstepped), got.clock) == \
            (expected.thinking_days, expected.total_days, expected.control, undated(expected.overstepped),
             expected.clock)
        if got.overstepped is not None and expected.overstepped.at is not None:
            # Excluded dates only ever put the flag later: the other calendar has none of them.
            assert got.overstepped.at is not None and got.overstepped.at >= expected.overstepped.at


def undated(over):
    """An overstep without the instant it fell."""
    return None if over is None else over.fallen_at(None)


# --- the options: a move sent on one's own leave day ----------------------------------------------

OPTION_EVENTS = [Move("white", 1, sent_on=D(2026, 1, 6)),
                 Move("black", 1, received_on=D(2026, 2, 1), sent_on=D(2026, 2, 4)),
                 Move("white", 2, received_on=D(2026, 2, 5), sent_on=D(2026, 2, 5)),
                 Move("black", 2, received_on=D(2026, 2, 6), sent_on=D(2026, 2, 8))]
FEB_LEAVE = leave(D(2026, 2, 1), D(2026, 2, 10))


def test_by_default_a_move_on_leave_is_allowed_and_the_leave_stays():
    # Both of black's moves lie within the leave (1-10 Feb): nothing is charged (SchemingMind).
    black = compute(game(OPTION_EVENTS, black_leave=FEB_LEAVE), D(2026, 2, 8)).accounts["black"]
    assert black.thinking_days == 0


def test_a_move_can_end_the_leave():
    # myChess: the move of 4 Feb ends the leave on 3 Feb. Move 1: 2, 3 leave, 4 counted = 1 day.
    # Move 2: 7, 8 counted = 2 days.
    rules = Ruleset(move_on_leave=MoveOnLeave.ENDS_LEAVE)
    clock = compute(game(OPTION_EVENTS, rules, black_leave=FEB_LEAVE), D(2026, 2, 8), with_ledger=True)
    assert clock.accounts["black"].thinking_days == 1 + 2
    assert [line.excluded_days for line in clock.ledger if line.player == "black"] == [2, 0]


def test_a_move_on_leave_can_be_refused():
    rules = Ruleset(move_on_leave=MoveOnLeave.REFUSED)
    with pytest.raises(EventError) as error:
        compute(game(OPTION_EVENTS, rules, black_leave=FEB_LEAVE), D(2026, 2, 8))
    assert error.value.field == "events[1].sent_on"
    assert "sent_on 2026-02-04 falls on black's leave (2026-02-01 to 2026-02-10)" in str(error.value)
    # The partner's moves are theirs to make: white is not on leave.
    assert compute(game(OPTION_EVENTS[:1], rules, white_leave=()), D(2026, 2, 8)).accounts["white"].made == 1


# --- the game file ---------------------------------------------------------------------------------

FILE = {
    "ruleset": {"holidays": [{"from": "2025-12-31", "to": "2026-01-02"}], "weekend_days": ["sunday", "saturday"],
                "move_on_leave": "ends_leave"},
    "official_start": "2026-01-05",
    "players": {"white": {"leave": [{"from": "2026-02-01", "to": "2026-02-10"}]}, "black": {}},
    "events": [{"type": "move", "player": "white", "number": 1, "sent_on": "2026-01-06"}],
}


def test_the_game_file_reads_and_writes_every_source_back():
    g, _ = read_game(FILE)
    assert g.ruleset.weekend_days == WEEKEND  # in week order
    assert g.players[0].leave == leave(D(2026, 2, 1), D(2026, 2, 10))
    written = write_game(g)
    assert written["ruleset"]["weekend_days"] == ["saturday", "sunday"]
    assert read_game(written)[0] == g
    assert read_game(json.loads(json.dumps(written)))[0] == g


def test_a_game_file_without_a_calendar_is_written_as_before():
    g, _ = read_game({"official_start": "2026-01-05", "players": {"white": {}, "black": {}}})
    assert set(write_game(g)["ruleset"]) == set(Ruleset.field_names())
    assert write_game(g)["players"] == {"white": {}, "black": {}}


@pytest.mark.parametrize("change, message", [
    ({"ruleset": {"holidays": [{"from": "2026-01-03", "to": "2026-01-01"}]}},
     "ruleset.holidays[0]: to 2026-01-01 is before from 2026-01-03 (both ends are included)"),
    ({"ruleset": {"holidays": [{"from": "2026-01-03"}]}}, 'ruleset.holidays[0] must be an object with exactly'),
    ({"ruleset": {"holidays": {"from": "2026-01-03", "to": "2026-01-04"}}}, "ruleset.holidays must be a list"),
    ({"ruleset": {"weekend_days": ["sabbath"]}}, "ruleset.weekend_days: unknown weekday 'sabbath'"),
    ({"ruleset": {"weekend_days": list(WEEKDAYS)}}, "ruleset.weekend_days names every day of the week"),
    ({"ruleset": {"move_on_leave": "ignored"}}, "ruleset.move_on_leave: unknown option 'ignored'"),
    ({"players": {"white": {"leave": [{"from": "2026-02-30", "to": "2026-03-01"}]}, "black": {}}},
     "players.white.leave[0].from is not a real date: '2026-02-30'"),
    ({"players": {"white": {"holidays": []}, "black": {}}}, "players.white.holidays is not a player field"),
])
def test_a_malformed_calendar_is_one_line_naming_the_field(change, message):
    data = {**FILE, **change}
    with pytest.raises(ClockError) as error:
        read_game(data)
    assert message in str(error.value) and "\n" not in str(error.value)


ROOT = Path(__file__).resolve().parents[2]


def clock_command(*args, stdin=None):
    env = dict(os.environ, DEBUG="1")
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), "clock", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_the_clock_command_exits_2_with_one_line_for_a_bad_calendar():
    data = {**FILE, "ruleset": {"weekend_days": ["sabbath"]}}
    done = clock_command("-", "--json", stdin=json.dumps(data))
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "unknown weekday 'sabbath'" in done.stderr


def test_the_clock_command_computes_a_game_with_leave():
    data = {**FILE, "as_of": "2026-01-12"}
    done = clock_command("-", "--json", stdin=json.dumps(data))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    result = out[0] if isinstance(out, list) else out
    # White's first move: 6 Jan from the start 5 Jan (a Monday): 1 day.
    assert result["players"]["white"]["thinking_days"] == 1
