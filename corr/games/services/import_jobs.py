"""Large PGN imports in the background (issue 37): the upload stored as a job, imported by a Celery worker.

An import of more than ``IMPORT_INLINE_GAMES`` games does not hold the request: the PGN is stored as an
``ImportJob`` and the request answers at once; a worker imports it, all or nothing as before
(``corr.games.services.imports``), and tells the arbiter who uploaded it by e-mail when it ends.

The outbox's reliability rules (``corr.outbox``), for a job:

- **stored first, queued after commit**: a job whose queueing failed (the broker down) stays ``queued``, and
  the resume sweep (``import_jobs_resume``: the beat every ``IMPORT_RESUME_SECONDS``, and the nightly run)
  queues it again;
- **once, whatever the worker does**: the games and the job's end (``done`` with the games' ids, or
  ``refused`` with a line per refused game) are written in one transaction, under the job row's lock. A
  worker killed mid-import leaves nothing (the transaction is rolled back with its connection); its job,
  still ``running`` with a claim older than ``IMPORT_JOB_STALE_SECONDS``, is queued again by the sweep and
  imported from the start; a second delivery of a job that ended, or that another worker holds, waits for
  the lock and finds it ended: nothing is imported twice;
- **progress is advisory**: the games read so far and the refusals so far are kept in Redis (the web
  processes and the workers share it) while the job runs; without Redis (the embedded run, whose tasks run
  in the request) the page shows the job's state alone.
"""

from __future__ import annotations

import importlib
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.language import user_language
from accounts.models import User
from corr.links import absolute_url
from corr.models import ImportJob, ImportStatus, Tournament
from corr.outbox import email_prepare, emails_store

from ..errors import InvalidInput
from .import_names import pgn_tags
from .imports import GAMES_MAX, ImportRefused, import_checked, tournament_pgn_import

log = logging.getLogger(__name__)

RUN_TASK = "corr.import_job_run"
ENDED = (ImportStatus.DONE, ImportStatus.REFUSED)
WAITING = (ImportStatus.NAMES, *ENDED)
"""A run finds nothing to do in these: ended, or waiting for the arbiter's names."""
PROGRESS_TTL_SECONDS = 24 * 3600


def pgn_games_count(pgn: str) -> int:
    """How many games ``pgn`` holds, read by their tags alone (``import_names.pgn_tags``, read once)."""
    return len(pgn_tags(pgn))


def import_in_background(pgn: str) -> bool:
    """Whether an import of ``pgn`` goes to a worker: more games than ``IMPORT_INLINE_GAMES``."""
    return pgn_games_count(pgn) > settings.IMPORT_INLINE_GAMES


def import_job_create(*, tournament: Tournament, by: User, pgn: str, now: datetime,
                      players: dict[str, str] | None = None, names_pending: bool = False) -> ImportJob:
    """Store ``pgn`` as a job of ``tournament`` and queue it once this transaction commits.

    ``players``: the names the arbiter matched to accounts (``import_names``). ``names_pending``: the page's
    upload of a PGN whose names are not all accounts: the job waits (``names``) until the arbiter matches them
    (``import_job_names_set``), and is not queued before.

    :raises NotAllowed: ``by`` does not arbitrate the tournament (403). :raises InvalidInput: not a chess server or
        postal tournament, no game in the text, or more than ``GAMES_MAX`` games (``field: "pgn"``): no job is made.
    """
    import_checked(tournament, by)
    total = pgn_games_count(pgn)
    if total == 0:
        raise InvalidInput(_("no PGN game found (a game starts with tags such as [Event \"...\"] and its moves)"),
                           field="pgn")
    if total > GAMES_MAX:
        raise InvalidInput(_("at most %(max)s games in one import"), field="pgn", max=GAMES_MAX)
    job = ImportJob.objects.create(tournament=tournament, created_by=by, created_at=now, pgn=pgn, total=total,
                                   players=players or {},
                                   status=ImportStatus.NAMES if names_pending else ImportStatus.QUEUED)
    if not names_pending:
        job_id = job.pk
        transaction.on_commit(lambda: import_job_enqueue(job_id))
    return job


def import_job_names_set(*, job: ImportJob, by: User, players: dict[str, str]) -> ImportJob:
    """The arbiter's mapping of the job's names to accounts: the job is queued once this transaction commits.

    :raises NotAllowed: ``by`` does not arbitrate the tournament. :raises InvalidInput: the job is not waiting for
        names (``field: "players"``).
    """
    import_checked(job.tournament, by)
    job = ImportJob.objects.select_for_update().get(pk=job.pk)
    if job.status != ImportStatus.NAMES:
        raise InvalidInput(_("import #%(job)s is not waiting for names: it is %(status)s"), field="players",
                           job=job.pk, status=ImportStatus(job.status).label)
    job.players, job.status = players, ImportStatus.QUEUED
    job.save(update_fields=["players", "status"])
    job_id = job.pk
    transaction.on_commit(lambda: import_job_enqueue(job_id))
    return job


def import_job_enqueue(job_id: int) -> bool:
    """Queue the job's run (run it here when tasks are eager); False when the broker cannot be reached."""
    from corr.celery import app

    try:
        if app.conf.task_always_eager:
            if RUN_TASK not in app.tasks:
                importlib.import_module("corr.tasks")  # loaded by name: nothing imports the tasks statically
            app.tasks[RUN_TASK].apply(args=(job_id,))
            return True
        app.send_task(RUN_TASK, args=(job_id,), retry=False, ignore_result=True)
        return True
    except Exception as error:  # noqa: BLE001 - any broker fault: the job stays queued, the sweep queues it again
        log.warning("import job %s not queued (%s); the resume sweep queues it", job_id, error)
        return False


