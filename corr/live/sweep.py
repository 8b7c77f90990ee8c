"""The periodic backstop: every ``LIVE_SWEEP_SECONDS``, check the live games whose next instant has passed.

It finds the flags whose scheduled check was lost (Redis dropped the message,
the worker restarted, the timer's process died), and beats the heartbeat that
tells an outage from a quiet spell (``gaps``). Selected by the indexed
``LiveGame.next_check_at_ms``, in bounded batches; running it twice records nothing twice.
"""

from __future__ import annotations

from django.conf import settings

from corr.models import GameStatus, LiveGame

from .gaps import gaps_record_if_down, heartbeat_beat
from .services import live_check


def live_sweep(*, now_ms: int) -> dict:
    """Record the flags due by ``now_ms``; returns ``{"gaps", "checked", "recorded"}``."""
    gaps = gaps_record_if_down(now_ms=now_ms)
    heartbeat_beat(now_ms=now_ms)
    due = list(LiveGame.objects.filter(next_check_at_ms__lte=now_ms, game__status=GameStatus.ONGOING)
               .order_by("next_check_at_ms").values_list("game_id", flat=True)[:settings.LIVE_SWEEP_BATCH])
    recorded = sum(1 for game_id in due if live_check(game_id=game_id, now_ms=now_ms))
    return {"gaps": gaps, "checked": len(due), "recorded": recorded}
