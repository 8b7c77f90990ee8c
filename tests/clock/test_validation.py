"""Every malformed game file gets one clear error naming the event, its type and the field."""

from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path

import pytest

from corr.clock import ClockError, EventError, RulesetError, compute, read_game
from corr.clock.batch import compute_files

BASE = json.loads((Path(__file__).parent / "example_game.json").read_text())
TODAY = date(2026, 11, 29)


def run(data):
    return compute_files(data, as_of=None, today=TODAY)


def with_event(index, **changes):
    data = copy.deepcopy(BASE)
    event = data["events"][index]
    for key, value in changes.items():
        if value is None:
            event.pop(key, None)
        else:
            event[key] = value
    return data


@pytest.mark.parametrize("data, message, field", [
    (with_event(1, sent_on="2026-1-18"), "event 1 (move): sent_on must be a date written YYYY-MM-DD",
     "events[1].sent_on"),
    (with_event(1, sent_on="2026-02-30"), "event 1 (move): sent_on is not a real date", "events[1].sent_on"),
    (with_event(1, sent_on="2026-01-15"), "event 1 (move): sent_on 2026-01-15 is before received_on 2026-01-16",
     "events[1].sent_on"),
    (with_event(1, sent_on="2026-03-02"), "event 1 (move): sent_on 2026-03-02 is after the as-of date",
     "events[1].sent_on"),
    (with_event(9, received_on="2026-03-02"), "event 9 (move): received_on 2026-03-02 is after the as-of date",
     "events[9].received_on"),
    (with_event(1, player="red"), "event 1 (move): unknown player 'red'", "events[1].player"),
    (with_event(1, type="resign"), "event 1 (resign): unknown type 'resign'", "events[1].type"),
    (with_event(3, reason="rude"), "event 3 (notice): unknown reason 'rude'", "events[3].reason"),
    (with_event(4, reason="late"), "event 4 (penalty): unknown reason 'late'", "events[4].reason"),
    (with_event(1, number=2), "event 1 (move): number 2 is out of sequence: black has made 0 move(s)",
     "events[1].number"),
    (with_event(5, sent_on=None), "event 7 (move): white has a pending move 2 (event 5)", "events[7].number"),
    ({"official_start": "2026-01-10", "as_of": "2026-02-01", "players": {"a": {}, "b": {}},
      "events": [{"type": "move", "player": "a", "number": 1},
                 {"type": "move", "player": "a", "number": 1, "received_on": "2026-01-11"}]},
     "event 1 (move): a second pending move for a (move 1 is pending since event 0)", "events[1].sent_on"),
    (with_event(6, sent_on="2026-02-08"), "event 6 (move): a variant move carries no dates", "events[6].sent_on"),
    (with_event(8, days=-1), "event 8 (delay): days must be a whole number >= 0, got -1", "events[8].days"),
    (with_event(8, days=1.5), "event 8 (delay): days must be a whole number, got 1.5", "events[8].days"),
    (with_event(8, move=5), "event 8 (delay): move 5 must lie between 1 and 3", "events[8].move"),
    (with_event(4, move=0), "event 4 (penalty): move 0 must lie between 1 and 2", "events[4].move"),
    (with_event(5, received_on=None), "event 5 (move): received_on is required", "events[5].received_on"),
    (with_event(3, sent_on=None), "event 3 (notice): sent_on is required", "events[3].sent_on"),
    (with_event(2, sent_on=None), "event 2 (move): a void move must have been sent", "events[2].sent_on"),
    (with_event(2, void="yes"), "event 2 (move): void must be true or false", "events[2].void"),
    (with_event(6, variant="maybe"), "event 6 (move): unknown variant 'maybe'", "events[6].variant"),
    (with_event(1, colour="red"), "event 1 (move): 'colour' is not a field of a move event", "events[1].colour"),
])
def test_it_rejects_a_bad_event_naming_it(data, message, field):
    with pytest.raises(EventError) as caught:
        run(data)
    assert str(caught.value).startswith(message)
    assert caught.value.field == field


# --- only possible chronologies: nothing arrives before it is sent ------------------------
# The example file: white sends move 1 on 01-12 (event 0); black receives it 01-16 and answers 01-18
# (1); white's void move 2 is received 01-22, sent 01-25 (2); black's notice of it is received 01-28,
# sent 02-02 (3); white sends move 2 again, received 02-05, sent 02-06 (5); variant moves (6, 7) carry
# no dates and travel with move 5; black's pending move 3 is received 02-10 (9).

