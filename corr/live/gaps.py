"""Restart fairness: time that ran while the service itself was down is no one's (a ``LiveGap`` event).

The sweep beats every ``LIVE_SWEEP_SECONDS`` (``LiveHeartbeat``). A silence longer
than ``LIVE_GAP_MS`` means nothing could have flagged or moved a game: the service
(web, worker or beat) was down. Whoever notices it first (the sweep, a scheduled
check, a request) gives every running live game a gap from the later of the last
beat and the game's last event to now, before any flag is judged, so a clock that
ran out during the outage does not fall. Without any beat yet (a fresh database)
there is nothing to compare with and nothing is recorded.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from corr.models import LIVE_CLOCK_KINDS, GameStatus, LiveEventKind, LiveGame, LiveHeartbeat

HEARTBEAT = "sweep"


def heartbeat_beat(*, now_ms: int) -> None:
    """The sweep ran at ``now_ms`` (never moves the beat back)."""
    updated = LiveHeartbeat.objects.filter(name=HEARTBEAT, beat_ms__lt=now_ms).update(beat_ms=now_ms)
    if not updated and not LiveHeartbeat.objects.filter(name=HEARTBEAT).exists():
        LiveHeartbeat.objects.get_or_create(name=HEARTBEAT, defaults={"beat_ms": now_ms})


def gaps_record_if_down(*, now_ms: int) -> int:
    """Record a gap in every running live game if the last beat is older than ``LIVE_GAP_MS``; returns how many.

    One query when the service was up. The beat is claimed with a conditional update (STYLE 7): of two
    processes noticing the same silence, only the one whose update won records the gaps.
    """
    beat = LiveHeartbeat.objects.filter(name=HEARTBEAT).values_list("beat_ms", flat=True).first()
    if beat is None or now_ms - beat <= settings.LIVE_GAP_MS:
        return 0
    from .services import finish_write, live_lock, append
    from .state import clock_at

    with transaction.atomic():
        if not LiveHeartbeat.objects.filter(name=HEARTBEAT, beat_ms=beat).update(beat_ms=now_ms):
            return 0  # another process claimed this silence
        ids = list(running_game_ids(now_ms))
        count = 0
        for game_id in ids:
            game, live, rows = live_lock(game_id)
            clock = clock_at(game, live, rows, now_ms)
            if game.status != GameStatus.ONGOING or clock.paused or clock.running is None:
                continue
            last = max((r.at_ms for r in rows if r.kind in LIVE_CLOCK_KINDS), default=live.starts_at_ms)
            start = max(beat, last, live.starts_at_ms)
            if start >= now_ms:
                continue
            append(game, rows, LiveEventKind.GAP, now_ms, from_ms=start,
                   reason=f"the service was down (no heartbeat for {(now_ms - beat) / 1000:.1f} s)")
            finish_write(game, live, rows, now_ms)
            count += 1
        return count


def running_game_ids(now_ms: int):
    """Ids of the ongoing live games that have started, in id order (the order every writer locks in)."""
    return (LiveGame.objects.filter(game__status=GameStatus.ONGOING, starts_at_ms__lt=now_ms, ended_at_ms__isnull=True)
            .order_by("game_id").values_list("game_id", flat=True))
