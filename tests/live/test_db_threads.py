"""The sockets' database threads (corr/dbthreads.py): each keeps its session from one call to the next, and gives
it back once it is no longer usable (issue 42: a session lent and given back for every press was a third of the
press's CPU on its thread). Read from PostgreSQL itself: the backend each call ran on."""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict

import pytest
from django.db import OperationalError, connection

from corr import dbthreads
from corr.dbthreads import in_db_thread

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql", reason="a backend's pid is PostgreSQL's")]


SEEN: list[tuple[int, int]] = []
"""(thread, backend) of every call, recorded before anything else is done with the session."""


def backend(end_it: bool = False) -> tuple[int, int]:
    """(this thread, the backend of its session); ``end_it``: the backend is ended under the call (an operator's
    ``pg_terminate_backend``, a restart), which fails it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        SEEN.append((threading.get_ident(), cursor.fetchone()[0]))
        if end_it:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    return SEEN[-1]


def calls(count: int, *, end_at: int | None = None) -> list:
    SEEN.clear()

    async def run():
        answers = []
        for n in range(count):
            try:
                answers.append(await in_db_thread(backend)(end_it=n == end_at))
            except OperationalError as error:
                answers.append(error)
        return answers

    return asyncio.run(run())


def test_a_thread_keeps_its_session_between_calls():
    backends = defaultdict(set)
    for thread, pid in calls(30):
        backends[thread].add(pid)
    assert backends and all(len(pids) == 1 for pids in backends.values()), backends


def opened_before() -> bool:
    """Whether this thread's connection was open when the call began (kept from its last call); it is used after."""
    was_open = connection.connection is not None
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return was_open


def test_with_no_more_sessions_than_threads_each_call_gives_its_session_back(settings):
    # The pool's sessions are all the HTTP requests have: threads keeping them would leave none (503 for every
    # request, tests/service/test_asgi_connections.py).
    settings.DB_POOL_MAX_SIZE = settings.SOCKET_DB_THREADS
    dbthreads.release_sessions()  # what earlier tests left kept

    async def run():
        return [await in_db_thread(opened_before)() for _ in range(12)]

    assert asyncio.run(run()) == [False] * 12
    settings.DB_POOL_MAX_SIZE = settings.SOCKET_DB_THREADS + 1
    kept = asyncio.run(run())
    assert sum(kept) >= len(kept) - settings.SOCKET_DB_THREADS, kept  # all but each thread's first call


def test_a_session_that_failed_is_given_back_and_the_threads_next_calls_have_another():
    answers = calls(40, end_at=10)
    assert [n for n, answer in enumerate(answers) if isinstance(answer, Exception)] == [10]
    thread, ended = SEEN[10]
    after = {pid for each, pid in SEEN[11:] if each == thread}
    assert after and ended not in after  # the thread's next calls ran on another session
