"""A real Celery worker on the machine's Redis runs the nightly job against the test database.

The job is enqueued from this process, fans out in chunks to the worker, and
is checked through what it stored and the e-mails it wrote; then it is run
again and must create and send nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from corr.games.clockstate import local_today

from corr.models import EmailStatus, NightlyReport, NightlyRun, OutboundEmail, OverstepCase, TimeTroubleNotice

from ..conftest import celery_conf, needs_server
from ..support.parallel import redis_for_tests
from .conftest import day

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = redis_for_tests(15)
WAIT_SECONDS = 90


def database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    return f"postgres://{s['USER'] or ''}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def redis_reachable() -> redis.Redis:
    """A client of the test's Redis database, emptied (a clean queue for this test's worker); skips without Redis."""
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
        reachable = True
    except redis.RedisError:
        reachable = False
    needs_server("Redis", reachable)
    client.flushdb()
    return client


def worker_start(mail_dir: Path, *, concurrency: int = 2, **env: str) -> subprocess.Popen:
    """``celery -A corr worker`` on the test database and Redis, e-mail into ``mail_dir``, in its own session.

    Its own session, so that ``os.killpg`` reaches the pool's child processes too. ``env`` overrides
    the worker's environment (``EMAIL_BACKEND``, say).
    """
    env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": REDIS_URL, "SECRET_KEY": "worker-test",
           "SECURE_SSL_REDIRECT": "0", "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
           "EMAIL_FILE_PATH": str(mail_dir), "NIGHTLY_CHUNK_SIZE": "2", "DJANGO_SETTINGS_MODULE": "corr.settings",
           **env}
    celery = shutil.which("celery", path=str(Path(sys.executable).parent)) or "celery"
    return subprocess.Popen([celery, "-A", "corr", "worker", "--loglevel=warning", f"--concurrency={concurrency}",
                             "--without-gossip", "--without-mingle", "--without-heartbeat",
                             f"--hostname=corr-test-{os.getpid()}-{time.monotonic_ns()}@%h"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)


def worker_stop(process: subprocess.Popen) -> None:
    """Stop a worker (a killed one is only reaped) and print its output if it shows a traceback."""
    process.terminate()
    try:
        output = process.communicate(timeout=20)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        process.kill()
        output = process.communicate()[0].decode(errors="replace")
    if "Traceback" in output:
        print(output)  # shown by pytest when the test fails


@contextmanager
def real_broker():
    """Tasks published to the test's Redis, not run in-process."""
    with celery_conf(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=REDIS_URL, CELERY_RESULT_BACKEND=REDIS_URL):
        yield


@pytest.fixture
def worker(transactional_db, tmp_path):
    redis_reachable()
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    process = worker_start(mail_dir)
    try:
        with real_broker():
            yield mail_dir
    finally:
        worker_stop(process)


def written(mail_dir: Path) -> str:
    """Everything the file-based e-mail backend wrote (one file per connection, many messages each)."""
    return "".join(path.read_text() for path in sorted(mail_dir.iterdir()))


def wait_for_runs(count: int) -> list[NightlyRun]:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        runs = list(NightlyRun.objects.filter(finished_at__isnull=False).order_by("pk"))
        if len(runs) >= count:
            return runs
        time.sleep(0.3)
    raise AssertionError(f"the worker did not finish {count} nightly run(s) in {WAIT_SECONDS} s")


def test_a_real_worker_runs_the_nightly_job_and_a_second_run_changes_nothing(worker, make_game, anna, boris, eve):
    from corr.tasks import nightly_run

    for user in (anna, boris, eve):
        user.email = f"{user.username}@example.org"
        user.save()
    games = [make_game(), make_game(white=eve, black=boris), make_game(white=boris, black=eve)]
    # The worker's clock is the real one: the run is for its today, when every white, to move since
    # 01-10, is far over control 1.
    today = local_today(games[0].tournament, timezone.now())  # the tournament's date, whatever the hour
    used = (today - day(0)).days
    nightly_run.delay(today.isoformat())
    [first] = wait_for_runs(1)
    assert first.counts == {"date": today.isoformat(), "time_trouble_notices": 0, "reminders": 0,
                            "overstep_cases": 3, "reports": 1, "cases_withdrawn": 0, "stale_skipped": 0,
                            "errors": 0}
    assert first.chunks == 2  # 3 games in chunks of 2: fanned out
    assert sorted(OverstepCase.objects.values_list("game_id", flat=True)) == sorted(g.pk for g in games)
    assert NightlyReport.objects.get().data["overstep_cases"][0]["used_days"] == used
    # E-mails are sent by the worker after the chunk commits.
    deadline = time.monotonic() + WAIT_SECONDS
    while OutboundEmail.objects.exclude(status=EmailStatus.SENT).exists() and time.monotonic() < deadline:
        time.sleep(0.3)
    # The arbiters' three case e-mails (the players' notices of the games' start go beside them: issue 38).
    assert OutboundEmail.objects.filter(status=EmailStatus.SENT, key__startswith="overstep:").count() == 3
    assert written(worker).count("Subject: Overstep case") == 3

    nightly_run.delay(today.isoformat())
    runs = wait_for_runs(2)
    assert runs[1].counts == {"date": today.isoformat(), "time_trouble_notices": 0, "reminders": 0,
                              "overstep_cases": 0, "reports": 0, "cases_withdrawn": 0, "stale_skipped": 0,
                              "errors": 0}
    time.sleep(1)  # anything queued by the second run would have been sent by now
    assert OverstepCase.objects.count() == 3 and TimeTroubleNotice.objects.count() == 0
    players = Q(key__startswith="notice:") | Q(key__startswith="digest:")  # the players' notices (issue 38)
    assert OutboundEmail.objects.exclude(players).count() == 3  # the second run sent nothing
    assert written(worker).count("Subject: Overstep case") == 3
