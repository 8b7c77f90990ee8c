"""Redis down (broker and result backend): requests answer at once, and queueing e-mail never stalls.

Not a benchmark: a hard-stall check. Before the fix a penalty that queued an
e-mail waited about 19 s on the result backend's reconnection retries. Since
flags follow the facts, no request queues e-mail at all (the nightly run
announces what its re-check finds); the second test covers the queueing
itself, which the nightly chunks do after commit.
"""

from __future__ import annotations

import time

import pytest
import time_machine

from corr.models import EmailStatus, OutboundEmail
from corr.outbox import emails_enqueue

from ..conftest import celery_conf
from .conftest import at, day

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connections are refused at once
STALL_SECONDS = 1.0


@pytest.fixture
def broker_down():
    """Broker and result backend on a closed port, eager execution off (the name tells the conftest)."""
    with celery_conf(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=CLOSED_PORT,
                     CELERY_RESULT_BACKEND=CLOSED_PORT) as app:
        yield app


@pytest.mark.django_db
def test_with_redis_down_a_penalty_that_puts_a_player_in_time_trouble_answers_within_a_second(
        make_game, arbiter, api, broker_down, django_capture_on_commit_callbacks):
    game = make_game()  # white's move 1 pending since 01-10
    client = api(arbiter)
    assert client.get(f"/api/games/{game.pk}/").status_code == 200  # warm up: imports, first request
    with time_machine.travel(at(day(22)), tick=True):  # 22 days used, 8 left; a 5-day penalty leaves 3
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            r = client.post(f"/api/games/{game.pk}/penalties/", {"player": "white", "reason": "address_error"},
                            format="json")
        elapsed = time.monotonic() - started
    assert r.status_code == 201, r.json()
    assert r.json()["clock"]["players"]["white"]["time_trouble"] is True
    assert callbacks == []  # nothing is published from a request: it cannot wait on Redis
    assert elapsed < STALL_SECONDS, f"the request waited {elapsed:.1f} s on Redis"
    assert OutboundEmail.objects.count() == 0  # tonight's run warns, from that night's facts


@pytest.mark.django_db
def test_with_redis_down_queueing_stored_emails_returns_at_once_and_keeps_them_pending(make_game, broker_down):
    email = OutboundEmail.objects.create(key="k", recipients=["anna@example.org"], subject="s", body="b")
    started = time.monotonic()
    queued = emails_enqueue([email.pk])
    elapsed = time.monotonic() - started
    assert queued == 0 and elapsed < STALL_SECONDS, f"{elapsed:.1f} s"
    email.refresh_from_db()
    assert email.status == EmailStatus.PENDING
