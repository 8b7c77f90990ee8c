"""The e-mail outbox: stored first, queued after commit, sent under a lease and marked sent in small batches.

The delivery is at-least-once, a sender that dies re-sending at most what it sent since its last mark:

- a sender claims a batch with one conditional UPDATE that stamps its own
  token (``claim``) and the time on the rows it won;
- it sends them :data:`MARK_BATCH` at a time: one statement marks the batch
  just sent and checks the claim of the next, renewing it once the claim is
  old enough that a send could outlast it (:func:`renew_after_seconds`); all
  conditional on its token: a message another sender has taken over is
  skipped. Each message is sent with a
  ``Message-ID`` of its own row; what was sent is marked at least every
  :data:`MARK_EVERY_SECONDS`. Nothing is marked before its send, so a sender
  killed mid-batch leaves every message it sent since its last mark claimed
  (issue 42: one statement per batch, not one UPDATE and commit per e-mail);
- a claim not renewed for ``EMAIL_CLAIM_LEASE_SECONDS`` has expired: the next
  run (``emails_due``) sends the message again. Only the messages sent since
  the dead sender's last mark can arrive twice, and their copies share a
  ``Message-ID``, so a mail client (or a person) sees them for duplicates.

This module is below the nightly job and the services that e-mail (leave): it
imports neither them nor the tasks; the send task is queued by its name.
"""

from __future__ import annotations

import functools
import importlib
import logging
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from email.utils import parseaddr
from typing import NamedTuple

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from corr.celery import app
from corr.models import EmailStatus, OutboundEmail
from corr.sql import bound_cursor, ids_in, insert_new

log = logging.getLogger(__name__)

SEND_TASK = "corr.emails_send"
"""The Celery task that sends a batch (``corr.tasks.emails_send``), queued by name: no import of the tasks."""
BATCH = 200
"""E-mails per queued send task: a night with thousands of warnings would otherwise bury the job's own tasks."""
SEND_DUE_BATCH = 2000
"""E-mails per SMTP connection and claim when this process sends everything due (``manage.py nightly``)."""
MARK_BATCH = 50
"""E-mails marked sent in one statement (and renewed, when due, before their sends in the one before): the most a
sender killed mid-send can leave sent and not marked, to be sent again after its lease (issue 42)."""
MARK_EVERY_SECONDS = 1.0
"""The longest the e-mails sent wait for their mark when the mail server is slow: a killed sender's re-sends
are also bounded by what it sent in this time."""


def renew_after_seconds() -> float:
    """How old a claim may be and still cover the sends of the e-mails about to go without a renewal: its lease less
    the longest one send may block (``EMAIL_TIMEOUT``) and the longest the sends before it run unmarked
    (:data:`MARK_EVERY_SECONDS`: a slower run is marked, and checked again, before the next send). A younger claim
    is only checked before a batch's sends, and a mark writes only the e-mails it marks sent (half the rows of
    renewing each batch); an older one is renewed. 279 s with the defaults (a 300 s lease, a 20 s timeout)."""
    return claim_lease().total_seconds() - settings.EMAIL_TIMEOUT - MARK_EVERY_SECONDS


def claim_lease() -> timedelta:
    """How long a claim holds without renewal (``EMAIL_CLAIM_LEASE_SECONDS``); after that the e-mail is due again."""
    return timedelta(seconds=settings.EMAIL_CLAIM_LEASE_SECONDS)


def message_id(pk: int) -> str:
    """The ``Message-ID`` of outbox row ``pk``: the same on every send, so a duplicate is recognisable as one.

    The domain is that of ``DEFAULT_FROM_EMAIL`` (``localhost`` when it has none).
    """
    return f"<corr-outbox-{pk}@{_domain_of(settings.DEFAULT_FROM_EMAIL)}>"


@functools.lru_cache(maxsize=8)
def _domain_of(address: str) -> str:
    """The domain of a ``From`` address (``localhost`` when it has none), parsed once per address: the nightly
    job sends thousands of e-mails, and parsing the setting for each was a tenth of its Python (issue 42)."""
    return parseaddr(address)[1].rpartition("@")[2] or "localhost"


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
    headers: dict[str, str] | None = None
    """Extra headers sent with the message (``List-Unsubscribe``, RFC 2369/8058); None: none."""


