"""The commands keep the calendar window and turn the calculator's overflow into the one-line error, exit 2."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from .test_clock_command import EXAMPLE, clock

# Black's move 1 is pending from 9999-12-10: its deadline (30 days on) would be after 9999-12-31.
PAST_9999 = {"official_start": "9999-12-01", "as_of": "9999-12-15", "players": {"white": {}, "black": {}},
             "events": [{"type": "move", "player": "white", "number": 1, "sent_on": "9999-12-05"},
                        {"type": "move", "player": "black", "number": 1, "received_on": "9999-12-10"}]}


def one_line_error(done) -> str:
    assert done.returncode == 2, done.stdout
    assert done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    return line


@pytest.mark.parametrize("as_of", ["0001-01-01", "9999-12-31", "1899-12-31", "2200-01-01"])
def test_an_as_of_outside_the_calendar_window_exits_2(as_of):
    line = one_line_error(clock(str(EXAMPLE), "--json", "--as-of", as_of))
    assert f"--as-of must lie between 1900-01-01 and 2199-12-31, got {as_of}" in line


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_a_deadline_past_year_9999_is_the_one_line_error(extra):
    line = one_line_error(clock("-", *extra, stdin=json.dumps(PAST_9999)))
    assert "players.black.deadline: black's deadline would fall after 9999-12-31" in line


def test_in_a_list_the_overflowing_game_is_named_by_its_index():
    ok = json.loads(EXAMPLE.read_text())
    line = one_line_error(clock("-", "--json", stdin=json.dumps([ok, PAST_9999])))
    assert line.endswith("game 1, players.black.deadline: black's deadline would fall after 9999-12-31, "
                         "the last date there is (check the official start, the events' dates and the "
                         "ruleset's days)")


@pytest.mark.django_db
@pytest.mark.parametrize("on", ["0001-01-01", "9999-12-31"])
def test_nightly_refuses_a_date_outside_the_window(on):
    with pytest.raises(CommandError, match=f"--date must lie between 1900-01-01 and 2199-12-31, got {on}") as error:
        call_command("nightly", "--date", on)
    assert error.value.returncode == 2


# --- issue 11, item 7: what a game file may not say, each the one-line error and exit 2 -------------

def test_a_player_moving_twice_without_the_partners_reply_is_the_one_line_error():
    # White's move 1 goes 01-12; white "answers" again on 01-20 with no move of black's between.
    data = json.loads(EXAMPLE.read_text())
    data["events"] = [data["events"][0],
                      {"type": "move", "player": "white", "number": 2, "received_on": "2026-01-18",
                       "sent_on": "2026-01-20"}]
    line = one_line_error(clock("-", "--json", stdin=json.dumps(data)))
    assert line.endswith("event 1 (move): white answers again with no move of black's since white's move 1"
                         " (event 0): black's reply to it is missing")


def test_a_start_notice_after_the_as_of_date_is_the_one_line_error():
    data = json.loads(EXAMPLE.read_text())
    data["players"]["white"]["notice_received_on"] = "2026-03-05"  # as_of is 2026-03-01
    line = one_line_error(clock("-", "--json", stdin=json.dumps(data)))
    assert line.endswith("players.white.notice_received_on 2026-03-05 is after the as-of date 2026-03-01:"
                         " a notice of the start cannot be counted before it arrives (50.4.6)")
