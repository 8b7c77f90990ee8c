"""A game's events read with psycopg's own ``timestamptz`` loader are the events Django's loader reads
(``corr.pgtimestamps``): the same instants, aware and in UTC, and still the same instants in a session set to
another time zone. PostgreSQL only: SQLite has no such loader."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from corr.games.selectors import _CLOCK_EVENTS_SQL, clock_rows_read
from corr.pgtimestamps import plain_timestamps

from .conftest import WHITE_SENT, move_at

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(connection.vendor != "postgresql", reason="psycopg's loaders are PostgreSQL's")]


def _django_rows(game_id: int) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(_CLOCK_EVENTS_SQL, [game_id])
        return cursor.fetchall()


def test_the_events_read_with_psycopgs_loader_are_the_ones_djangos_loader_reads(exact_game, api, boris):
    assert move_at(api(boris), exact_game, 1, "e5", WHITE_SENT + timedelta(hours=5, seconds=7)).status_code == 201
    rows = [tuple(row) for row in clock_rows_read(game=exact_game)]
    assert rows == _django_rows(exact_game.pk)
    instants = [value for row in rows for value in row[-2:] if value is not None]
    assert len(instants) >= 3  # two moves' sent_at and black's received_at at least
    assert all(at.utcoffset() == timedelta(0) for at in instants)
    assert WHITE_SENT in instants and WHITE_SENT + timedelta(hours=5, seconds=7) in instants


def test_in_a_session_set_to_another_zone_the_instants_stay_right(exact_game):
    utc = _django_rows(exact_game.pk)
    with connection.cursor() as cursor:
        cursor.execute("SET TIME ZONE 'Europe/Moscow'")
        try:
            plain_timestamps(cursor)
            cursor.execute(_CLOCK_EVENTS_SQL, [exact_game.pk])
            moscow = cursor.fetchall()
        finally:
            cursor.execute("SET TIME ZONE 'UTC'")
    # The same instants (aware datetimes compare as instants), told in Moscow's time: psycopg read the zone.
    assert moscow == utc
    assert {at.utcoffset() for row in moscow for at in row[-2:] if at is not None} == {timedelta(hours=3)}
