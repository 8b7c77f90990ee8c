"""The periodic backstop: every ``SERVER_FLAG_SWEEP_SECONDS``, record the server games' flags that have fallen.

It finds the flags whose queued check was lost (Redis dropped the message, the
worker restarted, the embedded run's process died). Selected by the indexed
``PlayerClock.flag_at`` in bounded batches, soonest first; running it twice
records nothing twice (``flag_record`` settles under the row lock).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from corr.models import GameStatus, PlayerClock

from .services import flag_record


def flags_sweep(*, now: datetime) -> dict:
    """Record the flags fallen by ``now`` (aware); returns ``{"checked", "recorded"}``."""
    due = list(PlayerClock.objects.filter(flag_at__lte=now, game__status=GameStatus.ONGOING)
               .order_by("flag_at").values_list("game_id", flat=True)[:settings.SERVER_FLAG_SWEEP_BATCH])
    games = list(dict.fromkeys(due))
    recorded = sum(1 for game_id in games if flag_record(game_id=game_id, now=now))
    return {"checked": len(games), "recorded": recorded}