def email_prepare(*, key: str, tournament_id: int | None, recipients: list[str], subject: str,
                  body: str, headers: dict[str, str] | None = None) -> EmailDraft:
    """An unsaved e-mail; a message with no address is stored as failed, so that reports show it.

    A plain record, not a model instance: a night prepares thousands. ``headers``: extra headers
    (a notification's ``List-Unsubscribe``), stored with it and sent on every attempt.
    """
    if not recipients:
        return EmailDraft(key, tournament_id, recipients, subject, body, EmailStatus.FAILED, 0,
                          "no e-mail address on file", headers)
    return EmailDraft(key, tournament_id, recipients, subject, body, headers=headers)


EMAIL_COLUMNS = ("key", "tournament", "recipients", "subject", "body", "status", "attempts", "last_error",
                 "created_at", "headers")


def emails_store(emails: list[EmailDraft], *, enqueue: bool,
                 then: Callable[[list[int]], None] | None = None) -> list[int]:
    """Save e-mails (an existing key is kept, not doubled) and, when ``enqueue``, queue them after commit.

    One ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` per batch: the ids that
    come back are the e-mails this call stored; only those are queued. ``then``:
    called after commit with the ids of the pending ones among them (never if the
    transaction rolls back), e.g. to send them in this process.
    :returns: the ids of the e-mails stored by this call.
    """
    if not emails:
        return []
    now = timezone.now()
    created = insert_new(OutboundEmail, EMAIL_COLUMNS, [
        (e.key, e.tournament_id, e.recipients, e.subject, e.body, e.status, e.attempts, e.last_error, now,
         e.headers or {})
        for e in emails], returning=("id", "status"))
    pending = sorted(pk for pk, status in created if status == EmailStatus.PENDING)
    if enqueue:
        emails_enqueue_on_commit(pending)
    if then is not None and pending:
        transaction.on_commit(lambda: then(pending))
    return sorted(pk for pk, _ in created)


def emails_enqueue_on_commit(ids: list[int]) -> None:
    """Queue the sends once the transaction that stored the e-mails commits (HackSoft, STYLE 6)."""
    if ids:
        transaction.on_commit(lambda: emails_enqueue(ids))


def emails_enqueue(ids: list[int]) -> int:
    """Queue one send task per batch of e-mails; what cannot be queued (broker down) stays pending.

    :returns: how many e-mails were queued.
    """
    queued = 0
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        try:
            _publish(batch)
            queued += len(batch)
        except Exception as error:  # noqa: BLE001 - any broker fault: keep the e-mails, say why
            log.warning("%d e-mail(s) not queued (%s); the next nightly run sends them", len(batch), error)
    return queued


def _publish(batch: list[int]) -> None:
    """Queue the send task by name; run it here when tasks are eager (``send_task`` ignores that setting)."""
    if app.conf.task_always_eager:
        if SEND_TASK not in app.tasks:
            # Eager runs in this process, where the tasks' module may not be loaded yet (Celery's
            # autodiscovery waits for a worker): loaded by name, so that nothing imports it statically.
            importlib.import_module("corr.tasks")
        app.tasks[SEND_TASK].apply(args=(batch,))
        return
    # ignore_result: a kept result would subscribe to its channel before publishing, and with
    # Redis down that waited on the backend's reconnection retries (issue 10).
    app.send_task(SEND_TASK, args=(batch,), retry=False, ignore_result=True)


def emails_due(*, now: datetime, limit: int = 100_000) -> list[int]:
    """E-mails not sent yet: pending, failed (with an address), or claimed by a sender whose lease ran out."""
    return list(OutboundEmail.objects.filter(_claimable(now)).exclude(recipients=[]).order_by("id")
                .values_list("id", flat=True)[:limit])


def _claimable(now: datetime) -> Q:
    # A claim not renewed within the lease belongs to a sender that died (or hangs): due again.
    return (Q(status__in=[EmailStatus.PENDING, EmailStatus.FAILED])
            | Q(status=EmailStatus.SENDING, claimed_at__lt=now - claim_lease()))