def import_job_run(*, job_id: int, now: datetime) -> str:
    """Import job ``job_id`` (a worker's task): claim it, then its games and its end in one transaction.

    :returns: the job's status after the run (an ended job is left as it is).
    """
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status in WAITING:
            return job.status if job is not None else "missing"
        job.status, job.claimed_at, job.attempts = ImportStatus.RUNNING, now, job.attempts + 1
        job.save(update_fields=["status", "claimed_at", "attempts"])
    with transaction.atomic():
        # The lock is held to the end: another delivery of this job waits here, then finds it ended.
        job = ImportJob.objects.select_for_update().select_related("tournament", "created_by").get(pk=job_id)
        if job.status in WAITING:
            return job.status
        try:
            games = tournament_pgn_import(tournament=job.tournament, by=job.created_by, pgn=job.pgn, now=now,
                                          progress=lambda done, refused: progress_write(job_id, done, refused),
                                          players=job.players)
            job.status, job.game_ids = ImportStatus.DONE, [game.pk for game in games]
        except ImportRefused as refused:
            job.status, job.refusals = ImportStatus.REFUSED, refused.lines
        except InvalidInput as error:  # the tournament changed since the upload, say: the reason is the line
            job.status, job.refusals = ImportStatus.REFUSED, [str(error.message)]
        job.finished_at = now
        job.save(update_fields=["status", "game_ids", "refusals", "finished_at"])
        emails_store([_end_email(job)], enqueue=True)
    progress_clear(job_id)
    return job.status


def import_jobs_resume(*, now: datetime) -> list[int]:
    """Queue again the jobs a worker should have: queued for over a minute (the broker was down when they were
    stored), or running under a claim older than ``IMPORT_JOB_STALE_SECONDS`` (its worker died). Their ids."""
    stale = now - timedelta(seconds=settings.IMPORT_JOB_STALE_SECONDS)
    due = list(ImportJob.objects.filter(status=ImportStatus.QUEUED, created_at__lt=now - timedelta(minutes=1))
               .values_list("pk", flat=True))
    due += list(ImportJob.objects.filter(status=ImportStatus.RUNNING, claimed_at__lt=stale)
                .values_list("pk", flat=True))
    return [job_id for job_id in sorted(due) if import_job_enqueue(job_id)]


def import_job_json(job: ImportJob) -> dict:
    """The job as the API and the page read it: its state, and while it runs the games read and refused so far."""
    done, refused = progress_read(job.pk) if job.status == ImportStatus.RUNNING else (None, None)
    if job.status == ImportStatus.DONE:
        done, refused = job.total, 0
    elif job.status == ImportStatus.REFUSED:
        done, refused = job.total, len(job.refusals)
    return {"id": job.pk, "tournament": job.tournament_id, "status": job.status,
            "status_text": str(ImportStatus(job.status).label), "total": job.total, "done": done,
            "refused_so_far": refused, "games": job.game_ids, "refusals": job.refusals,
            "created_at": job.created_at.isoformat(), "finished_at": job.finished_at.isoformat()
            if job.finished_at else None}


def _end_email(job: ImportJob):
    """The uploader's e-mail when the job ends, in their language (keyed by the job: sent once)."""
    person = job.created_by
    with translation.override(user_language(person)):
        values = {"job": job.pk, "tournament": job.tournament.name, "total": job.total,
                  "refused": len(job.refusals)}
        if job.status == ImportStatus.DONE:
            subject = ngettext("Import #%(job)s into %(tournament)s: %(total)s game imported",
                               "Import #%(job)s into %(tournament)s: %(total)s games imported", job.total) % values
            lines = []
        else:
            subject = (gettext("Import #%(job)s into %(tournament)s refused: %(refused)s of %(total)s games;"
                               " nothing was imported") % values)
            lines = job.refusals
        link = absolute_url(f"/tournaments/{job.tournament_id}/#import")
        body = subject + ".\n\n" + "".join(f"- {line}\n" for line in lines) + ("\n" if lines else "") + link + "\n"
    return email_prepare(key=f"import:{job.pk}", tournament_id=job.tournament_id,
                         recipients=[person.email] if person.email else [], subject=subject[:200], body=body)


def _redis():
    """A Redis client of ``REDIS_URL`` (short timeouts: progress never holds an import up); None without one."""
    if not settings.REDIS_URL:
        return None
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)


def _progress_key(job_id: int) -> str:
    return f"corr:import:{job_id}:progress"


def progress_write(job_id: int, done: int, refused: int) -> None:
    """Keep the games read and refused so far (advisory: a Redis fault is logged and the import goes on)."""
    client = _redis()
    if client is None:
        return
    try:
        client.hset(_progress_key(job_id), mapping={"done": done, "refused": refused})
        client.expire(_progress_key(job_id), PROGRESS_TTL_SECONDS)
    except Exception as error:  # noqa: BLE001 - progress is advisory
        log.warning("import job %s: progress not kept (%s)", job_id, error)


def progress_read(job_id: int) -> tuple[int | None, int | None]:
    """The games read and refused so far, or (None, None) when not known (no Redis, or not begun)."""
    client = _redis()
    if client is None:
        return None, None
    try:
        values = client.hgetall(_progress_key(job_id))
    except Exception:  # noqa: BLE001 - progress is advisory
        return None, None
    if not values:
        return None, None
    return int(values[b"done"]), int(values[b"refused"])


def progress_clear(job_id: int) -> None:
    client = _redis()
    if client is not None:
        try:
            client.delete(_progress_key(job_id))
        except Exception:  # noqa: BLE001 - it expires anyway
            pass
