"""A PostgreSQL transaction in as few round trips as its statements: BEGIN and COMMIT ride along.

Django's ``transaction.atomic`` sends ``BEGIN`` and ``COMMIT`` as round trips
of their own (psycopg starts a transaction with a separate command). A move
is short: one statement that locks and reads the game, one that stores it.
Here ``BEGIN`` is sent in the same query string as the first statement and
``COMMIT`` in the same one as the last (Django's psycopg cursors bind
parameters on the client, so a string may hold several statements), and the
move costs two round trips instead of four (issue 13).

It is used only where Django manages no transaction of its own
(``usable()``): inside ``atomic`` (the tests' transactions, an
``Idempotency-Key``'s record) the callers take the ordinary path. Django's
connection stays in autocommit throughout; the transaction is this object's
to end, and it always is: committed with the last statement, or by ``COMMIT``
on leaving the block, or rolled back when the block raises. Anything that
would open an ``atomic`` block meanwhile fails loudly (psycopg refuses to
leave autocommit inside a transaction) instead of nesting silently.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.db import connection


class Trip:
    """The transaction a ``trip()`` block runs: prefix its first statement, suffix its last."""

    __slots__ = ("after", "begun", "ended")

    def __init__(self) -> None:
        self.begun = False
        self.ended = False
        self.after: list = []  # run once the transaction has committed (``on_commit``), in order

    def on_commit(self, callback) -> None:
        """Run ``callback()`` when the ``trip()`` block ends committed; never if it rolls back.

        Django's ``transaction.on_commit`` runs a callback at once outside ``atomic``, which inside a
        trip not yet committed would be before the COMMIT: a task it queues could read the old rows.
        Run at the block's end, not with the COMMIT's statement: the caller may still read its result.
        """
        self.after.append(callback)

    def execute(self, cursor, sql: str, params, *, last: bool = False) -> None:
        """Run ``sql`` in the transaction, beginning it with this statement if it has not begun.

        ``last``: COMMIT in the same round trip; nothing may be run in the
        transaction after. The cursor is left on ``sql``'s result.
        """
        if self.ended:
            raise RuntimeError("this transaction has ended: no statement can join it")
        first = not self.begun
        text = ("BEGIN; " if first else "") + sql + ("; COMMIT" if last else "")
        self.begun = True
        cursor.execute(text, params)  # a failing statement skips the rest: the block's exit rolls back
        self.ended = last
        if first:
            cursor.nextset()  # BEGIN's result comes first


def usable() -> bool:
    """True where a ``trip()`` can run: PostgreSQL, and no ``atomic`` block open on the connection."""
    return connection.vendor == "postgresql" and not connection.in_atomic_block


@contextmanager
def trip():
    """A transaction run by ``Trip.execute``: rolled back if the block raises, else committed if still open.

    :raises RuntimeError: where it cannot run (``usable()`` is False).
    """
    if not usable():
        raise RuntimeError("a trip runs on PostgreSQL outside any atomic block")
    current = Trip()
    try:
        yield current
    except BaseException:
        if current.begun and not current.ended:
            _end("ROLLBACK")
        raise
    if current.begun and not current.ended:
        _end("COMMIT")
    current.ended = True
    for callback in current.after:
        callback()


def _end(command: str) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute(command)
    except Exception:
        # A connection that cannot end its transaction is not used again: closing it ends the
        # transaction on the server, and the next request opens a fresh one. With the pool
        # (DB_POOL) closing hands the session back, and the pool rolls back its open
        # transaction, or discards it when it is broken, before lending it again.
        connection.close()
        if command == "COMMIT":
            raise
