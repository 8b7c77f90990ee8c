"""After-commit notices of a change to a game, queued by name for the notifications (``corr.notify``, issue 38).

The services that change a game call :func:`notice_on_commit`; it queues the task ``corr.notify_event`` with
ids only, once the transaction commits, and the task reads what it needs itself. This layer knows the task's
name, not its module (STYLE 15: the notifications are above the services, which never import them). Nothing
here reads or writes the database: a move's transaction pays no statement for its notice (issue 13).

A notice whose message cannot be published (Redis down) is dropped and logged, as a live push is
(``corr.handoff``): the page and the calendar feed still say whose move it is.
"""

from __future__ import annotations

import importlib
import logging
import threading
from enum import Enum

from django.conf import settings
from django.db import close_old_connections, transaction

from corr.handoff import handoff

log = logging.getLogger(__name__)

NOTIFY_TASK = "corr.notify_event"
"""``corr.notify.tasks.notify_event(kind, game_id, version, colour[, seq])``."""


class Change(str, Enum):
    """What happened to a game, as the notifications are told it (``colour``: who did it, "" for no player)."""

    MOVE = "move"
    """``colour`` moved (by hand, or a conditional line of theirs replied: the task reads which)."""
    START = "start"
    """The game was created; its first player is on move."""
    DRAW_OFFER = "draw_offer"
    """``colour`` offered a draw."""
    DRAW_ACCEPT = "draw_accept"
    """``colour`` accepted the partner's offer: the game is drawn."""
    DRAW_DECLINE = "draw_decline"
    """``colour`` declined the partner's offer."""
    RESIGN = "resign"
    """``colour`` resigned."""
    RESULT = "result"
    """An arbiter recorded a result."""
    REOPEN = "reopen"
    """An arbiter reopened the finished game."""
    LEAVE = "leave"
    """``colour`` booked leave (the task reads the leave, ``version`` is its id)."""
    LONG_MOVE = "long_move"
    """``colour`` gave the "Use 40+ days" notice for the move they are on (ICCF Playing Rules 3b)."""


def notice_on_commit(change: Change, *, game_id: int, version: int, colour: str = "", trip=None,
                     seq: int | None = None) -> None:
    """Queue ``change`` of game ``game_id`` (its ``events_version`` after the change) once the transaction commits.

    ``seq``: the event the change stored (a move's row), so that the task words that move, not a later one.

    ``trip``: the move's one-round-trip transaction (``trips.trip``), when it runs in one; its callbacks
    run after its COMMIT. Otherwise Django's ``on_commit`` (never run if the transaction rolls back).
    """
    def queue() -> None:
        notice_queue(change.value, game_id, version, colour, seq)

    if trip is not None:
        trip.on_commit(queue)
    else:
        transaction.on_commit(queue)


def _run_eagerly(args: tuple, own_thread: bool = False) -> None:
    from corr.celery import app

    try:
        if NOTIFY_TASK not in app.tasks:
            importlib.import_module("corr.notify.tasks")  # by name: nothing below imports the notifications
        app.tasks[NOTIFY_TASK].apply(args=args)
    except Exception:  # noqa: BLE001 - a notice never fails the change it follows
        log.exception("notice %s of game %s failed", args[0], args[1])
    finally:
        if own_thread:
            close_old_connections()


def notice_queue(kind: str, game_id: int, version: int, colour: str, seq: int | None = None) -> None:
    """Publish the task (on the handoff thread: no request waits on Redis); run it here when tasks are eager."""
    from corr.celery import app

    # ``seq`` only when there is one: a worker of the version before it takes the four arguments it knows.
    args = (kind, game_id, version, colour) + (() if seq is None else (seq,))
    if app.conf.task_always_eager:
        # The embedded run (no Redis): on a thread of its own, so that no request waits on the notice's reads
        # (a move's answer is its two statements, issue 13). ``NOTIFY_INPROCESS``: "thread", "inline" (the
        # tests that read the e-mail in the test's transaction), "off" (the rest of the suite).
        mode = settings.NOTIFY_INPROCESS
        if mode == "inline":
            _run_eagerly(args)
        elif mode == "thread":
            threading.Thread(target=_run_eagerly, args=(args, True), name="corr-notice", daemon=True).start()
        return
    handoff(f"notice {kind} of game {game_id}",
            lambda: app.send_task(NOTIFY_TASK, args=args, retry=False, ignore_result=True))
