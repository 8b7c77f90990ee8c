"""Statements PostgreSQL parses and plans once per session, then runs by name (``PREPARE`` / ``EXECUTE``).

Django's psycopg cursors bind parameters on the client, so every execution
of a statement is parsed and planned again by the server: for the move's
locking read (a four-table join with three JSON subqueries) planning costs
more than running it. A statement here is prepared the first time a session
runs it (one extra round trip per server session) and executed by name after;
``EXECUTE`` is a plain SQL statement, so it can share a query string with
``BEGIN`` or ``COMMIT`` (``trips``).

What a session has prepared is remembered with psycopg's connection object,
which is that one session from its start to its end: the pool (``DB_POOL``)
lends one session to many requests, each through a Django connection that
starts empty, so a Django connection knows nothing of what its session did
before, and a session handed out again keeps its statements (``PREPARE`` of an
existing name is an error). A session opened anew, by the pool or by Django,
is a new psycopg connection and has prepared nothing. ``PREPARE`` is not
undone by a rollback, and only this module prepares or deallocates.

A prepared statement lives in its server session: a connection pooler that
hands one client's statements to several sessions (PgBouncer in transaction
mode) must not be used with it. ``DB_PREPARED_STATEMENTS=0`` turns it off;
the same SQL is then sent whole each time.
"""

from __future__ import annotations

import weakref

from django.conf import settings
from django.db import connection

_PLACEHOLDER = "%s"


class Prepared:
    """One statement, written with ``%s`` placeholders as for a Django cursor, prepared under ``name``."""

    __slots__ = ("name", "sql", "arity", "_prepare")

    def __init__(self, name: str, sql: str) -> None:
        if "%%" in sql or sql.replace(_PLACEHOLDER, "").count("%"):
            raise ValueError(f"{name}: only %s placeholders may carry a percent sign")
        pieces = sql.split(_PLACEHOLDER)
        self.name, self.sql, self.arity = name, sql, len(pieces) - 1
        body = pieces[0] + "".join(f"${n}{piece}" for n, piece in enumerate(pieces[1:], start=1))
        self._prepare = f"PREPARE {name} AS {body}"

    def text(self, cursor) -> str:
        """The statement to send now on ``cursor``'s connection: ``EXECUTE name(%s, ...)``, or the SQL itself.

        Prepares the statement first (its own round trip) if this session has not.
        """
        if not settings.DB_PREPARED_STATEMENTS:
            return self.sql
        done = _session_prepared()
        if self.name not in done:
            cursor.execute(self._prepare)
            done.add(self.name)
        if not self.arity:
            return f"EXECUTE {self.name}"
        return f"EXECUTE {self.name}({', '.join([_PLACEHOLDER] * self.arity)})"


def _session_prepared() -> set[str]:
    """The names prepared in the server session the current Django connection is on (connected by the caller).

    Kept per psycopg connection, which dies with its session: a session the
    pool lends again keeps its names, a new one starts with none.
    """
    session = connection.connection
    done = _PREPARED.get(session)
    if done is None:
        done = _PREPARED[session] = set()
    return done


_PREPARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""psycopg connection -> the names prepared in its session; an entry goes with its connection."""