@pytest.mark.parametrize("data, message, field", [
    # Black "received" white's move 1 on 01-11, a day before white sent it on 01-12.
    (with_event(1, received_on="2026-01-11"),
     "event 1 (move): received_on 2026-01-11 is before white sent what it answers on 2026-01-12 (event 0)",
     "events[1].received_on"),
    # The year-1 receipt of the issue: 739,944 days before white's dispatch, not "excluded days".
    (with_event(1, received_on="0001-01-01"),
     "event 1 (move): received_on 0001-01-01 is before white sent what it answers on 2026-01-12",
     "events[1].received_on"),
    # A void move answers like any other: white's move 2 received 01-17, black sent move 1 on 01-18.
    (with_event(2, received_on="2026-01-17"),
     "event 2 (move): received_on 2026-01-17 is before black sent what it answers on 2026-01-18 (event 1)",
     "events[2].received_on"),
    # The notice answers the void move, sent 01-25 (50.4.7).
    (with_event(3, received_on="2026-01-24"),
     "event 3 (notice): received_on 2026-01-24 is before white sent what it answers on 2026-01-25 (event 2)",
     "events[3].received_on"),
    # The move sent again answers the notice, sent 02-02.
    (with_event(5, received_on="2026-02-01"),
     "event 5 (move): received_on 2026-02-01 is before black sent what it answers on 2026-02-02 (event 3)",
     "events[5].received_on"),
    # The pending move answers move 5 (sent 02-06) and the variant moves travelling with it.
    (with_event(9, received_on="2026-02-05"),
     "event 9 (move): received_on 2026-02-05 is before white sent what it answers on 2026-02-06 (event 5)",
     "events[9].received_on"),
    # A first move without a received date counts from the start, but was still sent after what it answers.
    (with_event(1, received_on=None, sent_on="2026-01-11"),
     "event 1 (move): sent_on 2026-01-11 is before white sent what it answers on 2026-01-12 (event 0)",
     "events[1].sent_on"),
])
def test_it_rejects_a_receipt_before_the_partner_sent_what_it_answers(data, message, field):
    with pytest.raises(EventError) as caught:
        run(data)
    assert str(caught.value).startswith(message)
    assert caught.value.field == field


def test_a_receipt_on_the_day_the_partner_sent_it_is_possible():
    # Black receives white's move 1 on 01-12, the day it was sent (e-mail): 01-12 -> 01-18 = 6 days.
    game, as_of = read_game(with_event(1, received_on="2026-01-12"))
    assert compute(game, as_of).ledger[1].days == 6


def test_a_repeat_bounds_nothing_the_original_may_arrive_first():
    # White's move 1 goes 01-12; black answers 01-18, but that letter is slow. White repeats move 1;
    # black gets the repeat 01-28 and repeats his answer on 01-29 (50.4.7: 1 day, free). Meanwhile the
    # original answer reached white on 01-27, who answers it on 01-30: received before the repeat was
    # sent, and possible, because what white answers is black's move 1, sent 01-18.
    data = {"official_start": "2026-01-10", "as_of": "2026-02-01", "players": {"white": {}, "black": {}},
            "events": [
                {"type": "move", "player": "white", "number": 1, "sent_on": "2026-01-12"},
                {"type": "move", "player": "black", "number": 1, "received_on": "2026-01-16",
                 "sent_on": "2026-01-18"},
                {"type": "notice", "player": "black", "move": 2, "reason": "repeat",
                 "received_on": "2026-01-28", "sent_on": "2026-01-29"},
                {"type": "move", "player": "white", "number": 2, "received_on": "2026-01-27",
                 "sent_on": "2026-01-30"}]}
    game, as_of = read_game(data)
    assert compute(game, as_of).accounts["white"].thinking_days == 2 + 3  # 01-10 -> 01-12, 01-27 -> 01-30


def test_play_before_the_official_start_or_a_late_notice_is_possible():
    # 50.4.5 and 50.4.6 count on it: their days are excluded, not refused. Official start 01-10;
    # white's notice of the start arrived late, 01-15 (start 01-18). Black receives white's move 1,
    # sent 01-04, on 01-05 and answers 01-14: 4 days (01-10 -> 01-14). White receives it 01-15
    # and answers 01-20: 2 days (01-18 -> 01-20).
    data = {"official_start": "2026-01-10", "as_of": "2026-02-01",
            "players": {"white": {"notice_received_on": "2026-01-15"}, "black": {}},
            "events": [
                {"type": "move", "player": "white", "number": 1, "sent_on": "2026-01-04"},
                {"type": "move", "player": "black", "number": 1, "received_on": "2026-01-05",
                 "sent_on": "2026-01-14"},
                {"type": "move", "player": "white", "number": 2, "received_on": "2026-01-15",
                 "sent_on": "2026-01-20"}]}
    game, as_of = read_game(data)
    accounts = compute(game, as_of).accounts
    assert (accounts["white"].thinking_days, accounts["black"].thinking_days) == (0 + 2, 4)


