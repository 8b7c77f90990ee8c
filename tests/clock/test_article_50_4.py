"""Worked examples of every rule of article 50.4 (shared/seeds/004_19bf04b782374289.txt).

Dates are 2026 unless written in full; the arithmetic of each example is in its comments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corr.clock import NoticeReason, PenaltyReason, Ruleset, Variant, compute, read_game

from .builders import alternate, d, delay, game, move, notice, penalty

EXAMPLE = Path(__file__).parent / "example_game.json"


def account(g, as_of, player):
    return compute(g, d(as_of)).accounts[player]


# --- 50.4.4: thinking time is the sent date minus the received date ----------------------

@pytest.mark.parametrize("received, sent, days", [
    ("01-12", "01-16", 4),   # 16 - 12 = 4
    ("01-12", "01-12", 0),   # answered on the day it arrived costs nothing
    ("01-31", "02-02", 2),   # across a month end: 31 -> 1 -> 2
])
def test_it_charges_the_days_between_receiving_and_sending(received, sent, days):
    g = game(move("white", 1, sent="01-10"), move("black", 1, received, sent))
    assert account(g, "03-01", "black").thinking_days == days


def test_it_never_counts_transit_time():
    # White sends on 01-10, black receives on 01-20 (10 days of post), answers on 01-22.
    # Only 22 - 20 = 2 days are black's; the 10 days in the post are no one's (50.4.3).
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-20", "01-22"))
    clock = compute(g, d("03-01"))
    assert clock.accounts["black"].thinking_days == 2
    assert clock.accounts["white"].thinking_days == 0


# --- 50.4.5 and 50.4.6: the start ----------------------------------------------------------

def test_it_does_not_count_days_before_the_official_start():
    # Official start 01-10. Black receives white's move on 01-05 and answers on 01-14:
    # only 14 - 10 = 4 days count; 01-05..01-10 (5 days) are excluded by 50.4.5.
    g = game(move("white", 1, sent="01-04"), move("black", 1, "01-05", "01-14"))
    clock = compute(g, d("02-01"))
    assert clock.accounts["black"].thinking_days == 4
    line = [ln for ln in clock.ledger if ln.player == "black"][0]
    assert (line.days, line.excluded_days, line.rule) == (4, 5, "50.4.5")


def test_a_move_sent_before_the_start_costs_nothing():
    # Received 01-02, sent 01-06, start 01-10: max(0, 6 - 10) = 0 days; 4 excluded.
    g = game(move("white", 1, "01-02", "01-06"))
    clock = compute(g, d("02-01"))
    assert clock.accounts["white"].thinking_days == 0
    assert clock.ledger[0].excluded_days == 4


def test_a_player_notified_late_starts_three_days_after_the_notice():
    # Notice of the start arrived 01-15: start = max(01-10, 15 + 3) = 01-18 (50.4.6).
    # White's first move, received on 01-10, sent on 01-20: 20 - 18 = 2 days.
    g = game(move("white", 1, "01-10", "01-20"), white_notice="01-15")
    a = account(g, "02-01", "white")
    assert a.start == d("01-18")
    assert a.thinking_days == 2


def test_a_notice_that_arrived_early_does_not_move_the_start_forward():
    # Notice on 01-01: 01-01 + 3 = 01-04, earlier than the official 01-10, which stands.
    g = game(white_notice="01-01")
    assert account(g, "02-01", "white").start == d("01-10")


def test_the_first_move_without_a_received_date_counts_from_the_start():
    # No received_on on move 1: it counts from the start, 01-10 -> 01-13 = 3 days.
    g = game(move("white", 1, sent="01-13"))
    assert account(g, "02-01", "white").thinking_days == 3


# --- 50.4.3: 10 moves in 30 days, with accumulation -------------------------------------

def test_it_gives_thirty_days_for_the_first_ten_moves():
    # Ten black moves of 2 days each: 20 used. Next move is 11, control 2: 2 * 30 - 20 = 40 left.
    events, last = alternate([1] * 10, [2] * 10)
    a = account(game(*events), last.isoformat(), "black")
    assert a.total_days == 20
    assert (a.control.number, a.control.through_move, a.control.allowed_days) == (2, 20, 60)
    assert a.remaining_days == 40
    assert a.overstepped is None


def test_unused_days_carry_over_to_the_next_control():
    # Moves 1-10 take 1 day each (10 of 30 used); moves 11-20 take 4 days each (40).
    # Through move 20: 50 <= 60, no overstep, even though the second ten took 40 > 30.
    events, last = alternate([0] * 20, [1] * 10 + [4] * 10)
    a = account(game(*events), last.isoformat(), "black")
    assert a.overstepped is None
    assert a.control.number == 3 and a.remaining_days == 90 - 50


def test_it_flags_the_first_control_that_was_exceeded():
    # Black's moves 1-10 take 4 days each: 40 > 30 at move 10 -> control 1 overstepped.
    # Moves 11-20 take 1 day each: 50 <= 60, but the first overstep stands.
    # It fell during move 8: moves 1-7 used 28 days; move 8, received 01-13 + 7 x 10 = 03-24, had 2
    # more (03-25, 03-26): the first day over is 03-27, and the flag fell at its 00:00.
    events, last = alternate([0] * 20, [4] * 10 + [1] * 10)
    a = account(game(*events), last.isoformat(), "black")
    assert a.overstepped is not None
    assert a.overstepped.as_json() == {"control": 1, "through_move": 10, "allowed_days": 30, "used_days": 40,
                                       "at": "2026-03-27T00:00:00Z"}


def test_thirty_days_exactly_is_not_an_overstep():
    # 10 moves of 3 days = 30 = the allowance.
    events, last = alternate([0] * 10, [3] * 10)
    assert account(game(*events), last.isoformat(), "black").overstepped is None


def test_the_ruleset_can_set_another_control():
    # 5 moves in 10 days: five moves of 3 days = 15 > 10 -> control 1 (through move 5) overstepped.
    # Moves 1-3 used 9; move 4, received 01-13 + 3 x 9 = 02-09, had 1 more day: over at 02-11 00:00.
    events, last = alternate([0] * 5, [3] * 5)
    rules = Ruleset(moves_per_control=5, days_per_control=10)
    a = account(game(*events, ruleset=rules), last.isoformat(), "black")
    assert a.overstepped.as_json() == {"control": 1, "through_move": 5, "allowed_days": 10, "used_days": 15,
                                       "at": "2026-02-11T00:00:00Z"}


# --- pending move, deadline, time trouble (50.4.12) --------------------------------------

def test_a_pending_move_runs_until_the_as_of_date_and_sets_a_deadline():
    # Black has used 2 days (move 1). Move 2 received 02-01, pending; as of 02-11 it has run
    # 10 days: used 12, left 30 - 12 = 18. Deadline = 02-01 + (18 + 10) = 03-01.
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12", "01-14"),
             move("white", 2, "01-16", "01-28"), move("black", 2, "02-01"))
    a = account(g, "02-11", "black")
    assert a.on_move is True
    assert a.thinking_days == 12
    assert a.remaining_days == 18
    assert a.deadline == d("03-01")


def test_the_deadline_does_not_move_as_the_days_pass():
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12"))
    deadlines = {account(g, day, "black").deadline for day in ("01-12", "01-20", "02-11", "02-20")}
    assert deadlines == {d("02-11")}  # 01-12 + 30


def test_a_player_without_a_pending_move_has_no_deadline():
    g = game(move("white", 1, sent="01-12"))
    a = account(g, "02-01", "white")
    assert a.on_move is False and a.deadline is None


@pytest.mark.parametrize("used, trouble", [(25, True), (24, False), (30, True)])
def test_it_flags_a_player_with_five_days_left(used, trouble):
    # White's move 1 pending from the start 01-10; after `used` days, 30 - used are left.
    # 5 left -> time trouble (registered mail, 50.4.12); 6 left -> not.
    g = game(move("white", 1))
    as_of = date_plus("01-10", used)
    a = account(g, as_of, "white")
    assert a.remaining_days == 30 - used
    assert a.time_trouble is trouble


def test_time_trouble_counts_days_left_in_the_control_whatever_the_moves_made():
    # Nine moves of 3 days = 27 used; 3 left in control 1 although only move 10 remains.
    events, last = alternate([0] * 9, [3] * 9)
    a = account(game(*events), last.isoformat(), "black")
    assert a.remaining_days == 3 and a.time_trouble


def test_the_pending_move_over_the_deadline_oversteps():
    # Move 1 pending from 01-10; as of 02-10 it has run 31 days > 30.
    a = account(game(move("white", 1)), "02-10", "white")
    assert a.remaining_days == -1
    assert a.overstepped.used_days == 31
    assert a.deadline == d("02-09")


# --- 50.4.7: notices and repeats -----------------------------------------------------------

@pytest.mark.parametrize("sent, charged, excluded", [
    ("02-03", 0, 2),  # 2 days: all within the 3 free days
    ("02-04", 0, 3),  # exactly 3 days: free
    ("02-06", 2, 3),  # 5 days: 5 - 3 = 2 counted
])
def test_up_to_three_days_of_a_notice_are_not_counted(sent, charged, excluded):
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12", "01-12"),
             move("white", 2, "01-20", "01-25", void=True),
             notice("black", 2, "02-01", sent))
    clock = compute(g, d("03-01"))
    line = clock.ledger[-1]
    assert (line.days, line.excluded_days, line.rule) == (charged, excluded, "50.4.7")
    assert clock.accounts["black"].thinking_days == charged


def test_a_repeat_of_ones_own_move_gets_the_same_three_free_days():
    # Black repeats move 1 in answer to white's repeat: 02-01 -> 02-08 = 7 days, 7 - 3 = 4.
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12", "01-12"),
             notice("black", 1, "02-01", "02-08", NoticeReason.REPEAT))
    assert account(g, "03-01", "black").thinking_days == 4


def test_the_ruleset_can_change_the_free_days():
    g = game(notice("white", 1, "01-10", "01-15"), ruleset=Ruleset(grace_days=0))
    assert account(g, "03-01", "white").thinking_days == 5


# --- void moves ---------------------------------------------------------------------------

def test_a_void_move_costs_its_days_but_is_not_a_move_made():
    # Void move 2: 01-20 -> 01-25 = 5 days; black's notice of it; corrected move 2: 02-05 -> 02-06 = 1 day.
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12", "01-18"),
             move("white", 2, "01-20", "01-25", void=True), notice("black", 2, "01-28", "02-02"),
             move("white", 2, "02-05", "02-06"))
    clock = compute(g, d("03-01"))
    white = clock.accounts["white"]
    assert white.thinking_days == 5 + 1 + 0
    assert white.made == 2
    assert [ln.kind for ln in clock.ledger] == ["move", "move", "void_move", "notice", "move"]


# --- 50.4.8: variants ----------------------------------------------------------------------

def test_the_receiver_of_a_variant_is_charged_on_the_last_accepted_move():
    # Black accepts white's variant on move 2 (no dates, costs 0), then answers move 3
    # received 02-10, sent 02-15: 5 days charged to move 2, the last accepted one.
    g = game(move("white", 1, sent="01-10"), move("black", 1, "01-12", "01-13"),
             move("white", 2, "01-16", "01-20"), move("black", 2, variant=Variant.ACCEPTED),
             move("white", 3, variant=Variant.CONDITIONAL), move("black", 3, "02-10", "02-15"))
    clock = compute(g, d("03-01"))
    last = clock.ledger[-1]
    assert (last.move, last.days, last.rule) == (2, 5, "50.4.8")
    assert clock.accounts["black"].made == 3


def test_a_conditional_move_costs_nothing():
    g = game(move("white", 1, sent="01-12"), move("white", 2, variant=Variant.CONDITIONAL))
    clock = compute(g, d("03-01"))
    assert clock.accounts["white"].thinking_days == 2
    assert clock.accounts["white"].made == 2
    assert clock.ledger[-1].days == 0


def test_after_an_accepted_move_the_next_time_is_charged_to_it():
    # Black's moves 1..10 are made, move 10 accepted from a variant: q = 10, control 1,
    # so the pending move 11's days still count against the first 30.
    events, last = alternate([0] * 10, [2] * 9)
    events.append(move("black", 10, variant=Variant.ACCEPTED))
    events.append(move("black", 11, last.isoformat()))
    a = account(game(*events), date_plus(last.isoformat(), 5), "black")
    # 9 * 2 = 18 + 5 running = 23 through move 10: 30 - 23 = 7 left in control 1.
    assert a.control.number == 1
    assert a.remaining_days == 7


# --- 50.4.9, 50.4.10: penalties ------------------------------------------------------------

def test_the_first_penalty_is_five_days_and_every_later_one_ten():
    g = game(penalty("white", 1), penalty("white", 1, PenaltyReason.ADDRESS_ERROR),
             penalty("white", 1, PenaltyReason.UNREGISTERED_MAIL), penalty("black", 1))
    clock = compute(g, d("02-01"))
    assert clock.accounts["white"].penalty_days == 5 + 10 + 10
    assert clock.accounts["black"].penalty_days == 5  # counted per player
    assert [ln.rule for ln in clock.ledger] == ["50.4.9", "50.4.10", "50.4.10", "50.4.9"]


def test_penalty_days_follow_the_ruleset():
    g = game(penalty("white", 1), penalty("white", 1),
             ruleset=Ruleset(first_penalty_days=2, repeat_penalty_days=7))
    assert account(g, "02-01", "white").penalty_days == 9


# --- 50.4.11: delay ------------------------------------------------------------------------

def test_a_late_repeat_adds_its_whole_delay():
    g = game(move("white", 1, sent="01-12"), delay("white", 2, 6))
    a = account(g, "02-01", "white")
    assert (a.thinking_days, a.delay_days, a.total_days) == (2, 6, 8)
    assert a.remaining_days == 30 - 8


# --- 50.4.1: the total, and the issue's example file ---------------------------------------

def test_the_total_is_thinking_plus_penalties_plus_delays():
    g = game(move("white", 1, sent="01-13"), penalty("white", 2), delay("white", 2, 4))
    a = account(g, "02-01", "white")
    assert a.total_days == 3 + 5 + 4


def test_the_example_game_of_the_issue_gives_the_published_accounts():
    game_, as_of = read_game(json.loads(EXAMPLE.read_text()))
    result = compute(game_, as_of).as_json()
    assert result["players"] == {
        "white": {"start": "2026-01-18", "made": 3, "on_move": False,
                  "thinking_days": 4, "penalty_days": 5, "delay_days": 0, "total_days": 9,
                  "control": {"number": 1, "through_move": 10, "allowed_days": 30, "remaining_days": 21},
                  "deadline": None, "time_trouble": False, "overstepped": None,
                  "flag_at": None, "remaining_seconds": 21 * 86400},   # not on move: 21 days for the next move
        "black": {"start": "2026-01-10", "made": 2, "on_move": True,
                  "thinking_days": 23, "penalty_days": 0, "delay_days": 4, "total_days": 27,
                  "control": {"number": 1, "through_move": 10, "allowed_days": 30, "remaining_days": 3},
                  "deadline": "2026-03-04", "time_trouble": True, "overstepped": None,
                  # 00:00 UTC of the day after the deadline; as of the end of 03-01, 3 days before it
                  "flag_at": "2026-03-05T00:00:00Z", "remaining_seconds": 3 * 86400},
    }
    assert result["ledger"][0] == {"player": "white", "move": 1, "kind": "move", "days": 0,
                                   "excluded_days": 2, "rule": "50.4.5", "event": 0,
                                   "note": result["ledger"][0]["note"]}
    # Black's 23 days: 2 (move 1) + 2 (notice, 5 - 3) + 19 running (02-10 -> 03-01) on move 2.
    black_days = [(ln["kind"], ln["move"], ln["days"]) for ln in result["ledger"] if ln["player"] == "black"]
    assert black_days == [("move", 1, 2), ("notice", 2, 2), ("variant_move", 2, 0), ("delay", 3, 4),
                          ("pending_move", 2, 19)]


def date_plus(text: str, days: int) -> str:
    return date_from(text, days).isoformat()


def date_from(text: str, days: int):
    return d(text).fromordinal(d(text).toordinal() + days)
