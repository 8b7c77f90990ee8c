"""Outbound e-mail: stored first, sent after commit, retried with back-off, marked sent only when sent."""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta
from typing import NamedTuple

from django.core.mail import EmailMessage, get_connection
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from corr.models import EmailStatus, OutboundEmail

from .sql import bound_cursor, ids_in, insert_new

log = logging.getLogger(__name__)

STALE_CLAIM = timedelta(hours=1)


class EmailDraft(NamedTuple):
    """An e-mail to store (``emails_store``): the columns of ``OutboundEmail`` that its cause decides."""

    key: str
    tournament_id: int | None
    recipients: list[str]
    subject: str
    body: str
    status: str = EmailStatus.PENDING
    attempts: int = 0
    last_error: str = ""


def email_prepare(*, key: str, tournament_id: int | None, recipients: list[str], subject: str,
                  body: str) -> EmailDraft:
    """An unsaved e-mail; a message with no address is stored as failed, so that reports show it.

    A plain record, not a model instance: a night prepares thousands.
    """
    if not recipients:
        return EmailDraft(key, tournament_id, recipients, subject, body, EmailStatus.FAILED, 0,
                          "no e-mail address on file")
    return EmailDraft(key, tournament_id, recipients, subject, body)


EMAIL_COLUMNS = ("key", "tournament", "recipients", "subject", "body", "status", "attempts", "last_error",
                 "created_at")


def emails_store(emails: list[EmailDraft], *, enqueue: bool) -> list[int]:
    """Save e-mails (an existing key is kept, not doubled) and, when ``enqueue``, queue them after commit.

    One ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` per batch: the ids that
    come back are the e-mails this call stored; only those are queued.
    :returns: the ids of the e-mails stored by this call.
    """
    if not emails:
        return []
    now = timezone.now()
    created = insert_new(OutboundEmail, EMAIL_COLUMNS, [
        (e.key, e.tournament_id, e.recipients, e.subject, e.body, e.status, e.attempts, e.last_error, now)
        for e in emails], returning=("id", "status"))
    if enqueue:
        emails_enqueue_on_commit(sorted(pk for pk, status in created if status == EmailStatus.PENDING))
    return sorted(pk for pk, _ in created)


def emails_enqueue_on_commit(ids: list[int]) -> None:
    """Queue the sends once the transaction that stored the e-mails commits (HackSoft, STYLE 6)."""
    if ids:
        transaction.on_commit(lambda: emails_enqueue(ids))


BATCH = 200
SEND_DUE_BATCH = 2000
"""E-mails per SMTP connection and claim when this process sends everything due (``manage.py nightly``)."""


def emails_enqueue(ids: list[int]) -> int:
    """Queue one send task per batch of e-mails; what cannot be queued (broker down) stays pending.

    Batches, not one task per e-mail: a night with thousands of warnings would
    otherwise bury the job's own tasks under the e-mail queue.
    :returns: how many e-mails were queued.
    """
    from corr.tasks import emails_send  # the tasks module imports this one

    queued = 0
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        try:
            emails_send.apply_async(args=(batch,), retry=False)
            queued += len(batch)
        except Exception as error:  # noqa: BLE001 - any broker fault: keep the e-mails, say why
            log.warning("%d e-mail(s) not queued (%s); the next nightly run sends them", len(batch), error)
    return queued


def emails_due(*, now: datetime, limit: int = 100_000) -> list[int]:
    """E-mails not sent yet: pending, failed (with an address), or claimed long ago and never finished."""
    return list(OutboundEmail.objects.filter(_claimable(now)).exclude(recipients=[]).order_by("id")
                .values_list("id", flat=True)[:limit])


def _claimable(now: datetime) -> Q:
    # A send claimed long ago and never finished (a worker died mid-send) is due again.
    return (Q(status__in=[EmailStatus.PENDING, EmailStatus.FAILED])
            | Q(status=EmailStatus.SENDING, claimed_at__lt=now - STALE_CLAIM))


