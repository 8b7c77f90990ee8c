"""PostgreSQL ``timestamptz`` columns read by psycopg's own loader, for the reads of many rows.

Django registers a loader of its own on every PostgreSQL connection
(``django.db.backends.postgresql.psycopg_any.BaseTzLoader``): it calls
psycopg's loader and then replaces the result's ``tzinfo`` with the
connection's, one Python call per value. A game's events carry two instants
each (``received_at``, ``sent_at``: server games counted by the instant,
issue 22), and that call was most of the time a 200-move game's clock read
spent fetching its rows (about 4 us a value against under 1 us; measured on
400 events, 2026-12-03). With ``USE_TZ`` Django opens every session in UTC,
and psycopg's loader then gives the same aware datetimes in UTC.
"""

from __future__ import annotations


def plain_timestamps(cursor) -> None:
    """Make ``cursor`` (Django's cursor on PostgreSQL) read ``timestamptz`` with psycopg's loader; only it changes.

    The rows read are the rows Django's loader reads in the UTC session Django opens
    (``tests/server_instants/test_plain_timestamps.py``). psycopg's loader reads the session's time zone
    from the server, where Django's assumes UTC: in a session set to another zone it still gives the right
    instants, where Django's would shift them.
    """
    from psycopg.types.datetime import TimestamptzLoader

    cursor.cursor.adapters.register_loader("timestamptz", TimestamptzLoader)
