"""Set-based writes: one INSERT ... ON CONFLICT DO NOTHING RETURNING per batch, and the bound cursor they use.

The unique constraints decide what is new (STYLE 7): a row that exists is
skipped by the database, and ``RETURNING`` hands back exactly the rows this
statement created, with no second query and no claim token to read back. Two
runs at once cannot both get a row: PostgreSQL makes the second insert wait
for the first's transaction and then skip. SQLite has the same syntax since
3.35 (checked at import: an older library would silently need another path).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import orjson
from django.db import connection

if sqlite3.sqlite_version_info < (3, 35):  # pragma: no cover - the machine's library decides
    raise ImportError(f"SQLite {sqlite3.sqlite_version} lacks INSERT ... RETURNING (3.35+ is needed)")

BATCH_ROWS = 500
"""Rows per statement on SQLite, which binds at most 32,766 values: 500 rows of a dozen columns stay below."""
PG_BATCH_ROWS = 5000
"""Rows per statement on PostgreSQL (one JSON parameter)."""


def bound_cursor():
    """A cursor that sends its parameters apart from the statement (PostgreSQL's server-side binding).

    Django's psycopg cursors bind on the client: every array parameter is
    quoted, escaped and spliced into the statement's text, a few hundred
    microseconds per thousand values. The job's statements carry arrays of
    thousands of values (e-mails' bodies, ids), so they bind on the server;
    the cursor is still Django's wrapper (errors, query logging, execute
    wrappers). On SQLite, the ordinary cursor.
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    import psycopg

    connection.ensure_connection()
    with connection.wrap_database_errors:
        return connection._prepare_cursor(psycopg.Cursor(connection.connection))


def insert_new(model, columns: Sequence[str], rows: Sequence[Sequence], returning: Sequence[str]) -> list[tuple]:
    """Insert ``rows`` (values in ``columns`` order, as Python values) and return the created ones.

    On PostgreSQL the rows travel as one JSON document (UUIDs, dates and
    instants as ISO text, JSON columns as nested JSON); on SQLite the values
    are prepared by the model's own fields. Rows that conflict with any unique
    constraint are skipped.
    :returns: the ``returning`` columns of each created row, in no particular order.
    """
    if not rows:
        return []
    fields = [model._meta.get_field(name) for name in columns]
    created: list[tuple] = []
    with bound_cursor() as cursor:
        if connection.vendor == "postgresql":
            # The rows as one JSON parameter, expanded by the database into the table's own row type:
            # encoded in C (orjson) where arrays of values were dumped one value at a time in Python,
            # whatever the number of rows.
            db_columns = [f.column for f in fields]
            select = ", ".join(db_columns)
            table = model._meta.db_table
            for start in range(0, len(rows), PG_BATCH_ROWS):
                batch = orjson.dumps([dict(zip(db_columns, row, strict=True))
                                      for row in rows[start:start + PG_BATCH_ROWS]])
                cursor.execute(f"INSERT INTO {table} ({select}) SELECT {select}"
                               f" FROM json_populate_recordset(NULL::{table}, %s::json)"
                               f" ON CONFLICT DO NOTHING RETURNING {', '.join(returning)}", [batch.decode()])
                created.extend(cursor.fetchall())
            return created
        # Only the kinds whose database form differs need preparing; the others pass as they are.
        prepare = [i for i, f in enumerate(fields)
                   if f.get_internal_type() in ("UUIDField", "JSONField", "DateTimeField")]
        names = ", ".join(f.column for f in fields)
        placeholder = "(" + ", ".join(["%s"] * len(fields)) + ")"
        for start in range(0, len(rows), BATCH_ROWS):
            batch = rows[start:start + BATCH_ROWS]
            values: list = []
            for row in batch:
                row = list(row)
                for i in prepare:
                    row[i] = fields[i].get_db_prep_save(row[i], connection)
                values.extend(row)
            cursor.execute(f"INSERT INTO {model._meta.db_table} ({names}) VALUES"
                           f" {', '.join([placeholder] * len(batch))} ON CONFLICT DO NOTHING"
                           f" RETURNING {', '.join(returning)}", values)
            created.extend(cursor.fetchall())
    return created


def ids_in(column: str, ids: Sequence[int]) -> tuple[str, list]:
    """``column`` among ``ids`` as SQL and its parameters: one array on PostgreSQL, a list of them on SQLite."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s)", [list(ids)]
    return f"{column} IN ({', '.join(['%s'] * len(ids))})", list(ids)