def emails_send_now(*, ids: list[int], now: datetime) -> dict[str, list[int]]:
    """Claim the given e-mails and send them over one connection.

    The claim is one conditional UPDATE that stamps this caller's token on the
    rows it won, so two workers never send an e-mail twice. Only a send that
    returned marks an e-mail ``sent`` (one UPDATE for the batch); a failure
    marks its own e-mail ``failed`` with the error.
    :returns: ``{"sent": [...], "failed": [...], "skipped": [...]}`` ids.
    """
    claimed = _claim(ids, now)
    result: dict[str, list[int]] = {"sent": [], "failed": [], "skipped": []}
    result["skipped"] = sorted(set(ids) - {e.pk for e in claimed})
    try:
        connection = get_connection(fail_silently=False)
        connection.open()
    except Exception as error:  # noqa: BLE001 - the server is down: every claimed e-mail failed
        connection = None
        opening_error = error
    for email in claimed:
        try:
            if connection is None:
                raise opening_error
            connection.send_messages([EmailMessage(email.subject, email.body, None, email.recipients)])
        except Exception as error:  # noqa: BLE001 - recorded on the row; retried later
            log.warning("e-mail %s failed: %s", email.pk, error)
            OutboundEmail.objects.filter(pk=email.pk).update(
                status=EmailStatus.FAILED, attempts=email.attempts + 1, last_error=f"{type(error).__name__}: {error}")
            result["failed"].append(email.pk)
        else:
            result["sent"].append(email.pk)
    if connection is not None:
        connection.close()
    if result["sent"]:
        _mark_sent(result["sent"])
    return result


def _mark_sent(ids: list[int]) -> None:
    """Mark sent e-mails sent, in one UPDATE (only a send that returned gets here)."""
    sent_at = OutboundEmail._meta.get_field("sent_at").get_db_prep_save(timezone.now(), connection)
    where, params = ids_in("id", ids)
    with bound_cursor() as cursor:
        cursor.execute(f"UPDATE {OutboundEmail._meta.db_table} SET status = %s, sent_at = %s,"
                       f" attempts = attempts + 1, last_error = '' WHERE {where}",
                       [EmailStatus.SENT, sent_at, *params])


class Claimed(NamedTuple):
    """A claimed e-mail: what sending it needs."""

    pk: int
    recipients: list[str]
    subject: str
    body: str
    attempts: int


def _claim(ids: list[int], now: datetime) -> list[Claimed]:
    """Claim the claimable e-mails among ``ids`` and return them, in one UPDATE ... RETURNING.

    The statement that changed a row returns it, so two senders never both get
    an e-mail (PostgreSQL re-checks the WHERE against a row a concurrent claim
    changed; SQLite writes one at a time). Not the time as a token: two senders
    can share a timestamp.
    """
    if not ids:
        return []
    claim = uuid.uuid4()
    fields = {name: OutboundEmail._meta.get_field(name) for name in ("claim", "claimed_at", "recipients")}
    pending = [EmailStatus.PENDING, EmailStatus.FAILED]
    stale = fields["claimed_at"].get_db_prep_save(now - STALE_CLAIM, connection)
    no_address = fields["recipients"].get_db_prep_save([], connection)
    columns = ", ".join(f.column for f in CLAIMED_FIELDS)
    where, id_params = ids_in("id", ids)
    with bound_cursor() as cursor:
        cursor.execute(
            f"UPDATE {OutboundEmail._meta.db_table} SET status = %s, claimed_at = %s, claim = %s WHERE {where}"
            " AND (status IN (%s, %s) OR (status = %s AND claimed_at < %s)) AND recipients <> %s"
            f" RETURNING {columns}",
            [EmailStatus.SENDING, fields["claimed_at"].get_db_prep_save(now, connection),
             fields["claim"].get_db_prep_save(claim, connection), *id_params, *pending, EmailStatus.SENDING, stale,
             no_address])
        rows = cursor.fetchall()
    recipients = fields["recipients"]
    return sorted((Claimed(pk, recipients.from_db_value(to, None, connection), subject, body, attempts)
                   for pk, to, subject, body, attempts in rows), key=lambda e: e.pk)


CLAIMED_FIELDS = tuple(OutboundEmail._meta.get_field(name) for name in ("id", "recipients", "subject", "body",
                                                                         "attempts"))


def emails_send_due(*, now: datetime) -> dict[str, int]:
    """Send every due e-mail in this process (the synchronous command): counts of sent and failed."""
    counts = {"sent": 0, "failed": 0}
    due = emails_due(now=now)
    for start in range(0, len(due), SEND_DUE_BATCH):
        result = emails_send_now(ids=due[start:start + SEND_DUE_BATCH], now=now)
        counts["sent"] += len(result["sent"])
        counts["failed"] += len(result["failed"])
    return counts
