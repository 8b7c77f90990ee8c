"""A socket's press on the rows its process knows, made on the event loop in one round trip (issue 42).

A press taken on the live socket ran on a database thread (:mod:`corr.dbthreads`): the event loop handed it to a
thread, the thread sent the statement and slept until PostgreSQL answered, then handed the answer back to the loop.
Each hand-off wakes a sleeping thread, and on the 2-core machine the press's time in the server was mostly such
waits, not work (docs/benchmarks.md). Here, when the process knows the game's rows (:mod:`corr.live.known`), the
press is computed on the event loop, where its computation ran anyway under the GIL, and its one conditional
statement (:func:`corr.live.trips.store`, deferred: :func:`corr.live.trips.deferring`) is sent over an asynchronous
session of the loop's own: the loop awaits PostgreSQL's answer as it awaits a socket's frame, and serves the other
sockets meanwhile.

The answer is always the locking path's: this path gives way, returning None, and the caller makes the press on a
database thread as before, whenever

- the game is not known, the message has a ``move_id`` (its record is written in the move's transaction), the
  feature is off (``LIVE_LOOP_SESSIONS`` 0) or the database is not PostgreSQL;
- computing it would query the database (a heartbeat due, a flag to record first, the game read again): Django
  refuses any query on the event loop, and nothing was sent;
- the press was refused on what was known (judged again under the lock, as :class:`corr.live.trips.KnownPress`);
- no session is free, or one cannot be opened (nothing was sent);
- the statement wrote nothing (the rows had changed) or PostgreSQL refused it (a lock or statement timeout):
  its transaction is rolled back, nothing was written.

Only a session lost while its statement was in flight is answered here, 503 with ``retry_after``: the move may have
committed, so it is never made again (the same answer as a thread's; a client that sends ``move_id`` is replayed).

Sessions: at most ``LIVE_LOOP_SESSIONS`` per event loop, opened on first use with the connection parameters and
adapters of Django's own (``DATABASES``: its timeouts and bounds included), kept while they work. After a session
fails to open, none is tried for ``RETRY_AFTER_FAILURE_S``: with the database gone, the presses go to the threads,
whose pool answers within its bound (``DB_POOL_FAIL_FAST_MS``), and never wait twice.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import weakref
from collections.abc import Callable

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from .known import forget, recall
from .trips import Deferred, deferring, stored

logger = logging.getLogger(__name__)

RETRY_AFTER_FAILURE_S = 1.0
"""After a session failed to open, the presses go to the threads this long before another is tried."""


class LostInFlight(Exception):
    """The session was lost while the statement was in flight: it may have committed."""


class _Sessions:
    """The asynchronous sessions of one event loop: idle ones, how many are open, when one last failed to open."""

    def __init__(self) -> None:
        self.idle: list[psycopg.AsyncConnection] = []
        self.open = 0
        self.failed_at = float("-inf")
        self.prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


_loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Event loop -> its :class:`_Sessions` (an asynchronous session belongs to the loop that opened it)."""


def _after_fork() -> None:
    _loops.clear()  # a child's loops are its own; its parent's sessions are not


os.register_at_fork(after_in_child=_after_fork)


def enabled() -> bool:
    """Whether presses may be made on the event loop: PostgreSQL, ``LIVE_LOOP_SESSIONS`` and ``LIVE_KNOWN_GAMES``."""
    return (settings.LIVE_LOOP_SESSIONS > 0 and settings.LIVE_KNOWN_GAMES > 0
            and connections[DEFAULT_DB_ALIAS].vendor == "postgresql")


def _connect_params() -> dict:
    """Django's connection parameters for the default database (its OPTIONS, timeouts, adapters), for a session of
    the loop's own: the pool's options dropped, the client-side binding kept (several statements in one query)."""
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    params.pop("pool", None)
    params["cursor_factory"] = psycopg.AsyncClientCursor
    params["autocommit"] = True  # the statement carries its own BEGIN and COMMIT, as a trip does
    return params


