"""The next check of a live game, announced by the writes below and kept by the timers above (issue 27).

The writes (:mod:`corr.live.write`) know the instant a flag or a late arrival falls due; the timers
that check the game then (this process's beat thread, Celery's queued check: :mod:`corr.live.schedule`)
call the writes' services, so they sit above them. The writes announce the instant with a Django
signal that :mod:`corr.live.schedule` connects to when the app is ready (``CorrConfig.ready``): the
imports go one way, and nothing is scheduled in a process that has no timer connected.
"""

from __future__ import annotations

from django.dispatch import Signal

check_due = Signal()
"""Sent after commit with ``game_id``, ``version`` and ``at_ms``: check the game as of that version then."""


def announce(*, game_id: int, version: int, at_ms: int) -> None:
    """Tell the timers that game ``game_id`` (as of ``version``) is due a check at ``at_ms``; never raises
    (a receiver that fails is logged by Django; the sweep is the backstop)."""
    check_due.send_robust(sender=None, game_id=game_id, version=version, at_ms=at_ms)
