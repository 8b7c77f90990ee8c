"""Invariants of the calculator on random valid games (hypothesis)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from corr.clock import (
    EventError, Game, Move, NoticeReason, Penalty, PenaltyReason, Player, Ruleset, compute, read_game, write_game,
)
from corr.clock.batch import compute_files

from .strategies import START, games

@given(games())
def test_the_total_is_thinking_plus_penalties_plus_delays(case):
    game, as_of = case
    for a in compute(game, as_of).accounts.values():
        assert a.total_days == a.thinking_days + a.penalty_days + a.delay_days
        assert min(a.thinking_days, a.penalty_days, a.delay_days) >= 0


@given(games())
def test_the_ledger_adds_up_to_the_totals(case):
    game, as_of = case
    clock = compute(game, as_of)
    for pid, a in clock.accounts.items():
        assert sum(line.days for line in clock.ledger if line.player == pid) == a.total_days


@given(games())
def test_remaining_days_are_the_allowance_less_what_was_charged_through_the_control(case):
    game, as_of = case
    clock = compute(game, as_of)
    n = game.ruleset.moves_per_control
    for pid, a in clock.accounts.items():
        charged = sum(ln.days for ln in clock.ledger if ln.player == pid and ln.move <= a.control.through_move)
        assert a.control.allowed_days - charged == a.remaining_days
        assert a.control.through_move == a.control.number * n
        assert a.time_trouble == (a.remaining_days <= game.ruleset.time_trouble_days)


@given(games(), st.data())
def test_adding_a_day_to_a_sent_date_never_lowers_a_total(case, data):
    game, as_of = case
    sent = [i for i, e in enumerate(game.events) if e.type in ("move", "notice") and e.sent_on is not None
            and can_be_sent_a_day_later(game, i)]
    if not sent:
        return
    i = data.draw(st.sampled_from(sent))
    later = replace_event(game.events[i], sent_on=game.events[i].sent_on + timedelta(days=1))
    slower = replace(game, events=game.events[:i] + (later,) + game.events[i + 1:])
    as_of_later = max(as_of, later.sent_on)
    before = compute(game, as_of_later).accounts
    after = compute(slower, as_of_later).accounts
    for pid in before:
        assert after[pid].total_days >= before[pid].total_days


@given(games(), st.data())
def test_a_receipt_moved_before_the_partners_dispatch_is_refused_naming_it(case, data):
    game, as_of = case
    dispatched, answers = {}, []
    for i, e in enumerate(game.events):
        partner = next(p.id for p in game.players if p.id != e.player)
        if e.type in ("move", "notice") and e.received_on is not None and partner in dispatched:
            answers.append((i, dispatched[partner]))
        if e.type == "move" and e.sent_on is not None or e.type == "notice" and e.reason is not NoticeReason.REPEAT:
            dispatched[e.player] = e.sent_on
    if not answers:
        return
    i, sent = data.draw(st.sampled_from(answers))
    early = replace_event(game.events[i], received_on=sent - timedelta(days=1))
    with pytest.raises(EventError) as caught:
        compute(replace(game, events=game.events[:i] + (early,) + game.events[i + 1:]), as_of)
    assert (caught.value.index, caught.value.field) == (i, f"events[{i}].received_on")


@given(games())
def test_a_game_file_reads_back_to_the_same_game(case):
    game, as_of = case
    again, file_as_of = read_game(json.loads(json.dumps(write_game(game, as_of))))
    assert (again, file_as_of) == (game, as_of)


@given(st.lists(games(max_events=15), min_size=1, max_size=5))
def test_a_batch_gives_the_same_results_as_single_files(cases):
    files = [write_game(g, as_of) for g, as_of in cases]
    batch = [c.as_json() for c in compute_files(files, as_of=None, today=cases[0][1])]
    singles = [compute_files(f, as_of=None, today=cases[0][1])[0].as_json() for f in files]
    assert batch == singles


# Found by Hypothesis: white notified late (start 01-23), pending first move, two penalties of 1 day over
# a 1-day control, as of 01-10. No day is in time, so there is no deadline (there was 01-22, a day on
# which sending would still leave -1).
@example((Game(official_start=START, players=(Player("white", date(2026, 1, 20)), Player("black")),
               events=(Move("white", 1), Penalty("white", 1, PenaltyReason.ADDRESS_ERROR),
                       Penalty("white", 1, PenaltyReason.ADDRESS_ERROR)),
               ruleset=Ruleset(moves_per_control=1, days_per_control=1, first_penalty_days=1,
                               repeat_penalty_days=1)), date(2026, 1, 20)))
@given(games())
def test_a_deadline_is_exactly_the_last_day_without_an_overstep(case):
    game, as_of = case
    for pid, a in compute(game, as_of).accounts.items():
        if a.deadline is None or a.deadline < as_of:
            continue
        # Sending on the deadline keeps the current control; a day later exceeds it.
        assert compute(game, a.deadline).accounts[pid].remaining_days == 0
        later = compute(game, a.deadline + timedelta(days=1)).accounts[pid]
        assert later.remaining_days == -1


def can_be_sent_a_day_later(game, i) -> bool:
    """True if no later move or notice of the partner arrived before the day after event ``i`` was sent.

    They answer this dispatch or a later one, and nothing arrives before it is sent: a day
    later would make the game impossible, which the calculator refuses.
    """
    event = game.events[i]
    later = event.sent_on + timedelta(days=1)
    for e in game.events[i + 1:]:
        if e.player != event.player and e.type in ("move", "notice"):
            arrived = e.received_on if e.received_on is not None else e.sent_on
            if arrived is not None and arrived < later:
                return False
    return True


def replace_event(event, **changes):
    if isinstance(event, Move):
        return event._replace(**changes)
    return event._replace(**changes)


@given(games())
def test_the_ledger_built_in_the_same_pass_equals_the_one_built_later(case):
    game, as_of = case
    assert compute(game, as_of, with_ledger=True).ledger == compute(game, as_of).ledger
