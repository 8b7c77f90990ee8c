"""The periodic check of the live games whose next instant has passed: Celery's sweep and the beat's.

Celery beat runs it every ``LIVE_SWEEP_SECONDS`` on a worker: it finds the flags whose scheduled
check was lost (Redis dropped the message, the worker restarted), judged only up to the last beat of
a process that takes moves (``corr.live.gaps``). The beat thread of each web process runs it too,
as a process that takes moves (``taking_moves``), after beating: then flags fall within one beat of
their instant even while Redis, the worker or beat are down. Selected by the indexed
``LiveGame.next_check_at_ms``, in bounded batches; running it twice records nothing twice.
"""

from __future__ import annotations

from django.conf import settings

from corr.models import GameStatus, LiveGame

from .services import live_check


def live_sweep(*, now_ms: int, taking_moves: bool = False) -> dict:
    """Record the flags due by ``now_ms``; returns ``{"checked", "recorded"}``."""
    due = list(LiveGame.objects.filter(next_check_at_ms__lte=now_ms, game__status=GameStatus.ONGOING)
               .order_by("next_check_at_ms").values_list("game_id", flat=True)[:settings.LIVE_SWEEP_BATCH])
    recorded = sum(1 for game_id in due if live_check(game_id=game_id, now_ms=now_ms, taking_moves=taking_moves))
    return {"checked": len(due), "recorded": recorded}