class Claimed(NamedTuple):
    """A claimed e-mail: what sending it needs."""

    pk: int
    recipients: list[str]
    subject: str
    body: str
    attempts: int
    headers: dict[str, str]


class Claim(NamedTuple):
    """The e-mails one sender won, under its token."""

    token: uuid.UUID
    emails: list[Claimed]


CLAIMED_FIELDS = tuple(OutboundEmail._meta.get_field(name) for name in ("id", "recipients", "subject", "body",
                                                                         "attempts", "headers"))


def emails_claim(*, ids: list[int], now: datetime) -> Claim:
    """Claim the claimable e-mails among ``ids`` under a new token, in one UPDATE ... RETURNING.

    The statement that changed a row returns it, so two senders never both get
    an e-mail (PostgreSQL re-checks the WHERE against a row a concurrent claim
    changed; SQLite writes one at a time). Not the time as a token: two senders
    can share a timestamp.
    """
    token = uuid.uuid4()
    if not ids:
        return Claim(token, [])
    fields = {name: OutboundEmail._meta.get_field(name) for name in ("claim", "claimed_at", "recipients", "headers")}
    stale = fields["claimed_at"].get_db_prep_save(now - claim_lease(), connection)
    no_address = fields["recipients"].get_db_prep_save([], connection)
    columns = ", ".join(f.column for f in CLAIMED_FIELDS)
    where, id_params = ids_in("id", ids)
    with bound_cursor() as cursor:
        cursor.execute(
            f"UPDATE {OutboundEmail._meta.db_table} SET status = %s, claimed_at = %s, claim = %s WHERE {where}"
            " AND (status IN (%s, %s) OR (status = %s AND claimed_at < %s)) AND recipients <> %s"
            f" RETURNING {columns}",
            [EmailStatus.SENDING, fields["claimed_at"].get_db_prep_save(now, connection),
             fields["claim"].get_db_prep_save(token, connection), *id_params, EmailStatus.PENDING,
             EmailStatus.FAILED, EmailStatus.SENDING, stale, no_address])
        rows = cursor.fetchall()
    recipients, headers = fields["recipients"], fields["headers"]
    return Claim(token, sorted((Claimed(pk, recipients.from_db_value(to, None, connection), subject, body, attempts,
                                        headers.from_db_value(extra, None, connection) or {})
                                for pk, to, subject, body, attempts, extra in rows), key=lambda e: e.pk))


def _mine(pk: int, token: uuid.UUID) -> Q:
    """The row ``pk`` while this sender's claim holds it (nobody took it over since)."""
    return Q(pk=pk, claim=token, status=EmailStatus.SENDING)


def _mark_and_renew(token: uuid.UUID, *, sent: list[int], renew: list[int], at: datetime) -> set[int]:
    """Mark the e-mails ``sent`` sent and renew the claims of ``renew`` to ``at``, in one statement (one commit).

    All conditional on this sender's token: an e-mail another sender has taken over is neither marked nor
    renewed. One statement for a batch, because a commit is the dearest part of a mark (a few ms on a disk that
    syncs; issue 42: the nightly job spent 2.0 of its 2.8 s of SQL on one UPDATE and commit per e-mail).
    :returns: the ids among both lists that this sender still held.
    """
    if not sent and not renew:
        return set()
    fields = {name: OutboundEmail._meta.get_field(name) for name in ("claim", "claimed_at", "sent_at")}
    sent_at = fields["sent_at"].get_db_prep_save(timezone.now(), connection)
    renewed = fields["claimed_at"].get_db_prep_save(at, connection)
    is_sent, sent_params = ids_in("id", sent or [0])  # no row has the key 0: an empty list matches none
    token_param = fields["claim"].get_db_prep_save(token, connection)
    is_renewed, renew_params = ids_in("id", renew or [0])
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {OutboundEmail._meta.db_table} SET"
            f" status = CASE WHEN {is_sent} THEN %s ELSE status END,"
            f" sent_at = CASE WHEN {is_sent} THEN %s ELSE sent_at END,"
            f" attempts = CASE WHEN {is_sent} THEN attempts + 1 ELSE attempts END,"
            f" last_error = CASE WHEN {is_sent} THEN '' ELSE last_error END,"
            f" claimed_at = CASE WHEN {is_renewed} THEN %s ELSE claimed_at END"
            f" WHERE ({is_sent} OR {is_renewed}) AND claim = %s AND status = %s RETURNING id",
            [*sent_params, EmailStatus.SENT, *sent_params, sent_at, *sent_params, *sent_params, *renew_params, renewed,
             *sent_params, *renew_params, token_param, EmailStatus.SENDING])
        return {pk for (pk,) in cursor.fetchall()}


