"""The benchmarks' data generator stores clocks the calculator agrees with, and ~1% near a deadline."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from corr.benchdata import bench_data_load
from corr.games.selectors import game_rows
from corr.games.services import clock_fields, time_for_storage
from corr.models import Game, PlayerClock
from corr.nightly.job import nightly_select

pytestmark = pytest.mark.django_db
ON = date(2026, 11, 29)


def test_generated_games_store_exactly_what_the_calculator_computes():
    summary = bench_data_load(games=300, near=30, on=ON, progress=lambda line: None)
    assert summary["games"] == 300
    stored = {(c.game_id, c.player): c for c in PlayerClock.objects.all()}
    for game in Game.objects.select_related("tournament"):
        expected = clock_fields(game, time_for_storage(game, game_rows(game=game), ON))
        for colour, fields in expected.items():
            clock = stored[(game.pk, colour)]
            assert {k: getattr(clock, k) for k in fields} == fields, (game.pk, colour)


def test_only_the_near_games_are_selected_by_the_nightly_job():
    bench_data_load(games=300, near=30, on=ON, progress=lambda line: None)
    assert nightly_select(on=ON) == list(range(1, 31))


def test_it_refuses_a_database_that_has_games(arbiter, anna, boris, postal):
    from corr.games import services

    services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=ON)
    with pytest.raises(RuntimeError, match="empty database"):
        bench_data_load(games=10, near=1, on=ON, progress=lambda line: None)


def test_every_game_has_a_history_of_tens_of_dated_events():
    bench_data_load(games=120, near=12, on=ON, progress=lambda line: None)
    from django.db.models import Count, Q

    counts = Game.objects.annotate(moves=Count("events", filter=Q(events__kind="move")),
                                   penalties=Count("events", filter=Q(events__kind="penalty")))
    assert all(20 <= g.moves <= 80 for g in counts)
    assert any(g.penalties for g in counts)  # some games carry a penalty too


def test_the_event_table_keeps_its_indexes_and_constraints_after_a_bulk_load():
    from django.db import connection

    def shape():
        if connection.vendor != "postgresql":
            return None
        with connection.cursor() as cursor:
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'corr_gameevent' ORDER BY 1")
            indexes = cursor.fetchall()
            cursor.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                           " WHERE conrelid = 'corr_gameevent'::regclass ORDER BY 1")
            return indexes, cursor.fetchall()

    before = shape()
    bench_data_load(games=20, near=2, on=ON, progress=lambda line: None)
    assert shape() == before


def test_the_nightly_job_on_generated_data_warns_every_near_game_and_skips_none():
    import time_machine

    from corr.nightly.job import nightly_job

    bench_data_load(games=400, near=40, on=ON, progress=lambda line: None)
    with time_machine.travel(datetime(ON.year, ON.month, ON.day, 12, tzinfo=timezone.utc), tick=False):
        totals = nightly_job(on=ON)
    # Nothing is dated after ``on``: no game is skipped as changed later, and each near player gets a reminder.
    assert (totals["stale_skipped"], totals["errors"], totals["reminders"]) == (0, 0, 40)
    assert 0 < totals["time_trouble_notices"] < 40
