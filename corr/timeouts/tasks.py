"""Celery tasks of server games' flags: thin wrappers that read the server's clock and call one service (STYLE 6)."""

from __future__ import annotations

from datetime import UTC, datetime

from celery import shared_task

from corr.live import timesource


def server_now() -> datetime:
    """The server's instant from the project's time source (``corr.live.timesource``; tests inject theirs)."""
    return datetime.fromtimestamp(timesource.now_ms() / 1000, tz=UTC)


@shared_task(name="corr.server_flag_check", ignore_result=True)
def server_flag_check(game_id: int, version: int) -> bool:
    """The check queued at a flag's instant (``eta``); a stale version does nothing."""
    from .services import flag_record

    return flag_record(game_id=game_id, version=version, now=server_now())


@shared_task(name="corr.server_flag_sweep", ignore_result=True)
def server_flag_sweep() -> dict:
    """The periodic backstop (beat, every ``SERVER_FLAG_SWEEP_SECONDS``)."""
    from .sweep import flags_sweep

    return flags_sweep(now=server_now())
