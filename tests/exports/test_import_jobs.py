"""Large PGN imports in the background (issue 37): a job, its state, all or nothing, run once, resumed.

The embedded run: tasks eager, so a job runs when its request's transaction commits. The real worker, killed
mid-import and started again, is tests/exports/test_import_worker.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from accounts.models import User
from corr.games import services
from corr.games.services.import_jobs import import_job_run, import_jobs_resume
from corr.models import Game, ImportJob, OutboundEmail

from .import_pgn import event_pgn

pytestmark = pytest.mark.django_db
START = datetime(2026, 2, 21, 6, 0, tzinfo=UTC)


@pytest.fixture
def target(arbiter, settings):
    settings.IMPORT_INLINE_GAMES = 2  # three games are a background import here
    return services.tournament_create(by=arbiter, name="ICCF cup (imported)", official_start=START.date(),
                                      mode="server", preset="iccf_10_50", time_zone="UTC")


@pytest.fixture
def players(db):
    return [User.objects.create_user(f"p{i}", f"p{i}@example.org", f"p{i}-pass-123") for i in range(6)]


def pairs(players):
    return [(players[i].username, players[i + 1].username) for i in range(0, len(players), 2)]


def post(api, user, tournament, pgn):
    return api(user).post(f"/api/tournaments/{tournament.pk}/import/", {"pgn": pgn}, format="json")


def test_a_large_import_answers_a_job_at_once_and_the_job_ends_with_every_game(
        api, arbiter, target, players, frozen, django_capture_on_commit_callbacks):
    pgn = event_pgn(pairs(players), 20, START)
    with django_capture_on_commit_callbacks(execute=True) as queued:
        r = post(api, arbiter, target, pgn)
    assert r.status_code == 202, r.json()
    job = r.json()["job"]
    assert (job["status"], job["total"], job["games"]) == ("queued", 3, [])
    assert r["Location"] == f"/api/import-jobs/{job['id']}/" and queued  # the job queued after commit
    done = api(arbiter).get(r["Location"]).json()
    assert (done["status"], done["done"], done["refused_so_far"], len(done["games"])) == ("done", 3, 0, 3)
    assert sorted(done["games"]) == sorted(Game.objects.filter(tournament=target).values_list("pk", flat=True))
    email = OutboundEmail.objects.get(key=f"import:{job['id']}")
    assert email.recipients == ["arbiter@example.org"]
    assert email.subject == f"Import #{job['id']} into ICCF cup (imported): 3 games imported"


def test_a_refused_game_refuses_the_job_naming_it_and_imports_nothing(
        api, arbiter, target, players, frozen, django_capture_on_commit_callbacks):
    pgn = event_pgn(pairs(players), 10, START, illegal_in=2)
    with django_capture_on_commit_callbacks(execute=True):
        r = post(api, arbiter, target, pgn)
    job = api(arbiter).get(r["Location"], HTTP_ACCEPT_LANGUAGE="fr").json()
    assert (job["status"], job["status_text"], job["refused_so_far"]) == ("refused", "refusé : rien importé", 1)
    assert job["refusals"] == ["game 2 (p2 - p3), move 10... (black): Ke3 is not a legal move there; the game is"
                               " refused whole rather than cut before it"]
    assert not Game.objects.filter(tournament=target).exists()


def test_a_job_runs_once_whatever_delivers_it_again(arbiter, target, players, frozen):
    job = services.import_jobs.import_job_create(tournament=target, by=arbiter, now=START + timedelta(days=8),
                                                 pgn=event_pgn(pairs(players), 5, START))
    now = datetime.now(UTC)
    assert import_job_run(job_id=job.pk, now=now) == "done"
    assert import_job_run(job_id=job.pk, now=now) == "done"  # a second delivery finds it ended
    assert Game.objects.filter(tournament=target).count() == 3
    job.refresh_from_db()
    assert job.attempts == 1 and OutboundEmail.objects.filter(key=f"import:{job.pk}").count() == 1


def test_the_sweep_queues_again_a_job_never_queued_or_whose_worker_died(arbiter, target, players, frozen, settings):
    settings.IMPORT_JOB_STALE_SECONDS = 60
    now = datetime.now(UTC)
    queued = ImportJob.objects.create(tournament=target, created_by=arbiter, created_at=now - timedelta(minutes=5),
                                      pgn=event_pgn(pairs(players[:2]), 5, START), total=1)
    died = ImportJob.objects.create(tournament=target, created_by=arbiter, created_at=now - timedelta(minutes=5),
                                    pgn=event_pgn(pairs(players[2:4]), 5, START), total=1, status="running",
                                    claimed_at=now - timedelta(minutes=2), attempts=1)
    running = ImportJob.objects.create(tournament=target, created_by=arbiter, created_at=now, total=1,
                                       pgn=event_pgn(pairs(players[4:]), 5, START), status="running", claimed_at=now)
    assert import_jobs_resume(now=now) == [queued.pk, died.pk]  # eager: run here, at once
    statuses = dict(ImportJob.objects.values_list("pk", "status"))
    assert (statuses[queued.pk], statuses[died.pk], statuses[running.pk]) == ("done", "done", "running")
    assert ImportJob.objects.get(pk=died.pk).attempts == 2
    assert Game.objects.filter(tournament=target).count() == 2


def test_only_the_tournaments_arbiters_see_a_job(api, arbiter, other_arbiter, target, players, frozen, anna):
    job = services.import_jobs.import_job_create(tournament=target, by=arbiter, now=START,
                                                 pgn=event_pgn(pairs(players), 5, START))
    assert api(anna).get(f"/api/import-jobs/{job.pk}/").status_code == 403
    assert api(other_arbiter).get(f"/api/import-jobs/{job.pk}/").status_code == 403
    assert api(arbiter).get(f"/api/import-jobs/{job.pk}/").status_code == 200


@pytest.mark.parametrize("language, words", [("en", "3 games imported"), ("ru", "Импортированы 3 партии"),
                                             ("fr", "3 parties importées")])
def test_the_page_starts_the_job_and_shows_it(arbiter, target, players, frozen, django_capture_on_commit_callbacks,
                                              language, words):
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = Client(HTTP_ACCEPT_LANGUAGE=language)
    page.force_login(arbiter)
    upload = SimpleUploadedFile("event.pgn", event_pgn(pairs(players), 10, START).encode(), "application/x-chess-pgn")
    with django_capture_on_commit_callbacks(execute=True):
        r = page.post(f"/tournaments/{target.pk}/import/", {"pgn": upload})
    assert r.status_code == 302
    text = page.get(f"/tournaments/{target.pk}/").content.decode()
    assert 'id="import-jobs"' in text and words in text
    assert 'http-equiv="refresh"' not in text  # it ended: the page no longer reloads itself


def test_a_running_job_reloads_the_page(arbiter, target, players, frozen):
    ImportJob.objects.create(tournament=target, created_by=arbiter, created_at=START, total=3, status="running",
                             pgn=event_pgn(pairs(players), 5, START), claimed_at=START)
    page = Client()
    page.force_login(arbiter)
    text = page.get(f"/tournaments/{target.pk}/").content.decode()
    assert '<meta http-equiv="refresh" content="5">' in text and "importing" in text
