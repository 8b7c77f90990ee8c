"""A real Celery worker killed (SIGKILL) in the middle of sending e-mails: the next run delivers the rest.

The guarantee of ``corr.outbox`` (docs/reliability.md): every e-mail is delivered, at most those sent since the
killed worker's last mark twice (``MARK_BATCH`` at most, issue 42: marks in batches), and those carry the
Message-ID of their row both times.
The worker sends through ``tests.support.slow_mail`` (a file per message, 0.1 s each), so the kill
lands mid-batch; the rerun is ``emails_send_due`` with ``now`` past the lease (time injected, never
slept through).
"""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from corr.models import EmailStatus, OutboundEmail
from corr.outbox import (
    MARK_BATCH, claim_lease, email_prepare, emails_enqueue, emails_send_due, emails_store, message_id,
)
from tests.support import slow_mail

from .test_worker_integration import WAIT_SECONDS, real_broker, redis_reachable, worker_start, worker_stop

EMAILS = 60
SLOW_MAIL = "tests.support.slow_mail.EmailBackend"


def wait_for_some(mail_dir, at_least: int) -> int:
    """Wait until ``at_least`` messages are delivered; how many there are then."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        delivered = len(list(mail_dir.glob("*.eml")))
        if delivered >= at_least:
            return delivered
        time.sleep(0.05)
    raise AssertionError(f"the worker delivered fewer than {at_least} e-mails in {WAIT_SECONDS} s")


# The kill lands while a message is on its way (slow before delivery: no duplicate), or after the
# server took it and before its answer (slow after: the one duplicate this guarantee allows).
@pytest.mark.parametrize("slow_after", ["0", "1"], ids=["before-delivery", "after-delivery"])
def test_a_worker_killed_mid_batch_leaves_every_email_delivered_by_the_next_run_and_the_unmarked_ones_twice(
        transactional_db, tmp_path, monkeypatch, slow_after):
    redis_reachable()
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    ids = emails_store([email_prepare(key=f"kill:{n}", tournament_id=None, recipients=[f"p{n}@example.org"],
                                      subject=f"Warning {n}", body="b") for n in range(EMAILS)], enqueue=False)
    # One worker process sending (concurrency 1): one e-mail in flight at a time.
    worker = worker_start(mail_dir, concurrency=1, EMAIL_BACKEND=SLOW_MAIL, SLOW_MAIL_SECONDS="0.1",
                          SLOW_MAIL_AFTER=slow_after)
    try:
        with real_broker():
            assert emails_enqueue(ids) == EMAILS  # one task: the whole batch is claimed at once
        wait_for_some(mail_dir, 10)
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and its pool child, mid-batch
        worker.wait(timeout=20)
    finally:
        worker_stop(worker)
    at_kill = slow_mail.deliveries(mail_dir)
    print(f"killed after {sum(at_kill.values())} of {EMAILS} deliveries")
    assert 10 <= sum(at_kill.values()) < EMAILS, "the kill did not land mid-batch"
    assert max(at_kill.values()) == 1
    statuses = dict(OutboundEmail.objects.values_list("id", "status"))
    sent = {pk for pk, status in statuses.items() if status == EmailStatus.SENT}
    # Nothing was marked sent before its send; what was sent since the last mark (a batch at most) is not marked.
    assert {message_id(pk) for pk in sent} <= set(at_kill)
    assert len(at_kill) - len(sent) <= MARK_BATCH
    assert all(statuses[pk] == EmailStatus.SENDING for pk in set(ids) - sent)

    # A run within the lease leaves the dead worker's claims alone; one after it sends them all.
    with override_settings(EMAIL_BACKEND=SLOW_MAIL, EMAIL_FILE_PATH=str(mail_dir)):
        monkeypatch.setattr(slow_mail, "SLEEP_SECONDS", 0)
        assert emails_send_due(now=timezone.now()) == {"sent": 0, "failed": 0}
        later = timezone.now() + claim_lease() + timedelta(seconds=1)
        assert emails_send_due(now=later) == {"sent": EMAILS - len(sent), "failed": 0}
        assert emails_send_due(now=later + claim_lease()) == {"sent": 0, "failed": 0}  # nothing left

    delivered = slow_mail.deliveries(mail_dir)
    twice = [m for m, n in delivered.items() if n == 2]
    print(f"after the rerun: {len(delivered)} e-mails delivered, {len(twice)} twice ({slow_after=})")
    assert set(delivered) == {message_id(pk) for pk in ids}  # every e-mail delivered
    # At most the unmarked ones twice: those delivered and not marked when the worker died.
    assert max(delivered.values()) <= 2 and len(twice) <= len(at_kill) - len(sent)
    assert OutboundEmail.objects.filter(status=EmailStatus.SENT).count() == EMAILS
