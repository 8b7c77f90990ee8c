"""Nightly benchmarks on PostgreSQL: generate N running games, time the job against the same writes in bare SQL.

Run by ``bench/run.py`` in its own process, ``DATABASE_URL`` naming a fresh
database. Prints JSON: the load time, the floor's (``nightly_floor``: the
job's writes, set-based, without the re-check) and the job's wall times,
and, with ``--scale-out``, the job's time through Celery with 1 and with 2
worker processes on the same data.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")

from common import REDIS, ROOT, service_env  # noqa: E402

def alternating(on: date, window: int, rounds: int = 3) -> dict:
    """The same-writes floor (``nightly_floor``) and the job in alternating rounds (floor, job, floor, job, ...),
    the rows reset before each run, so that the shared machine's other work falls on both alike.

    Returns each side's times, the ratio of each job run over the floor run just before it, what the floor wrote
    and the totals of the job's last run, whose rows are kept (the caller checks them against the floor's). A
    round of each runs first and is not counted: the job's first run also loads the e-mails' translation
    catalogues (~0.3 s here), and each side's first run warms its statements.
    """
    from django.conf import settings

    from corr.nightly.flags import ARTICLE_50_4_12_RU
    from corr.nightly.job import nightly_job
    from nightly_floor import floor_run

    floors, jobs, written, totals = [], [], {}, {}
    reset_flags()  # a round of each not counted: the job's first run loads the catalogues, the floor's warms its plans
    floor_run(on=on, window=window, site=settings.SITE_URL, article=ARTICLE_50_4_12_RU)
    reset_flags()
    started = time.perf_counter()
    nightly_job(on=on)
    first = time.perf_counter() - started
    for _ in range(rounds):
        reset_flags()
        seconds, written = floor_run(on=on, window=window, site=settings.SITE_URL, article=ARTICLE_50_4_12_RU)
        floors.append(seconds)
        reset_flags()
        started = time.perf_counter()
        totals = nightly_job(on=on)
        jobs.append(time.perf_counter() - started)
    ratios = [job / floor for job, floor in zip(jobs, floors, strict=True)]
    return {"floors": floors, "jobs": jobs, "ratios": ratios, "written": written, "totals": totals,
            "job_first": first}


def reset_flags() -> None:
    from corr.models import (
        DeadlineReminder, NightlyReport, NightlyRun, OutboundEmail, OverstepCase, TimeTroubleNotice,
    )

    models = (TimeTroubleNotice, DeadlineReminder, OverstepCase, NightlyReport, OutboundEmail, NightlyRun)
    for model in models:
        model.objects.all().delete()
    # The deleted rows vacuumed away, so that each round starts from the same tables (without it the rounds
    # slowed by a third over five, the floor's and the job's alike, and the ratios drifted with them).
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE " + ", ".join(model._meta.db_table for model in models))


def celery_seconds(on: date, concurrency: int, chunk: int) -> float:
    """Wall time of the nightly job through a real worker with ``concurrency`` processes."""
    import redis

    from corr.models import NightlyRun

    redis.Redis.from_url(REDIS).flushdb()
    env = service_env({"DATABASE_URL": os.environ["DATABASE_URL"], "REDIS_URL": REDIS,
                       "NIGHTLY_CHUNK_SIZE": str(chunk)})
    celery = str(Path(sys.executable).parent / "celery")
    log = Path(tempfile.mkdtemp()) / "worker.log"
    worker = subprocess.Popen([celery, "-A", "corr", "worker", f"--concurrency={concurrency}", "--loglevel=info",
                               f"--logfile={log}", "--without-gossip", "--without-mingle", "--without-heartbeat",
                               f"--hostname=bench-{concurrency}@%h"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (log.exists() and " ready." in log.read_text()):
            time.sleep(0.1)
        sender = subprocess.run([sys.executable, "-c", (
            "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'corr.settings'); django.setup();"
            f"from corr.tasks import nightly_run; import time; print(time.time()); nightly_run.delay('{on}')")],
            cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        sent_at = float(sender.stdout.split()[0])
        limit = time.monotonic() + 600
        while time.monotonic() < limit:
            run = NightlyRun.objects.filter(finished_at__isnull=False).first()
            if run is not None:
                return run.finished_at.timestamp() - sent_at
            time.sleep(0.05)
        raise RuntimeError("the nightly job did not finish in 600 s")
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--near", type=int, required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--scale-out", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from corr.benchdata import bench_data_load
    from corr.nightly.job import warning_window_days

    on = date.fromisoformat(args.date)
    started = time.perf_counter()
    summary = bench_data_load(games=args.games, near=args.near, on=on,
                              progress=lambda line: print(line, file=sys.stderr))
    load_seconds = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    chunk = max(50, args.near // 20)
    settings.NIGHTLY_CHUNK_SIZE = chunk
    runs = alternating(on, warning_window_days())
    written, totals = runs["written"], runs["totals"]
    from corr.models import OutboundEmail

    sent = OutboundEmail.objects.filter(status="sent").count()
    same = (written["notices"], written["reminders"], written["reports"], written["sent"]) == (
        totals["time_trouble_notices"], totals["reminders"], totals["reports"], sent)
    if not same:  # the ratio means something only if both wrote the same rows
        raise RuntimeError(f"the floor wrote {written}, the job {totals} and {sent} e-mails sent")
    result = {"games": args.games, "near": args.near, "load_seconds": load_seconds,
              "floor_seconds": statistics.median(runs["floors"]), "job_seconds": statistics.median(runs["jobs"]),
              "floor_runs": runs["floors"], "job_runs": runs["jobs"], "job_first_seconds": runs["job_first"],
              "ratio_median": statistics.median(runs["ratios"]), "ratio_min": min(runs["ratios"]),
              "ratio_max": max(runs["ratios"]), "selected_players": written["selected"],
              "floor_written": written,
              "totals": totals, "chunk": chunk, "events_per_game": summary.get("events_per_game")}
    if args.scale_out:
        connection.close()
        times = {}
        for concurrency in (1, 2):
            reset_flags()
            times[concurrency] = celery_seconds(on, concurrency, chunk)
        result["celery_seconds"] = times
    print(json.dumps(result))


if __name__ == "__main__":
    main()
