"""The checks at a flag's instant travel on their own Celery queue (issue 27: behind no sweep, nightly chunk or
e-mail), which a worker started without ``-Q`` consumes beside the default one."""

from __future__ import annotations

from django.conf import settings

from corr.celery import app
from corr.games.flagclock import FLAG_CHECK_TASK as SERVER_FLAG_CHECK
from corr.live.schedule import FLAG_CHECK_TASK as LIVE_FLAG_CHECK


def test_the_flag_checks_are_routed_to_the_flags_queue_and_nothing_else_is():
    for task in (LIVE_FLAG_CHECK, SERVER_FLAG_CHECK):
        assert app.amqp.router.route({}, task)["queue"].name == settings.FLAG_QUEUE == "flags"
    for task in ("corr.live_sweep", "corr.send_emails", "corr.nightly"):
        assert app.amqp.router.route({}, task)["queue"].name == "celery"


def test_a_worker_without_q_consumes_both_queues_each_by_its_own_key():
    queues = {q.name: q.routing_key for q in app.conf.task_queues}
    assert queues == {"celery": "celery", "flags": "flags"}  # one key each: no message lands in both


def test_the_named_tasks_exist_where_they_are_queued_by_name():
    assert {LIVE_FLAG_CHECK, SERVER_FLAG_CHECK} <= set(app.tasks)
