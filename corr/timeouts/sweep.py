"""The periodic backstop: every ``SERVER_FLAG_SWEEP_SECONDS``, record the server games' flags that have fallen.

It finds the flags whose queued check was lost (Redis dropped the message, the
worker restarted, the embedded run's process died). Selected by the indexed
``PlayerClock.flag_at`` in bounded batches, soonest first; running it twice
records nothing twice (``flag_record`` settles under the row lock).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from corr.models import PlayerClock

from .services import flag_record


def flags_due(*, now: datetime):
    """The clocks whose flag has fallen by ``now``, soonest first, as game ids: through the ``flag_at`` index alone.

    No join: ``flag_at`` is stored only while the game is ongoing (``clock_fields``), and
    ``flag_record`` checks the game again under its lock.
    """
    return (PlayerClock.objects.filter(flag_at__lte=now).order_by("flag_at")
            .values_list("game_id", flat=True)[:settings.SERVER_FLAG_SWEEP_BATCH])


def flags_sweep(*, now: datetime) -> dict:
    """Record the flags fallen by ``now`` (aware); returns ``{"checked", "recorded"}``."""
    due = list(flags_due(now=now))
    games = list(dict.fromkeys(due))
    recorded = sum(1 for game_id in games if flag_record(game_id=game_id, now=now))
    return {"checked": len(games), "recorded": recorded}
