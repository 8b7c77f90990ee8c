"""Faults (broker down, concurrent runs) and the arbiters' API of the nightly work."""

from __future__ import annotations

import threading

import pytest
import time_machine
from django.core import mail
from django.db import connection

from corr.celery import app

from ..conftest import celery_conf
from corr.models import EmailStatus, Game, OutboundEmail, OverstepCase, TimeTroubleNotice
from corr.nightly.job import nightly_job

from .conftest import at, day


@pytest.fixture
def broker_down():
    """Point Celery at a port where no broker listens, with eager execution off."""
    with celery_conf(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        yield


@pytest.mark.django_db
def test_with_the_broker_down_a_chunk_is_stored_and_its_email_waits_for_the_next_run(
        make_game, anna, arbiter, broker_down, django_capture_on_commit_callbacks):
    from corr.nightly.job import nightly_chunk_process

    anna.email = "anna@example.org"
    anna.save()
    game = make_game()
    with time_machine.travel(at(day(26)), tick=False), django_capture_on_commit_callbacks(execute=True):
        # What a worker runs for one chunk: it queues its e-mails after commit, and the broker is down.
        nightly_chunk_process(on=day(26), game_ids=[game.pk], run_id=None, enqueue=True)
    assert TimeTroubleNotice.objects.count() == 1  # 26 days used: 4 left
    email = OutboundEmail.objects.get(key__startswith="time_trouble:")
    assert email.status == EmailStatus.PENDING and mail.outbox == []
    app.conf.update(CELERY_TASK_ALWAYS_EAGER=True)
    with time_machine.travel(at(day(27)), tick=False):
        nightly_job(on=day(27))
    email.refresh_from_db()
    assert email.status == EmailStatus.SENT
    assert [m.to for m in mail.outbox if m.subject.startswith("Time trouble")] == [["anna@example.org"]]


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_create_each_flag_once(make_game, eve, boris):
    for white in (None, eve):
        make_game(white=white, black=boris)
    results, errors = [], []

    def go():
        try:
            with time_machine.travel(at(day(31)), tick=False):
                results.append(nightly_job(on=day(31)))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert OverstepCase.objects.count() == 2
    assert sum(r["overstep_cases"] for r in results) == 2
    assert sum(r["reports"] for r in results) == 1
    assert len([m for m in mail.outbox if "Overstep" in m.subject]) == 2


@pytest.mark.django_db
def test_the_reports_api_returns_the_arbiters_tournaments_for_a_date(make_game, arbiter, api):
    game = make_game()
    with time_machine.travel(at(day(31)), tick=False):
        nightly_job(on=day(31))
    body = api(arbiter).get("/api/reports/nightly/?date=2026-02-10").json()
    assert body["date"] == "2026-02-10"
    [tournament] = body["tournaments"]
    assert tournament["id"] == game.tournament_id and tournament["name"] == "Postal cup"
    [case] = tournament["overstep_cases"]
    assert {k: case[k] for k in ("game", "player", "username", "deadline", "remaining_days")} == {
        "game": game.pk, "player": "white", "username": "anna", "deadline": "2026-02-09", "remaining_days": -1}
    assert set(tournament) >= {"id", "name", "deadlines_soon", "time_trouble", "overstep_cases"}


@pytest.mark.django_db
def test_the_reports_api_is_for_arbiters_and_checks_the_date(make_game, anna, other_arbiter, api):
    make_game()
    with time_machine.travel(at(day(31)), tick=False):
        nightly_job(on=day(31))
    assert api(anna).get("/api/reports/nightly/?date=2026-02-10").status_code == 403
    assert api(other_arbiter).get("/api/reports/nightly/?date=2026-02-10").json()["tournaments"] == []
    r = api(other_arbiter).get("/api/reports/nightly/?date=10.02.2026")
    assert r.status_code == 400 and r.json()["field"] == "date"


@pytest.mark.django_db
def test_confirming_a_case_ends_the_game_lost_on_time(make_game, arbiter, api):
    game = make_game()
    with time_machine.travel(at(day(31)), tick=False):
        nightly_job(on=day(31))
        case = OverstepCase.objects.get()
        assert api(arbiter).get("/api/overstep-cases/?status=open").json()[0]["id"] == case.pk
        r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/confirm/")
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "confirmed" and r.json()["game_result"] == "0-1"
    game.refresh_from_db()
    assert game.status == "finished" and "lost on time" in game.termination
    assert api(arbiter).post(f"/api/overstep-cases/{case.pk}/dismiss/", {"reason": "x"}).status_code == 409


@pytest.mark.django_db
def test_dismissing_a_case_needs_a_reason_and_keeps_it(make_game, arbiter, anna, api):
    game = make_game()
    with time_machine.travel(at(day(31)), tick=False):
        nightly_job(on=day(31))
    case = OverstepCase.objects.get()
    assert api(anna).post(f"/api/overstep-cases/{case.pk}/dismiss/", {"reason": "x"}).status_code == 403
    assert api(arbiter).post(f"/api/overstep-cases/{case.pk}/dismiss/", {"reason": ""}).status_code == 400
    r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/dismiss/", {"reason": "postmark shows 02-09"})
    assert r.json()["status"] == "dismissed" and r.json()["decision_reason"] == "postmark shows 02-09"
    assert Game.objects.get(pk=game.pk).status == "ongoing"


@pytest.mark.django_db
def test_the_arbiter_pages_show_cases_and_reports_with_a_csv(make_game, arbiter):
    from django.test import Client

    game = make_game()
    with time_machine.travel(at(day(31)), tick=False):
        nightly_job(on=day(31))
    client = Client()
    client.force_login(arbiter)
    page = client.get(f"/tournaments/{game.tournament_id}/").content.decode()
    assert "Confirm: lost on time" in page and "2026-02-10" in page
    csv_text = client.get(f"/tournaments/{game.tournament_id}/reports/2026-02-10.csv").content.decode()
    assert csv_text.splitlines()[0] == "section,game,player,username,deadline,remaining_days"
    assert f"overstep_cases,{game.pk},white,anna,2026-02-09,-1" in csv_text
    case = OverstepCase.objects.get()
    client.post(f"/overstep-cases/{case.pk}/decide/", {"decision": "dismiss", "reason": "appeal"})
    case.refresh_from_db()
    assert case.status == "dismissed"


def test_beat_runs_the_nightly_job_once_a_day_at_the_configured_hour(settings):
    app.finalize()
    entry = app.conf.beat_schedule["nightly deadline work"]
    assert entry["task"] == "corr.nightly_run"
    assert entry["schedule"].hour == {settings.NIGHTLY_HOUR} and entry["schedule"].minute == {0}
