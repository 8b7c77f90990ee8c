"""The outbox's delivery: each e-mail checked (and, once a send could outlast its lease, renewed) before its send,
sent with its row's Message-ID and marked sent after it, a batch at a time (``MARK_BATCH`` e-mails per statement,
issue 42).

A sender that dies mid-batch leaves the e-mails it marked sent, its other claims expire after the lease and are
sent again (at least once: the ones sent since its last mark twice, none lost), and a claim another sender took
over is never sent by the first.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr import outbox as outbox_module

from corr.models import EmailStatus, OutboundEmail
from corr.outbox import (
    claim_lease, email_prepare, emails_claim, emails_due, emails_send_claimed, emails_send_due, emails_send_now,
    emails_store, message_id,
)

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 2, 0, tzinfo=timezone.utc)


@pytest.fixture
def outbox(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    def store(count: int) -> list[int]:
        return emails_store([email_prepare(key=f"k{n}", tournament_id=None, recipients=[f"p{n}@example.org"],
                                           subject=f"s{n}", body="b") for n in range(count)], enqueue=False)

    return store


class Killed(BaseException):
    """The process dying under the sender (not an ``Exception``: nothing records it as a failed send)."""


class DiesAfterTwo(LocmemBackend):
    """Delivers two messages, then delivers the third and dies before the send returns."""

    def send_messages(self, messages):
        sent = super().send_messages(messages)
        if len(mail.outbox) == 3:
            raise Killed
        return sent


def delivered() -> list[str]:
    return [m.extra_headers["Message-ID"] for m in mail.outbox]


def test_each_email_carries_the_message_id_of_its_row_on_the_domain_of_the_sender(outbox, settings):
    settings.DEFAULT_FROM_EMAIL = "Corr federation <corr@chess.example.org>"
    [pk] = outbox(1)
    assert emails_send_due(now=T0) == {"sent": 1, "failed": 0}
    assert delivered() == [f"<corr-outbox-{pk}@chess.example.org>"] == [message_id(pk)]
    assert f"Message-ID: <corr-outbox-{pk}@chess.example.org>" in mail.outbox[0].message().as_string()


def test_a_sender_killed_mid_batch_leaves_each_marked_batch_sent_and_the_rest_due_after_the_lease(
        outbox, settings, monkeypatch):
    monkeypatch.setattr(outbox_module, "MARK_BATCH", 2)
    ids = outbox(5)
    settings.EMAIL_BACKEND = f"{__name__}.DiesAfterTwo"
    with pytest.raises(Killed):
        emails_send_now(ids=ids, now=T0)
    statuses = list(OutboundEmail.objects.order_by("id").values_list("status", flat=True))
    # The first batch of two was marked sent before the second was sent; the third was delivered, not marked.
    assert statuses == [EmailStatus.SENT] * 2 + [EmailStatus.SENDING] * 3
    assert emails_due(now=T0 + claim_lease() - timedelta(seconds=1)) == []  # the lease still holds
    assert emails_due(now=T0 + claim_lease() + timedelta(seconds=1)) == ids[2:]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert emails_send_due(now=T0 + claim_lease() + timedelta(seconds=1)) == {"sent": 3, "failed": 0}
    # Every e-mail delivered; the one in flight twice, with one Message-ID.
    assert delivered() == [message_id(pk) for pk in [*ids[:3], *ids[2:]]]
    assert set(OutboundEmail.objects.values_list("status", flat=True)) == {EmailStatus.SENT}


def test_a_claim_taken_over_by_another_sender_is_not_sent_by_the_first(outbox):
    ids = outbox(3)
    slow = emails_claim(ids=ids, now=T0)  # a sender that claimed, then stalled past its lease
    assert [e.pk for e in slow.emails] == ids
    other = emails_send_now(ids=ids, now=T0 + claim_lease() + timedelta(seconds=1))
    assert other["sent"] == ids
    assert emails_send_claimed(claim=slow, now=T0) == {"sent": [], "failed": [], "skipped": ids}
    assert delivered() == [message_id(pk) for pk in ids]  # once each: the first sender sent nothing
    assert set(OutboundEmail.objects.values_list("claim", flat=True)) != {slow.token}


def test_a_claim_within_its_lease_is_neither_due_nor_claimable_by_another_sender(outbox):
    ids = outbox(2)
    first = emails_claim(ids=ids, now=T0)
    assert emails_claim(ids=ids, now=T0 + claim_lease() - timedelta(seconds=1)).emails == []
    result = emails_send_claimed(claim=first, now=T0)
    assert result["sent"] == ids and delivered() == [message_id(pk) for pk in ids]


class SlowBatch(LocmemBackend):
    """The first send takes longer than the lease (``CLOCK`` jumps); during the second the next run comes."""

    clock = [0.0]
    next_run_done = [False]

    def send_messages(self, messages):
        if len(mail.outbox) == 0:
            SlowBatch.clock[0] += claim_lease().total_seconds() + 2
        elif len(mail.outbox) == 1 and not SlowBatch.next_run_done[0]:
            SlowBatch.next_run_done[0] = True
            emails_send_due(now=T0 + claim_lease() + timedelta(seconds=3))
        return super().send_messages(messages)


def test_a_batch_slower_than_its_lease_keeps_the_email_it_renewed_and_skips_those_the_next_run_took(
        outbox, settings, monkeypatch):
    monkeypatch.setattr(outbox_module, "MARK_BATCH", 1)  # each e-mail renewed alone, just before its send
    ids = outbox(3)
    settings.EMAIL_BACKEND = f"{__name__}.SlowBatch"
    SlowBatch.clock[0], SlowBatch.next_run_done[0] = 0.0, False
    result = emails_send_claimed(claim=emails_claim(ids=ids, now=T0), now=T0, monotonic=lambda: SlowBatch.clock[0])
    # The second e-mail was renewed (lease + 2 s in) just before its send: not due to the next run (lease + 3 s).
    # The third, still waiting under the claim's time, was due: the next run sent it, this sender skipped it.
    assert result == {"sent": ids[:2], "failed": [], "skipped": ids[2:]}
    assert sorted(delivered()) == sorted(message_id(pk) for pk in ids)  # once each
    assert set(OutboundEmail.objects.values_list("status", flat=True)) == {EmailStatus.SENT}


def test_a_slow_server_gets_what_was_sent_marked_and_the_rest_of_its_batch_renewed(outbox, settings):
    # The same slow first send in one batch of three: the mark after it (MARK_EVERY_SECONDS passed) renews the
    # other two, so the next run at lease + 3 s finds none due and each is sent once, by this sender.
    ids = outbox(3)
    settings.EMAIL_BACKEND = f"{__name__}.SlowBatch"
    SlowBatch.clock[0], SlowBatch.next_run_done[0] = 0.0, False
    result = emails_send_claimed(claim=emails_claim(ids=ids, now=T0), now=T0, monotonic=lambda: SlowBatch.clock[0])
    assert result == {"sent": ids, "failed": [], "skipped": []}
    assert sorted(delivered()) == sorted(message_id(pk) for pk in ids)
    assert set(OutboundEmail.objects.values_list("status", flat=True)) == {EmailStatus.SENT}


def test_a_night_of_emails_is_marked_sent_in_one_statement_per_batch_not_one_per_email(outbox):
    count = 2 * outbox_module.MARK_BATCH + 7
    ids = outbox(count)
    with CaptureQueriesContext(connection) as ctx:
        assert emails_send_due(now=T0) == {"sent": count, "failed": 0}
    table = OutboundEmail._meta.db_table
    writes = [q["sql"] for q in ctx.captured_queries if f"UPDATE {table}" in q["sql"]]
    # The claim, then one statement per batch marking the one before it, then the last mark. A claim this young
    # (far below renew_after_seconds) is checked before each batch's sends, not written again.
    assert len(writes) == 1 + 3, writes
    assert not any("claimed_at" in sql for sql in writes[1:]), writes
    assert delivered() == [message_id(pk) for pk in ids]
    assert OutboundEmail.objects.filter(status=EmailStatus.SENT, attempts=1).count() == count
    assert set(OutboundEmail.objects.values_list("claimed_at", flat=True)) == {T0}


class SlowFirstSend(LocmemBackend):
    """The first send blocks ``jump[0]`` seconds (``clock`` jumps)."""

    clock = [0.0]
    jump = [0.0]

    def send_messages(self, messages):
        if len(mail.outbox) == 0:
            SlowFirstSend.clock[0] += SlowFirstSend.jump[0]
        return super().send_messages(messages)


@pytest.mark.parametrize("before", [True, False], ids=["just-before-the-renewal-age", "at-the-renewal-age"])
def test_a_claim_is_renewed_before_a_send_only_once_a_send_could_outlast_its_lease(outbox, settings, monkeypatch,
                                                                                  before):
    # 300 s of lease, sends of 20 s at most, marked after 1 s at most: a claim up to 279 s old covers the next send
    # without a renewal (renew_after_seconds); at 279 s the rest is renewed before it is sent.
    settings.EMAIL_CLAIM_LEASE_SECONDS, settings.EMAIL_TIMEOUT = 300, 20
    assert outbox_module.renew_after_seconds() == 279
    monkeypatch.setattr(outbox_module, "MARK_BATCH", 2)
    ids = outbox(5)
    settings.EMAIL_BACKEND = f"{__name__}.SlowFirstSend"
    SlowFirstSend.clock[0], SlowFirstSend.jump[0] = 0.0, 279 - (0.5 if before else 0)
    claim = emails_claim(ids=ids, now=T0)
    result = emails_send_claimed(claim=claim, now=T0, monotonic=lambda: SlowFirstSend.clock[0])
    assert result == {"sent": ids, "failed": [], "skipped": []}
    stamps = dict(OutboundEmail.objects.values_list("id", "claimed_at"))
    if before:  # every e-mail went out under the claim's own stamp: checked, never written before its mark
        assert [stamps[pk] for pk in ids] == [T0] * 5
    else:
        # The first e-mail went out under the claim's stamp. Its slow send was marked at once (MARK_EVERY_SECONDS)
        # and the rest of its batch renewed with it; the later batches were renewed before their sends.
        renewed = T0 + timedelta(seconds=279)
        assert [stamps[pk] for pk in ids] == [T0, renewed, renewed, renewed, renewed]
    assert delivered() == [message_id(pk) for pk in ids]
