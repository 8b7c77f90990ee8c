"""Celery tasks: thin wrappers that take dates and ids, call the domain, and own their retry policy.

The top of the imports: the tasks call the nightly job and the outbox, and nothing below imports this
module (the outbox queues ``corr.emails_send`` by its name).
"""

from __future__ import annotations

from datetime import date

from celery import chord, group, shared_task
from django.utils import timezone

from corr.games.services import import_jobs
from corr.nightly.job import nightly_chunk_process, nightly_finish, nightly_start
from corr.outbox import SEND_TASK, emails_due, emails_enqueue, emails_send_now

EMAIL_MAX_RETRIES = 6


def service_today() -> date:
    """Today in the service's time zone (``TIME_ZONE``)."""
    return timezone.localdate()


@shared_task(name="corr.nightly_run")
def nightly_run(on: str | None = None) -> dict:
    """The nightly job for ``on`` (YYYY-MM-DD; default today): fan the chunks out to the workers."""
    day = date.fromisoformat(on) if on else service_today()
    run, chunks = nightly_start(on=day)
    # E-mails that could not be queued earlier (broker down) or failed for good go out again now.
    emails_enqueue(emails_due(now=timezone.now()))
    finish = nightly_finish_task.s(day.isoformat(), run.pk)
    if not chunks:
        finish.apply_async(args=([],))
    else:
        chord(group(nightly_chunk.s(day.isoformat(), ids, run.pk) for ids in chunks))(finish)
    return {"run": run.pk, "chunks": len(chunks)}


# The one task that keeps its result (CELERY_TASK_IGNORE_RESULT is on): the chord's
# callback receives the chunks' counts through the result backend.
@shared_task(name="corr.nightly_chunk", acks_late=True, ignore_result=False)
def nightly_chunk(on: str, game_ids: list[int], run_id: int) -> dict:
    return nightly_chunk_process(on=date.fromisoformat(on), game_ids=game_ids, run_id=run_id, enqueue=True)


@shared_task(name="corr.nightly_finish")
def nightly_finish_task(chunk_counts: list[dict], on: str, run_id: int) -> dict:
    return nightly_finish(on=date.fromisoformat(on), run_id=run_id, chunk_counts=chunk_counts, now=timezone.now())


# Fire and forget, queued from requests after commit: no result backend to wait on.
@shared_task(name=SEND_TASK, bind=True, max_retries=EMAIL_MAX_RETRIES, ignore_result=True)
def emails_send(self, email_ids: list[int]) -> dict:
    """Send a batch of stored e-mails; retry the failed ones with exponential back-off (1, 2, 4 ... min).

    Run eagerly (embedded mode) a failure is not retried on the spot: the rows
    stay ``failed`` and the next nightly run sends them again.
    """
    result = emails_send_now(ids=email_ids, now=timezone.now())
    if result["failed"] and not self.request.is_eager:
        raise self.retry(args=(result["failed"],), countdown=60 * 2 ** self.request.retries)
    return {key: len(ids) for key, ids in result.items()}


# Issue 37: a background import; acks_late (the project's default): a job whose worker died is delivered again,
# and the job row's lock and state make a second run find it ended (corr.games.services.import_jobs).
@shared_task(name="corr.import_job_run", ignore_result=True)
def import_job_run(job_id: int) -> str:
    return import_jobs.import_job_run(job_id=job_id, now=timezone.now())


@shared_task(name="corr.import_jobs_resume", ignore_result=True)
def import_jobs_resume() -> list[int]:
    return import_jobs.import_jobs_resume(now=timezone.now())