def _mark_and_check(token: uuid.UUID, *, sent: list[int], held: list[int]) -> set[int]:
    """Mark the e-mails ``sent`` sent, and read which of ``held`` this sender's claim still holds, writing none of
    them: :func:`_mark_and_renew` for a claim younger than :func:`renew_after_seconds`, whose e-mails no other
    sender may take before their sends are over (half the rows written; a sender that stalled past its lease
    unawares still finds the e-mails another took). One statement on PostgreSQL (the mark in a ``WITH``), the two
    apart on SQLite.
    :returns: the ids among both lists that this sender still held.
    """
    if not sent and not held:
        return set()
    table = OutboundEmail._meta.db_table
    token_param = OutboundEmail._meta.get_field("claim").get_db_prep_save(token, connection)
    sent_at = OutboundEmail._meta.get_field("sent_at").get_db_prep_save(timezone.now(), connection)
    is_sent, sent_params = ids_in("id", sent or [0])  # no row has the key 0: an empty list matches none
    is_held, held_params = ids_in("id", held or [0])
    mark = (f"UPDATE {table} SET status = %s, sent_at = %s, attempts = attempts + 1, last_error = ''"
            f" WHERE {is_sent} AND claim = %s AND status = %s RETURNING id")
    mark_params = [EmailStatus.SENT, sent_at, *sent_params, token_param, EmailStatus.SENDING]
    check = f"SELECT id FROM {table} WHERE {is_held} AND claim = %s AND status = %s"
    check_params = [*held_params, token_param, EmailStatus.SENDING]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and sent:
            cursor.execute(f"WITH marked AS ({mark}) SELECT id FROM marked UNION ALL {check}",
                           [*mark_params, *check_params])
            return {pk for (pk,) in cursor.fetchall()}
        found: set[int] = set()
        for statement, params, needed in ((mark, mark_params, sent), (check, check_params, held)):
            if needed:
                cursor.execute(statement, params)
                found.update(pk for (pk,) in cursor.fetchall())
        return found


