"""Outbound e-mail: stored first, sent after commit, retried with back-off, marked sent only when sent."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from corr.models import EmailStatus, OutboundEmail

log = logging.getLogger(__name__)

# A send claimed this long ago and never finished (a worker died mid-send) is due again.
STALE_CLAIM = timedelta(hours=1)


def email_prepare(*, key: str, tournament_id: int | None, recipients: list[str], subject: str,
                  body: str) -> OutboundEmail:
    """An unsaved e-mail; a message with no address is stored as failed, so that reports show it."""
    email = OutboundEmail(key=key, tournament_id=tournament_id, recipients=recipients, subject=subject, body=body)
    if not recipients:
        email.status = EmailStatus.FAILED
        email.last_error = "no e-mail address on file"
    return email


def emails_store(emails: list[OutboundEmail], *, enqueue: bool) -> None:
    """Save e-mails (an existing key is kept, not doubled) and, when ``enqueue``, queue them after commit."""
    if not emails:
        return
    OutboundEmail.objects.bulk_create(emails, ignore_conflicts=True)
    if enqueue:
        emails_enqueue_on_commit(list(OutboundEmail.objects.filter(
            key__in=[e.key for e in emails], status=EmailStatus.PENDING).values_list("id", flat=True)))


def emails_enqueue_on_commit(ids: list[int]) -> None:
    """Queue the sends once the transaction that stored the e-mails commits (HackSoft, STYLE 6)."""
    if ids:
        transaction.on_commit(lambda: emails_enqueue(ids))


def emails_enqueue(ids: list[int]) -> int:
    """Queue a send task per e-mail; what cannot be queued (broker down) stays pending for the next run.

    :returns: how many were queued.
    """
    from corr.tasks import email_send

    queued = 0
    for email_id in ids:
        try:
            email_send.apply_async(args=(email_id,), retry=False)
            queued += 1
        except Exception as error:  # noqa: BLE001 - any broker fault: keep the e-mail, say why
            log.warning("e-mail %s not queued (%s); the next nightly run sends it", email_id, error)
    return queued


def email_send_now(*, email_id: int, now: datetime) -> str:
    """Claim one e-mail and send it. Returns ``sent``, ``skipped`` (claimed elsewhere or done) or raises.

    The claim is a conditional UPDATE, so two workers never send one e-mail
    twice; a failure marks it ``failed`` with the error and re-raises for the
    task's retry. Only a send that returned marks it ``sent``.
    """
    claimable = Q(status__in=[EmailStatus.PENDING, EmailStatus.FAILED]) | Q(
        status=EmailStatus.SENDING, claimed_at__lt=now - STALE_CLAIM)
    won = OutboundEmail.objects.filter(claimable, pk=email_id).exclude(recipients=[]).update(
        status=EmailStatus.SENDING, claimed_at=now)
    if not won:
        return "skipped"
    email = OutboundEmail.objects.get(pk=email_id)
    try:
        send_mail(email.subject, email.body, None, email.recipients, fail_silently=False)
    except Exception as error:
        OutboundEmail.objects.filter(pk=email_id).update(
            status=EmailStatus.FAILED, attempts=email.attempts + 1, last_error=f"{type(error).__name__}: {error}")
        raise
    OutboundEmail.objects.filter(pk=email_id).update(status=EmailStatus.SENT, attempts=email.attempts + 1,
                                                     sent_at=timezone.now(), last_error="")
    return "sent"


def emails_due(*, now: datetime, limit: int = 10_000) -> list[int]:
    """E-mails not sent yet: pending, failed (with an address), or claimed long ago and never finished."""
    due = (Q(status__in=[EmailStatus.PENDING, EmailStatus.FAILED])
           | Q(status=EmailStatus.SENDING, claimed_at__lt=now - STALE_CLAIM))
    return list(OutboundEmail.objects.filter(due).exclude(recipients=[]).order_by("id")
                .values_list("id", flat=True)[:limit])


def emails_send_due(*, now: datetime) -> dict[str, int]:
    """Send every due e-mail in this process (the synchronous command): counts of sent and failed.

    The due e-mails are claimed in one UPDATE (``claimed_at`` = ``now`` marks
    ours), sent over one connection, and marked sent in one UPDATE; a failure
    marks only its own e-mail failed.
    """
    from django.core.mail import EmailMessage, get_connection

    ids = emails_due(now=now)
    claimable = Q(status__in=[EmailStatus.PENDING, EmailStatus.FAILED]) | Q(
        status=EmailStatus.SENDING, claimed_at__lt=now - STALE_CLAIM)
    OutboundEmail.objects.filter(claimable, pk__in=ids).update(status=EmailStatus.SENDING, claimed_at=now)
    claimed = list(OutboundEmail.objects.filter(pk__in=ids, status=EmailStatus.SENDING, claimed_at=now))
    counts = {"sent": 0, "failed": 0}
    sent = []
    with get_connection(fail_silently=False) as smtp:
        for email in claimed:
            try:
                smtp.send_messages([EmailMessage(email.subject, email.body, None, email.recipients)])
            except Exception as error:  # noqa: BLE001 - recorded on the row; the next run tries again
                log.warning("e-mail %s failed: %s", email.pk, error)
                OutboundEmail.objects.filter(pk=email.pk).update(
                    status=EmailStatus.FAILED, attempts=email.attempts + 1,
                    last_error=f"{type(error).__name__}: {error}")
                counts["failed"] += 1
            else:
                sent.append(email.pk)
    if sent:
        OutboundEmail.objects.filter(pk__in=sent).update(status=EmailStatus.SENT, sent_at=timezone.now(),
                                                         attempts=F("attempts") + 1, last_error="")
    counts["sent"] = len(sent)
    return counts
