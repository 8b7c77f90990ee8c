"""A conditional reply played by the server (issue 28): the partner's dated move, the owner's reply as a
``conditional`` variant move (50.4.8, undated), then the partner's next dated move, which answers the reply."""

from __future__ import annotations

from datetime import date

import pytest

from corr.clock import EventError, Game, Move, Player, Ruleset, Variant, compute

FISCHER = {"system": "fischer", "initial": 10, "increment": 3}


def game(tail, spec=FISCHER):
    head = (Move("white", 1, sent_on=date(2026, 1, 10)),               # white sends 1 with a tree
            Move("black", 1, date(2026, 1, 10), date(2026, 1, 12)))      # black: 2 days, the tree fires
    return Game(date(2026, 1, 10), (Player("white"), Player("black")), head + tail,
                Ruleset.from_mapping({"time_control": spec}))


def test_the_partner_answers_a_conditional_reply_and_the_reply_costs_its_owner_nothing():
    tail = (Move("white", 2, variant=Variant.CONDITIONAL),
            Move("black", 2, date(2026, 1, 12), date(2026, 1, 15)),      # 3 days, from the reply's instant
            Move("white", 3, date(2026, 1, 15)))                          # running 5 days on 01-20
    clock = compute(game(tail), date(2026, 1, 20))
    # white: 10 + 3 (move 1, 0 days) + 3 (move 2, the reply, 0 days) - 5 running = 11
    # black: 10 - 2 + 3 - 3 + 3 = 11
    assert (clock.accounts["white"].remaining_days, clock.accounts["black"].remaining_days) == (11, 11)
    assert clock.accounts["white"].made == 2


def test_a_dated_move_of_the_owner_after_their_own_conditional_reply_answers_nothing():
    tail = (Move("white", 2, variant=Variant.CONDITIONAL), Move("white", 3, date(2026, 1, 12), date(2026, 1, 13)))
    with pytest.raises(EventError, match="white answers again"):
        compute(game(tail), date(2026, 1, 20))
