"""Planning ahead (issue 41): "if every further move takes N days (and the post T days)", when each control ends.

Each row of ``GET /api/games/{id}/plan/`` is checked by storing the moves it supposes (each sent N days after
its receipt, received T days after its sending) and reading the stored game's clock on the day the row names:
the control ended with that move, and the player is in time exactly when the row says so.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine

from corr.games import services

from .conftest import START, noon

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(postal_move):
    """The planning tests' game (tests/planning/conftest.py)."""
    return postal_move


class Planned:
    """The moves the plan supposes, stored as the days come: from black's move 1 (received 01-24), each sent
    ``think`` days after its receipt (never before 01-25) and received ``post`` days after its sending."""

    def __init__(self, game, users, *, think: int, post: int, player: str = "black", received: date = date(2026, 1, 24),
                 today: date = date(2026, 1, 25)):
        self.game, self.users, self.think, self.post, self.today = game, users, think, post, today
        self.player, self.number, self.received = player, 1, received
        self.first = player == "white"  # the game's first move: no receipt, its time runs from the start

    def store_through(self, day: date) -> None:
        """Store every supposed move sent on or before ``day``."""
        with time_machine.travel(noon(day), tick=False):
            while (sent := max(self.received + timedelta(days=self.think), self.today)) <= day:
                services.move_submit(game=self.game, by=self.users[self.player], number=self.number, notation="a3",
                                     received_on=None if self.first else self.received, sent_on=sent, today=day)
                self.first = False
                self.number = self.number if self.player == "white" else self.number + 1
                self.player = "black" if self.player == "white" else "white"
                self.received = sent + timedelta(days=self.post)


@pytest.mark.parametrize("think", [2, 4])
def test_each_control_ends_on_the_day_the_table_says_in_time_or_not_as_storing_those_moves_gives(
        game, anna, boris, api, think):
    with time_machine.travel(noon(date(2026, 1, 25)), tick=False):
        plan = api(boris).get(f"/api/games/{game.pk}/plan/?think_days={think}&post_days=3")
    assert plan.status_code == 200, plan.content
    body = plan.json()
    assert (body["think_days"], body["post_days"]) == (think, 3)
    rows = body["control_ends"]
    assert {(r["player"], r["control"]) for r in rows} == {(p, c) for p in ("white", "black") for c in (1, 2, 3)}
    first = [r for r in rows if r["control"] == 1]
    assert all(r["through_move"] == 10 for r in first)
    planned = Planned(game, {"white": anna, "black": boris}, think=think, post=3)
    for row in sorted(first, key=lambda r: r["sent"]):
        day = date.fromisoformat(row["sent"])
        planned.store_through(day)
        with time_machine.travel(noon(day), tick=False):
            account = api(boris).get(f"/api/games/{game.pk}/").json()["clock"]["players"][row["player"]]
        assert account["made"] == 10 and account["control"]["number"] == 2  # the control ended with move 10
        assert (account["overstepped"] is None) == row["in_time"]
    # Black's 30 days: 2 for move 1 and 9 moves of 2 is 20, in time; of 4, 38: over.
    assert next(r for r in first if r["player"] == "black")["in_time"] is (think == 2)


@pytest.mark.parametrize("think", [2, 3])
def test_the_first_moves_days_run_from_the_start_not_from_today(arbiter, postal, anna, boris, api, think):
    # White has not moved by 01-22, 12 days into the game: 12 days used. Move 1 sent that day, then nine of
    # ``think`` days: 12 + 18 = 30 of 30, in time, with 2 days a move; 12 + 27 = 39 with 3, over.
    today = date(2026, 1, 22)
    with time_machine.travel(noon(today), tick=False):
        game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=START)
        rows = api(anna).get(f"/api/games/{game.pk}/plan/?think_days={think}&post_days=4").json()["control_ends"]
    white = next(r for r in rows if r["player"] == "white" and r["control"] == 1)
    # Each white move 12 or 14 days after the last (the post twice, the partner's days, the player's).
    assert white["through_move"] == 10
    assert white["sent"] == (today + timedelta(days=9 * (8 + 2 * think))).isoformat()
    assert white["in_time"] is (think == 2)
    planned = Planned(game, {"white": anna, "black": boris}, think=think, post=4, player="white", received=START,
                      today=today)
    day = date.fromisoformat(white["sent"])
    planned.store_through(day)
    with time_machine.travel(noon(day), tick=False):
        account = api(anna).get(f"/api/games/{game.pk}/").json()["clock"]["players"]["white"]
    assert account["made"] == 10 and account["control"]["number"] == 2
    assert (account["overstepped"] is None) is white["in_time"]


def test_a_bad_plan_query_is_refused_naming_the_field_in_the_readers_language(game, boris, eve, api):
    for query, field in (("", "think_days"), ("think_days=-1", "think_days"), ("think_days=2&post_days=x",
                                                                              "post_days")):
        for language in ("en", "ru"):
            answer = api(boris).get(f"/api/games/{game.pk}/plan/?{query}", HTTP_ACCEPT_LANGUAGE=language)
            assert answer.status_code == 400 and answer.json()["field"] == field, answer.content
    assert api(eve).get(f"/api/games/{game.pk}/plan/?think_days=2").status_code == 403
    assert api(None).get(f"/api/games/{game.pk}/plan/?think_days=2").status_code in (401, 403)
