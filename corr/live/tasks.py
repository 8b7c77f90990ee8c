"""Celery tasks of live games: thin wrappers that read the server's clock and call one service (STYLE 6)."""

from __future__ import annotations

from celery import shared_task

from . import timesource
from .services import live_check
from .sweep import live_sweep


@shared_task(name="corr.live_flag_check", ignore_result=True)
def live_flag_check(game_id: int, version: int) -> bool:
    """The scheduled check at a flag's instant (queued with ``eta``); a stale version does nothing."""
    return live_check(game_id=game_id, version=version, now_ms=timesource.now_ms())


@shared_task(name="corr.live_sweep", ignore_result=True)
def live_sweep_task() -> dict:
    """The periodic backstop (beat, every ``LIVE_SWEEP_SECONDS``)."""
    return live_sweep(now_ms=timesource.now_ms())
