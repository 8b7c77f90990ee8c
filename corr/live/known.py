"""What this process knows of a live game's rows, so that a press can skip the locking read (issue 42).

A press was two round trips to PostgreSQL: the locking read of the game (its tournament, its live row, the window
of its events), then the store with COMMIT. Between two presses of a game whose sockets are on one process, the
rows it reads are the ones that process's last write left. Each write (:func:`corr.live.trips.store`) and each
read of a game's state (:func:`corr.live.trips.read_game`) therefore leaves here the rows as PostgreSQL returned
them, with each row's version as PostgreSQL keeps it: ``xmin``, the transaction that wrote the row version read,
which every change of a row replaces, by whichever process or program made it.

A press then computes on what is known (:class:`Known`) and stores with one statement whose every part is
conditional on nothing having changed since: the game and its tournament rows still of the versions known, the
game row locked, no event after the last known, the live row still of its version
(:func:`corr.live.trips.store`). One round trip, BEGIN and COMMIT riding with it. When anything changed, the
statement writes nothing and the press is made again on the locking path, which judges it on the rows as they are
now. So what is known may be old, or wrong, or gone (another process wrote, an arbiter, a rollback), without ever
deciding an answer: it only saves the read when it is right.

Nothing here queries the database. Per process (a forked child starts empty) and bounded
(``LIVE_KNOWN_GAMES`` games, the least recently used forgotten first); 0 turns it off.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import NamedTuple

from django.conf import settings

from corr.models import LiveEventKind


class Known(NamedTuple):
    """A game's rows as PostgreSQL last returned them to this process."""

    values: tuple
    """The row in the locking read's shape (the game's, the tournament's, the live row's columns) as the database
    sent it, by a read or by a write's own statement, without the stamps. Every value is immutable (no array field;
    JSON comes as its text, parsed for each instance): instances made from it share nothing."""
    stamps: tuple[str, str, str]
    """``xmin`` of the game, tournament and live rows those values are of."""
    rows: tuple
    """The window of events (``corr.live.trips.LiveRow``, in sequence) the locking read would return."""
    from_seq: int
    """The window holds every event from this seq on (the live row's ``snapshot_seq``)."""

    @property
    def last_seq(self) -> int:
        return self.rows[-1].seq if self.rows else 0


_games: OrderedDict[int, Known] = OrderedDict()
_lock = threading.Lock()


def _after_fork() -> None:
    # A child's first write must not trust its parent's rows; and a lock another thread of the parent held at the
    # fork would never be released in the child.
    global _lock
    _lock = threading.Lock()
    _games.clear()


os.register_at_fork(after_in_child=_after_fork)


def remember(game_id: int, known: Known) -> None:
    """Keep ``known`` as game ``game_id``'s rows (the most recently used)."""
    bound = settings.LIVE_KNOWN_GAMES
    if bound <= 0:
        return
    with _lock:
        _games[game_id] = known
        _games.move_to_end(game_id)
        while len(_games) > bound:
            _games.popitem(last=False)


def recall(game_id: int) -> Known | None:
    """Game ``game_id``'s rows as last returned to this process, or None."""
    if settings.LIVE_KNOWN_GAMES <= 0:
        return None
    with _lock:
        known = _games.get(game_id)
        if known is not None:
            _games.move_to_end(game_id)
        return known


def forget(game_id: int | None = None) -> None:
    """Forget game ``game_id`` (every game when None)."""
    with _lock:
        if game_id is None:
            _games.clear()
        else:
            _games.pop(game_id, None)


def window(rows, from_seq: int) -> tuple:
    """The window the locking read returns (``corr.live.trips.Window``) out of ``rows``, which must hold every event
    from ``from_seq`` on and every event that is not a move: those from ``from_seq`` on, every event that is not a
    move, and the last move."""
    last_move = max((r.seq for r in rows if r.kind == LiveEventKind.MOVE), default=None)
    return tuple(r for r in rows if r.seq >= from_seq or r.kind != LiveEventKind.MOVE or r.seq == last_move)
