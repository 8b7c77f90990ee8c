"""The in-process nightly job's e-mails, sent while the job checks its next chunks (``manage.py nightly``).

Under Celery each chunk's e-mails are queued when the chunk commits and a worker sends them while other chunks
are checked. The synchronous job did the same work in sequence: every chunk first, then every e-mail, its
marks waiting on PostgreSQL while no chunk was checked. :class:`ChunkSender` gives the synchronous job that
overlap in one process: the e-mails a chunk committed are claimed and sent on a thread of their own (its own
database session, the outbox's claim, lease and marks unchanged: at least once, none lost), while the job's
thread checks the next chunk.

Only where another session can see what a chunk committed and write beside it: on PostgreSQL, outside any
outer transaction (inside one, a chunk's e-mails are not committed when the chunk ends, and no other session
may claim them; SQLite takes one writer at a time, so a second one gains nothing). Elsewhere
:func:`chunk_sender` gives None and the job sends after its chunks, as before.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from typing import Iterator

from django.db import connection
from django.utils import timezone

from corr.outbox import emails_send_now


class ChunkSender:
    """Sends batches of stored e-mails, in the order given, on one thread with its own database session.

    ``now``: the claims' time when the caller fixes it (a test's injected clock); None: the time of each claim.
    """

    def __init__(self, now: datetime | None):
        self._now = now
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="corr-nightly-send")
        self._futures: list[Future] = []
        self.attempted: set[int] = set()
        """The ids this sender claimed or tried to claim: not sent again by the same run (``emails_send_due``).
        Written by the sender's one thread, read once :meth:`finish` has waited for it."""

    def submit(self, ids: list[int]) -> None:
        """Send the e-mails ``ids`` (committed) once the batches submitted before them are sent."""
        if ids:
            self._futures.append(self._pool.submit(self._send, list(ids)))

    def _send(self, ids: list[int]) -> None:
        self.attempted.update(ids)
        emails_send_now(ids=ids, now=self._now or timezone.now())

    def _close(self) -> None:
        connection.close()  # this thread's session, back to the pool (or closed)

    def finish(self) -> None:
        """Wait for every batch, close the thread's session; re-raise the first batch's error, if any."""
        self._futures.append(self._pool.submit(self._close))
        self._pool.shutdown(wait=True)
        for future in self._futures:
            future.result()


@contextmanager
def chunk_sender(now: datetime | None) -> Iterator[ChunkSender | None]:
    """A :class:`ChunkSender` for the job's block where one can run (module docstring), else None.

    On leaving the block every batch submitted has been sent (or has failed, which is re-raised unless the
    block itself raised: its error is the one that matters).
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield None
        return
    sender = ChunkSender(now)
    try:
        yield sender
    except BaseException:
        try:
            sender.finish()
        except Exception:  # noqa: BLE001 - the block's own error is raised
            pass
        raise
    sender.finish()
