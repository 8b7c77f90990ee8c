"""The quiet period: per player, the first e-mail goes at once, what follows within it is gathered into one.

``NOTIFY_QUIET_SECONDS`` after a player's last e-mail, the notices held meanwhile go in one e-mail (the
digest) that lists every game that still needs them: the notices held, and the games they were told of at
once in the same period on which they are still on move. Thirty partners moving within a minute make two
e-mails: the first move's, and one listing the thirty. A player who chose the daily digest gets everything
(but flag warnings) in one e-mail at ``NOTIFY_DAILY_HOUR`` in their zone.

Each player's ``Pace`` row is locked while their notices are decided, so that notices arriving at once
(several workers) agree on which goes at once and which waits; the digest is due at ``Pace.due_at``,
queued with an ``eta`` and found by the sweep if that message is lost. Its outbox key is the player's and
the due instant's: a digest sent twice (a killed worker) is stored once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import transaction

from corr.models import GameStatus, PlayerClock
from corr.outbox import email_prepare, emails_store

from .compose import digest_intro, digest_subject, footer, in_language
from .kinds import Kind
from .models import Notice, NoticeState, Pace
from .preferences import choices_of
from .unsubscribe import list_headers

log = logging.getLogger(__name__)

DIGEST_TASK = "corr.notify_digest"


def quiet_period() -> timedelta:
    return timedelta(seconds=settings.NOTIFY_QUIET_SECONDS)


def daily_due(user, now: datetime) -> datetime:
    """The next ``NOTIFY_DAILY_HOUR`` o'clock in ``user``'s zone (their ``time_zone``, else ``TIME_ZONE``)."""
    try:
        zone = ZoneInfo(getattr(user, "time_zone", "") or settings.TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo(settings.TIME_ZONE)
    local = now.astimezone(zone)
    due = local.replace(hour=settings.NOTIFY_DAILY_HOUR, minute=0, second=0, microsecond=0)
    if due <= local:
        due = (due + timedelta(days=1)).replace(hour=settings.NOTIFY_DAILY_HOUR)  # a new wall-clock day
    return due.astimezone(ZoneInfo("UTC"))


def _pace_locked(user_id: int) -> Pace:
    Pace.objects.bulk_create([Pace(user_id=user_id)], ignore_conflicts=True)
    return Pace.objects.select_for_update().get(user_id=user_id)


def _email(user, notices: list[Notice], *, key: str, subject: str, body: str):
    kinds = sorted({n.kind for n in notices})
    with in_language(user):
        text = body + "\n" + footer(user_id=user.pk, kinds=kinds)
    return email_prepare(key=key, tournament_id=None, recipients=[user.email] if user.email else [],
                         subject=subject, body=text, headers=list_headers(user_id=user.pk, kinds=kinds))


@transaction.atomic
def notices_deliver(*, user, notice_ids: list[int], now: datetime) -> str:
    """Send the pending notices ``notice_ids`` of ``user`` at once, or hold them for the digest.

    :returns: ``"sent"`` (one e-mail each, now), ``"held"`` (a digest is due) or ``"none"`` (nothing pending).
    """
    pace = _pace_locked(user.pk)
    notices = list(Notice.objects.filter(pk__in=notice_ids, state=NoticeState.PENDING).order_by("pk"))
    if not notices:
        return "none"
    if choices_of(user.pk).daily:
        _due(pace, daily_due(user, now))
        return "held"
    # No quiet period (0): each notice at once. Otherwise held while one runs; two workers' clocks may
    # disagree by a little, so a notice stamped before the last e-mail is held too.
    quiet = quiet_period()
    if quiet and (pace.due_at is not None or (pace.last_sent_at is not None and now < pace.last_sent_at + quiet)):
        _due(pace, pace.due_at or pace.last_sent_at + quiet)
        return "held"
    emails = [_email(user, [n], key=f"notice:{n.pk}", subject=n.subject, body=n.text) for n in notices]
    emails_store(emails, enqueue=True)
    for notice, email in zip(notices, emails, strict=True):
        notice.state, notice.email_key = NoticeState.SENT, email.key
    Notice.objects.bulk_update(notices, ["state", "email_key"])
    pace.last_sent_at = now
    pace.save(update_fields=["last_sent_at"])
    return "sent"


def notice_send_alone(*, user, notice: Notice) -> None:
    """Send one notice at once whatever the pace (a flag warning: its instant is the point)."""
    email = _email(user, [notice], key=f"notice:{notice.pk}", subject=notice.subject, body=notice.text)
    emails_store([email], enqueue=True)
    Notice.objects.filter(pk=notice.pk).update(state=NoticeState.SENT, email_key=email.key)


def _due(pace: Pace, due: datetime) -> None:
    """Make the digest due at ``due`` (or earlier, if it already is) and queue it after commit."""
    if pace.due_at is not None and pace.due_at <= due:
        return
    pace.due_at = due
    pace.save(update_fields=["due_at"])
    user_id = pace.user_id
    transaction.on_commit(lambda: digest_queue(user_id=user_id, at=due))


def digest_queue(*, user_id: int, at: datetime) -> None:
    """The digest task at ``at`` (Celery ``eta``; an in-process timer when tasks are eager); the sweep is the
    backstop for a message lost."""
    from corr.celery import app
    from corr.handoff import handoff
    from corr.live import timesource

    if app.conf.task_always_eager:
        if settings.NOTIFY_INPROCESS != "off":  # the embedded run's stand-in for eta (the tests call it)
            timesource.call_at(int(at.timestamp() * 1000), lambda: _run_eagerly(user_id))
        return
    handoff(f"digest of user {user_id}",
            lambda: app.send_task(DIGEST_TASK, args=(user_id,), eta=at, retry=False, ignore_result=True))


def _run_eagerly(user_id: int) -> None:
    from django.db import close_old_connections

    from corr.celery import app

    try:
        app.tasks[DIGEST_TASK].apply(args=(user_id,))
    except Exception:  # noqa: BLE001 - a timer thread has no one to tell; the sweep retries
        log.exception("in-process digest of user %s failed", user_id)
    finally:
        close_old_connections()


def _still_needed(notices: list[Notice]) -> list[Notice]:
    """What a gathered e-mail still has to say: one notice per game and kind (the latest), without

    - the "your move" ones whose player is no longer on move (they moved, or the game ended);
    - a game's start once the recipient has moved in it (its text said "your move 1", written at the start), or
      beside a later notice of the same game, which says the game's state as of now: a digest listed a game
      twice, its start then "anna played 1: e4" (the e-mail walk of 2026-12-06).
    """
    latest: dict[tuple, Notice] = {}
    for notice in sorted(notices, key=lambda n: n.pk):
        latest[(notice.game_id, notice.kind)] = notice
    moves = [n for n in latest.values() if n.kind == Kind.YOUR_MOVE]
    on_move = set(PlayerClock.objects.filter(game_id__in={n.game_id for n in moves}, on_move=True,
                                             game__status=GameStatus.ONGOING).values_list("game_id", "player"))
    starts = [n for n in latest.values() if n.kind == Kind.GAME_START]
    moved = set(PlayerClock.objects.filter(game_id__in={n.game_id for n in starts}, made__gt=0)
                .values_list("game_id", "player"))
    kept = [n for n in latest.values() if n.kind != Kind.GAME_START
            and (n.kind != Kind.YOUR_MOVE or (n.game_id, n.colour) in on_move)]
    told_later = {n.game_id for n in kept}
    kept += [n for n in starts if n.game_id not in told_later and (n.game_id, n.colour) not in moved]
    return sorted(kept, key=lambda n: n.pk)


@transaction.atomic
def digest_send(*, user, now: datetime) -> int:
    """The gathered e-mail of ``user``, if due by ``now``: every game that needs them, in one e-mail.

    :returns: how many notices it lists (0: not due, or nothing left to say).
    """
    pace = _pace_locked(user.pk)
    if pace.due_at is None or pace.due_at > now:
        return 0
    pending = list(Notice.objects.filter(user_id=user.pk, state=NoticeState.PENDING))
    told = []
    if pace.last_sent_at is not None:  # the games told of at once in this period, still on move: listed again
        told = list(Notice.objects.filter(user_id=user.pk, state=NoticeState.SENT, kind=Kind.YOUR_MOVE,
                                          created_at__gte=pace.last_sent_at - quiet_period()))
    items = _still_needed(pending + told)
    key = f"digest:{user.pk}:{pace.due_at:%Y%m%dT%H%M%S}"
    if items:
        with in_language(user):
            subject = items[0].subject if len(items) == 1 else digest_subject(len({n.game_id for n in items}))
            body = items[0].text if len(items) == 1 else digest_intro() + "\n\n" + "\n\n".join(
                n.text for n in items)
        emails_store([_email(user, items, key=key, subject=subject, body=body)], enqueue=True)
        pace.last_sent_at = now
    Notice.objects.filter(pk__in=[n.pk for n in pending]).update(state=NoticeState.SENT,
                                                                 email_key=key if items else "")
    pace.due_at = None
    pace.save(update_fields=["last_sent_at", "due_at"])
    return len(items)


def digests_due(*, now: datetime, limit: int = 500) -> list[int]:
    """The players whose digest is due (the sweep's backstop for a lost ``eta`` message)."""
    return list(Pace.objects.filter(due_at__lte=now).order_by("due_at").values_list("user_id", flat=True)[:limit])
