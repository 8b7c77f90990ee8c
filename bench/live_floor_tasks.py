"""The live benchmark's floor: a task that does nothing but note how late its ``eta`` fired (bench only).

Loaded into the benchmark's worker with ``--include``; never part of the product (STYLE 16).
"""

from __future__ import annotations

import time

import redis
from celery import shared_task

KEY = "bench:live:lateness"


@shared_task(name="bench.eta_lateness", ignore_result=True)
def eta_lateness(redis_url: str, due_ms: int) -> None:
    """Push (now - due) in ms: the worker's own timer and broker delay, with no database work."""
    redis.Redis.from_url(redis_url).rpush(KEY, time.time_ns() // 1_000_000 - due_ms)