async def _take(sessions: _Sessions) -> psycopg.AsyncConnection | None:
    """An idle session of this loop, or a new one while fewer than ``LIVE_LOOP_SESSIONS`` are open; None if none."""
    while sessions.idle:
        session = sessions.idle.pop()
        if not session.closed:
            return session
        sessions.open -= 1
    if sessions.open >= settings.LIVE_LOOP_SESSIONS:
        return None
    if time.monotonic() - sessions.failed_at < RETRY_AFTER_FAILURE_S:
        return None
    sessions.open += 1
    try:
        return await psycopg.AsyncConnection.connect(**_connect_params())
    except Exception as error:  # noqa: BLE001 - the threads' path answers, with its own bounds
        sessions.open -= 1
        sessions.failed_at = time.monotonic()
        logger.warning("live presses on the event loop: no session (%s); on the database threads meanwhile",
                       (str(error).strip().splitlines() or [type(error).__name__])[0])
        return None


async def _give_back(sessions: _Sessions, session: psycopg.AsyncConnection) -> None:
    if session.closed or session.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        sessions.open -= 1
        try:
            await session.close()
        except Exception:  # noqa: BLE001, S110 - a broken session is dropped whatever its close says
            pass
        return
    sessions.idle.append(session)


async def _send(sessions: _Sessions, session: psycopg.AsyncConnection, deferred: Deferred) -> tuple[list, list]:
    """Send the deferred statements between BEGIN and COMMIT in one query; the store's rows and the added events.

    :raises LostInFlight: the session was lost meanwhile. Any other error: PostgreSQL refused a statement, the
    transaction is rolled back (nothing was written)."""
    prepared = sessions.prepared.setdefault(session, set())
    texts, params = [], []
    for statement, values in deferred.statements:
        texts.append(statement.sent_in(prepared))
        params += values
    query = f"BEGIN; {'; '.join(texts)}; COMMIT"
    try:
        async with session.cursor() as cursor:
            await cursor.execute(query, params)
            results = []
            while True:
                if cursor.description is not None:
                    results.append(await cursor.fetchall())
                if not cursor.nextset():
                    break
    except Exception:
        if session.closed or session.broken:
            raise LostInFlight() from None
        await session.rollback()  # a failed statement skipped the COMMIT; nothing of the transaction stays
        raise
    prepared.update(statement.name for statement, _values in deferred.statements)
    written, added = results
    return written, added


async def press_on_loop(game_id: int, compute: Callable[[], dict], lost: Callable[[], dict]) -> dict | None:
    """The answer to a press in game ``game_id`` computed by ``compute()`` (the socket's press, returning the answer),
    made here in one round trip when it can be; None when the caller must make it on a database thread (see the
    module's docstring). ``lost()``: the answer when the session was lost with the statement in flight (503)."""
    if not enabled() or recall(game_id) is None:
        return None
    with deferring() as deferred:
        try:
            answer = compute()
        except Exception:  # noqa: BLE001 - a query refused on the loop, or any other error: the thread's path
            logger.debug("live press of game %s made on a thread", game_id, exc_info=True)
            return None
    if not deferred.statements or deferred.game_id != game_id or answer.get("status") != 201:
        logger.debug("live press of game %s refused on what was known (%s): made on a thread", game_id,
                     answer.get("status"))
        return None  # refused on what was known, or made without the rows known: judged under the lock
    sessions = _loops.setdefault(asyncio.get_running_loop(), _Sessions())
    session = await _take(sessions)
    if session is None:
        return None
    try:
        written, added = await _send(sessions, session, deferred)
    except LostInFlight:
        forget(game_id)
        logger.warning("live press of game %s: the session was lost with the statement in flight", game_id)
        return lost()
    except Exception as error:  # noqa: BLE001 - refused by PostgreSQL, rolled back: the thread's path
        forget(game_id)
        logger.info("live press of game %s on the loop refused by the database (%s); made on a thread", game_id,
                    type(error).__name__)
        return None
    finally:
        await _give_back(sessions, session)
    return answer if stored(deferred, written, added) else None
