"""Restart fairness: time in which no process could take moves is no one's (a ``LiveGap`` event).

The beat (``LiveHeartbeat`` "moves") is written only by the processes that take moves: each web
process's beat thread every ``LIVE_BEAT_SECONDS`` (:mod:`corr.live.beat`) and the live requests
themselves (at most once a second). Redis, Celery's worker and beat have no part in it, so a Redis
outage, which stops the scheduled checks and the sweep but not the moves, gives nothing back.

- A silence of the beat longer than ``LIVE_GAP_MS`` means no process could take a move: whoever
  takes moves first after it (the beat thread of a restarted server, a request) gives every running
  live game a gap from the later of the last beat and the game's last event to now, before any flag
  is judged, so a clock that ran out during the outage does not fall. A shorter silence (a restart
  within the threshold) is charged as usual.
- The checks made elsewhere (Celery's scheduled checks and sweep) judge a game only up to the last
  beat (:func:`seen_up_to_ms`): a flag that fell after it waits for the next beat, and if that never
  comes before the gap threshold, the gap gives the time back. So no flag is recorded for an instant
  at which the service was down.

- The same silence is given back in the correspondence server games counted in instants (issue 39,
  :func:`corr.games.services.outages.outage_credit`): in the transaction that claims it, the player on move
  in each is credited the part of it within their turn. Their flags, like the live ones, are recorded only
  up to the last beat (:func:`flag_waits`, read by :mod:`corr.timeouts.services`): a flag that fell during
  the silence waits, and sees the credit first.

With the beat off (``LIVE_BEAT_SECONDS=0``) or before the first beat (a fresh database) there is
nothing to compare with: no gap is recorded and checks judge up to now.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from django.conf import settings
from django.db import transaction

from corr.games.records import record_text
from corr.games.services.outages import outage_credit
from corr.models import LIVE_CLOCK_KINDS, GameStatus, LiveEventKind, LiveGame, LiveHeartbeat

from .state import clock_at
from .write import append, finish_write, live_lock

HEARTBEAT = "moves"
"""The beat's row: written by the processes that take moves, never by Celery."""
BEAT_EVERY_MS = 1000
"""A request beats at most this often (the beat thread beats every ``LIVE_BEAT_SECONDS``)."""


def heartbeat_on() -> bool:
    return settings.LIVE_BEAT_SECONDS > 0


def seen_up_to_ms() -> int | None:
    """The last instant a process that takes moves was seen up; None when the beat is off or never beat."""
    if not heartbeat_on():
        return None
    return LiveHeartbeat.objects.filter(name=HEARTBEAT).values_list("beat_ms", flat=True).first()


def beat(*, now_ms: int, every_ms: int = 0) -> int:
    """A process that takes moves is up at ``now_ms``: record the gaps of a silence first, then beat.

    ``every_ms``: beat only if the last beat is at least this old (requests: ``BEAT_EVERY_MS``).
    Returns how many games got the silence back (live gaps, server games' credits). One query when the service
    was up. The silence is claimed with
    a conditional update (STYLE 7): of two processes noticing it, only the one whose update won
    records the gaps. Never moves the beat back.
    """
    if not heartbeat_on():
        return 0
    seen = _seen.get(os.getpid())
    if every_ms and seen is not None and 0 <= now_ms - seen < every_ms:
        # This process saw a beat of at most every_ms ago: no silence can be pending, and the beat is fresh
        # enough; no query (issue 27: a press pays for no heartbeat read).
        return 0
    last = LiveHeartbeat.objects.filter(name=HEARTBEAT).values_list("beat_ms", flat=True).first()
    if last is None:
        LiveHeartbeat.objects.get_or_create(name=HEARTBEAT, defaults={"beat_ms": now_ms})
        return 0
    if now_ms - last > settings.LIVE_GAP_MS:
        return _gaps_record(last, now_ms)
    if now_ms - last >= every_ms:
        LiveHeartbeat.objects.filter(name=HEARTBEAT, beat_ms__lt=now_ms).update(beat_ms=now_ms)
        last = now_ms
    _seen.clear()
    _seen[os.getpid()] = last
    return 0


_seen: dict[int, int] = {}
"""This process's (by pid: a forked child has its own) latest beat seen or written, in ms: within ``every_ms`` of it
a request's beat asks the database nothing."""


def _gaps_record(beat_ms: int, now_ms: int) -> int:
    with transaction.atomic():
        if not LiveHeartbeat.objects.filter(name=HEARTBEAT, beat_ms=beat_ms).update(beat_ms=now_ms):
            return 0  # another process claimed this silence
        count = 0
        for game_id in list(running_game_ids(now_ms)):
            game, live, rows = live_lock(game_id)
            clock = clock_at(game, live, rows, now_ms)
            if game.status != GameStatus.ONGOING or clock.paused or clock.running is None:
                continue
            last = max((r.at_ms for r in rows if r.kind in LIVE_CLOCK_KINDS), default=live.starts_at_ms)
            start = max(beat_ms, last, live.starts_at_ms)
            if start >= now_ms:
                continue
            append(game, rows, LiveEventKind.GAP, now_ms, from_ms=start,
                   reason=record_text("livelog_down", seconds=f"{(now_ms - beat_ms) / 1000:.1f}"))
            finish_write(game, live, rows, now_ms)
            count += 1
        return count + outage_credit(start=instant(beat_ms), end=instant(now_ms))


def instant(ms: int) -> datetime:
    """An instant of the beat (ms since the epoch) as an aware UTC datetime."""
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def flag_waits(at: datetime) -> bool:
    """Whether a server game's flag that fell at ``at`` must wait for the next beat (issue 39): it fell after the
    last beat, so no process that takes moves was seen up since. False with the beat off or never beaten."""
    seen = seen_up_to_ms()
    return seen is not None and int(at.timestamp() * 1000) > seen


def beat_fresh(now: datetime) -> bool:
    """Whether the last beat is within ``LIVE_GAP_MS`` of ``now``: no outage is known to be going on."""
    seen = seen_up_to_ms()
    return seen is not None and int(now.timestamp() * 1000) - seen <= settings.LIVE_GAP_MS


def running_game_ids(now_ms: int):
    """Ids of the ongoing live games that have started, in id order (the order every writer locks in)."""
    return (LiveGame.objects.filter(game__status=GameStatus.ONGOING, starts_at_ms__lt=now_ms, ended_at_ms__isnull=True)
            .order_by("game_id").values_list("game_id", flat=True))