def test_the_first_move_may_leave_out_its_received_date():
    game, as_of = read_game(with_event(1, received_on=None))
    # Black's move 1 now counts from the start 01-10 (8 days) instead of 01-16 (2 days).
    assert compute(game, as_of).accounts["black"].thinking_days == 23 - 2 + 8


@pytest.mark.parametrize("key, value, message", [
    ("days_per_control", 0, "ruleset.days_per_control must be at least 1, got 0"),
    ("moves_per_control", 2.5, "ruleset.moves_per_control must be a whole number, got 2.5"),
    ("grace_days", -1, "ruleset.grace_days must be at least 0, got -1"),
    ("time_trouble_days", True, "ruleset.time_trouble_days must be a whole number, got True"),
    ("first_penalty_days", "5", "ruleset.first_penalty_days must be a whole number, got '5'"),
    ("speed", 1, "ruleset.speed is not a ruleset field"),
])
def test_it_rejects_a_ruleset_value_that_breaks_its_rule(key, value, message):
    data = copy.deepcopy(BASE)
    data["ruleset"][key] = value
    with pytest.raises(RulesetError) as caught:
        run(data)
    assert str(caught.value).startswith(message)
    assert caught.value.field == f"ruleset.{key}"


@pytest.mark.parametrize("change, message", [
    (lambda g: g.pop("official_start"), "official_start is required"),
    (lambda g: g.update(as_of="01/03/2026"), "as_of must be a date written YYYY-MM-DD"),
    (lambda g: g.update(players={"white": {}}), "players must be an object with exactly two players"),
    (lambda g: g["players"]["white"].update(notice_received_on="x"),
     "players.white.notice_received_on must be a date"),
    (lambda g: g.update(events={}), "events must be a list"),
    (lambda g: g.update(clock="fast"), "'clock' is not a game file field"),
])
def test_it_rejects_a_malformed_game(change, message):
    data = copy.deepcopy(BASE)
    change(data)
    with pytest.raises(ClockError) as caught:
        run(data)
    assert str(caught.value).startswith(message)


def test_in_a_list_one_bad_game_fails_the_run_naming_its_index():
    bad = with_event(1, sent_on="2026-01-15")
    with pytest.raises(ClockError) as caught:
        run([BASE, BASE, bad, bad])
    assert str(caught.value).startswith("game 2, event 1 (move): sent_on 2026-01-15 is before")
    assert caught.value.field == "[2].events[1].sent_on"


def test_a_valid_game_still_computes_after_the_errors_above():
    game, as_of = read_game(copy.deepcopy(BASE))
    assert compute(game, as_of).accounts["black"].deadline == date(2026, 3, 4)


# --- dates past 9999-12-31: the calculator's own error, naming the player, never an OverflowError ---

def far_game(**players) -> dict:
    return {"official_start": "9999-12-01", "as_of": "9999-12-15",
            "players": {"white": players.get("white", {}), "black": {}},
            "events": [{"type": "move", "player": "white", "number": 1, "sent_on": "9999-12-05"},
                       {"type": "move", "player": "black", "number": 1, "received_on": "9999-12-10"}]}


def test_a_deadline_past_the_last_date_is_a_clock_error_naming_the_player():
    with pytest.raises(ClockError, match=r"black's deadline would fall after 9999-12-31") as error:
        run(far_game())
    assert error.value.field == "players.black.deadline"


def test_a_late_start_past_the_last_date_is_a_clock_error_naming_the_notice():
    data = far_game(white={"notice_received_on": "9999-12-30"})  # + 3 days (50.4.6)
    data["as_of"] = "9999-12-31"
    with pytest.raises(ClockError, match="notice_received_on 9999-12-30 plus 3 day") as error:
        run(data)
    assert error.value.field == "players.white.notice_received_on"


def test_a_deadline_pushed_past_the_last_date_by_the_rules_days_is_a_clock_error():
    data = copy.deepcopy(BASE)
    data["ruleset"] = {"days_per_control": 10**9}  # timedelta itself refuses this many days
    with pytest.raises(ClockError) as error:
        run(data)
    assert error.value.field == "players.black.deadline"