def emails_send_claimed(*, claim: Claim, now: datetime,
                        monotonic: Callable[[], float] = time.monotonic) -> dict[str, list[int]]:
    """Send the e-mails of ``claim`` over one connection, held under a lease before their sends and marked sent
    after, a batch at a time.

    The e-mails go in batches of :data:`MARK_BATCH`: one statement marks the batch just sent and, once the claim is
    :func:`renew_after_seconds` old, renews the claim of the next (:func:`_mark_and_renew`), and the
    e-mails sent are marked at least every :data:`MARK_EVERY_SECONDS` (with the rest of their batch renewed when
    due) when the mail server is slow. Nothing is
    marked sent before its send: a sender killed at any point leaves the e-mails it sent since its last mark
    claimed and not marked, and the next run after the lease sends them again (at least once: a copy may arrive
    twice, with its row's ``Message-ID``; none is lost).

    ``now`` is the time of the claim; a renewal stamps ``now`` plus the time this call has spent (``monotonic``,
    seconds), so the batch about to be sent gets a full lease however long the sends before it took, and a test
    that injects ``now`` stays in its own time. An e-mail whose renewal finds another token (its lease expired
    and another sender took it) is skipped. A failed send marks its own e-mail ``failed``.
    :returns: ``{"sent": [...], "failed": [...], "skipped": [...]}`` ids.
    """
    result: dict[str, list[int]] = {"sent": [], "failed": [], "skipped": []}
    if not claim.emails:
        return result
    started = monotonic()
    opening_error = None
    try:
        mail = get_connection(fail_silently=False)
        mail.open()
    except Exception as error:  # noqa: BLE001 - the server is down: every claimed e-mail failed
        mail, opening_error = None, error

    unmarked: list[int] = []  # sent since the last mark
    marked_at = started

    renew_after_s = renew_after_seconds()

    def mark(renew: list[int]) -> set[int]:
        """Mark ``unmarked`` sent and make sure ``renew`` is held for a lease yet: the ids of ``renew`` still held.

        The e-mails of ``renew`` are renewed only once their claim's stamp (this call's ``now``) is
        :func:`renew_after_seconds` old; before that no other sender may take them before their sends are over
        (it takes only an e-mail whose claim is a whole lease old): they are only checked, and the statement
        writes only the marks.
        """
        nonlocal marked_at
        if monotonic() - started < renew_after_s:
            held = _mark_and_check(claim.token, sent=unmarked, held=renew)
        else:
            held = _mark_and_renew(claim.token, sent=unmarked, renew=renew,
                                   at=now + timedelta(seconds=monotonic() - started))
        for pk in unmarked:
            if pk not in held:
                log.warning("e-mail %s was sent after its lease ran out and another sender took it: it may"
                            " arrive twice, with one Message-ID", pk)
            result["sent"].append(pk)
        unmarked.clear()
        marked_at = monotonic()
        return held

    try:
        for start in range(0, len(claim.emails), MARK_BATCH):
            batch = claim.emails[start:start + MARK_BATCH]
            held = mark([email.pk for email in batch])
            for n, email in enumerate(batch):
                if unmarked and monotonic() - marked_at >= MARK_EVERY_SECONDS:
                    held = mark([e.pk for e in batch[n:]])  # a slow server: what was sent is marked now
                if email.pk not in held:
                    result["skipped"].append(email.pk)  # taken over after our lease ran out: the other sender's now
                    continue
                try:
                    if mail is None:
                        raise opening_error
                    mail.send_messages([EmailMessage(email.subject, email.body, None, email.recipients,
                                                     headers={**email.headers, "Message-ID": message_id(email.pk)})])
                except Exception as error:  # noqa: BLE001 - recorded on the row; retried later
                    log.warning("e-mail %s failed: %s", email.pk, error)
                    OutboundEmail.objects.filter(_mine(email.pk, claim.token)).update(
                        status=EmailStatus.FAILED, attempts=email.attempts + 1,
                        last_error=f"{type(error).__name__}: {error}")
                    result["failed"].append(email.pk)
                    continue
                unmarked.append(email.pk)
        if unmarked:
            mark([])
    finally:
        if mail is not None:
            mail.close()
    return result


def emails_send_now(*, ids: list[int], now: datetime) -> dict[str, list[int]]:
    """Claim the given e-mails and send them (``emails_claim``, then ``emails_send_claimed``).

    Must run outside a transaction, so that each mark commits before the next send.
    :returns: ``{"sent": [...], "failed": [...], "skipped": [...]}`` ids; skipped are those not won.
    """
    claim = emails_claim(ids=ids, now=now)
    result = emails_send_claimed(claim=claim, now=now)
    result["skipped"] = sorted(set(ids) - {e.pk for e in claim.emails} | set(result["skipped"]))
    return result


def emails_send_due(*, now: datetime, skip: set[int] | frozenset[int] = frozenset()) -> dict[str, int]:
    """Send every due e-mail in this process (the synchronous command): counts of sent and failed.

    ``skip``: ids not to send (those this run has already tried: a failure waits for the next run).
    """
    counts = {"sent": 0, "failed": 0}
    due = [pk for pk in emails_due(now=now) if pk not in skip]
    for start in range(0, len(due), SEND_DUE_BATCH):
        result = emails_send_now(ids=due[start:start + SEND_DUE_BATCH], now=now)
        counts["sent"] += len(result["sent"])
        counts["failed"] += len(result["failed"])
    return counts
