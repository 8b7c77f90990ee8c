"""The clock read's own path (issue 13): its rows, its JSON and its statements are those of the general path."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.games import services
from corr.games.clockstate import game_time
from corr.games.leaves import game_leave, leave_forget
from corr.games.selectors import (
    CLOCK_EVENT_FIELDS, clock_json, clock_rows_read, event_rows, game_clock_view, game_get,
)
from corr.models import GameEvent

from ..conftest import TODAY

pytestmark = pytest.mark.django_db


def test_the_clock_reads_the_rows_the_general_path_reads(played):
    expected = event_rows(GameEvent.objects.filter(game=played).order_by("seq"), CLOCK_EVENT_FIELDS)
    assert clock_rows_read(game=played) == expected
    assert len(expected) >= 3


def test_the_clock_read_keeps_the_players_leave_on_the_game(played):
    leave_forget(played)
    clock_rows_read(game=played)
    kept = game_leave(played)
    leave_forget(played)
    assert kept == game_leave(played)
    assert kept["white"], kept


def test_the_clock_json_is_the_calculators(played):
    rows = clock_rows_read(game=played)
    clock = game_time(played, rows, TODAY, with_ledger=True).clock
    assert any(line.note for line in clock.ledger)
    assert clock_json(clock) == clock.as_json()


def test_a_cache_miss_read_costs_the_same_statements_whatever_the_game_length(played, anna, boris):
    def statements() -> int:
        game = game_get(game_id=played.pk)
        with CaptureQueriesContext(connection) as ctx:
            game_clock_view(game=game, as_of=TODAY)  # a new version each time: a cache miss
        return len(ctx.captured_queries)

    before = statements()
    day = TODAY - timedelta(days=10)
    services.move_submit(game=played, by=anna, number=2, notation="Nf3", received_on=day, sent_on=day, today=TODAY)
    assert statements() == before == 2


def test_the_clock_built_from_clock_tuples_is_the_one_built_from_rows(played, arbiter, anna, boris):
    """The read's fast path (events straight from the fetched tuples) assembles what the general path does.

    Corrected, withdrawn, delayed and penalised events included: the tuples' rare path (corrections) too.
    """
    from corr.games.selectors import _clock_tuples_read

    day = TODAY - timedelta(days=10)
    services.move_submit(game=played, by=anna, number=2, notation="Nf3", received_on=day, sent_on=day, today=TODAY)
    services.delay_assess(game=played, by=arbiter, player="black", days=2, today=TODAY)
    penalty = GameEvent.objects.filter(game=played, kind="penalty").get()
    delay = GameEvent.objects.filter(game=played, kind="delay").get()
    first = GameEvent.objects.filter(game=played, kind="move", number=1, player="black").get()
    services.event_withdraw(game=played, by=arbiter, seq=penalty.seq, note="wrong player", today=TODAY)
    services.event_correct(game=played, by=arbiter, seq=first.seq, changes={"sent_on": first.sent_on
                           + timedelta(days=1)}, note="postmark", today=TODAY)
    game = game_get(game_id=played.pk)
    tuples = _clock_tuples_read(game=game)
    assert all(isinstance(row, tuple) and len(row) == len(CLOCK_EVENT_FIELDS) for row in tuples)
    supersedes = CLOCK_EVENT_FIELDS.index("supersedes_id")
    assert any(row[supersedes] is not None for row in tuples), "a correction or withdrawal is in the rows"
    assert delay.seq in [row[1] for row in tuples]
    fast = game_time(game, tuples, TODAY, with_ledger=True, clock_tuples=True)
    general = game_time(game, event_rows(GameEvent.objects.filter(game=game).order_by("seq")), TODAY,
                        with_ledger=True)
    assert fast.assembled == general.assembled
    assert fast.clock.as_json() == general.clock.as_json()
    assert len(fast.assembled.game.events) >= 4
