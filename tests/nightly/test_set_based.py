"""The nightly job's set-based parts: inserts that return only what they created, claims that hand each
e-mail to one sender, the chunk's entry dates, and reports built by the database equal to those built in Python.

Run on SQLite and on PostgreSQL (``DATABASE_URL``): each backend has its own SQL path.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
import time_machine

from corr.models import EmailStatus, GameEvent, NightlyReport, OutboundEmail, TimeTroubleNotice
from corr.outbox import email_prepare, emails_claim, emails_store
from corr.nightly.job import chunk_games, chunk_rows, nightly_job
from corr.nightly.reports import nightly_reports_create, report_data
from corr.sql import insert_new

from .conftest import at, day

pytestmark = pytest.mark.django_db


def test_an_insert_returns_the_rows_it_created_and_skips_those_that_exist(make_game):
    game = make_game()
    now = datetime.now(timezone.utc)
    columns = ("game", "player", "control_number", "remaining_days", "deadline", "noticed_on", "run", "claim",
               "created_at")
    row = (game.pk, "white", 1, 4, day(30), day(26), None, uuid.uuid4(), now)
    other = (game.pk, "white", 2, 5, day(60), day(55), None, uuid.uuid4(), now)
    first = insert_new(TimeTroubleNotice, columns, [row], returning=("game_id", "control_number"))
    assert first == [(game.pk, 1)]
    second = insert_new(TimeTroubleNotice, columns, [row, other], returning=("game_id", "control_number"))
    assert second == [(game.pk, 2)]  # control 1 was noticed already: skipped, not returned
    assert TimeTroubleNotice.objects.count() == 2


def test_an_email_is_claimed_by_one_sender_only(make_game):
    game = make_game()
    ids = emails_store([email_prepare(key="k1", tournament_id=game.tournament_id, recipients=["a@example.org"],
                                      subject="s", body="b"),
                        email_prepare(key="k2", tournament_id=game.tournament_id, recipients=[], subject="s",
                                      body="b")], enqueue=False)
    assert len(ids) == 2
    assert emails_store([email_prepare(key="k1", tournament_id=None, recipients=["x@example.org"], subject="s",
                                       body="b")], enqueue=False) == []  # the key exists: kept, not doubled
    now = datetime.now(timezone.utc)
    first = emails_claim(ids=ids, now=now).emails
    assert [(e.recipients, e.subject, e.attempts) for e in first] == [(["a@example.org"], "s", 0)]
    assert emails_claim(ids=ids, now=now).emails == []  # claimed already; the one without an address never
    assert OutboundEmail.objects.get(key="k2").status == EmailStatus.FAILED


def test_a_chunk_reads_the_day_an_event_was_entered_in_the_tournament_zone(make_game, anna):
    game = make_game()  # the postal cup plays in Moscow (UTC+3)
    late = datetime(2026, 1, 20, 22, 30, tzinfo=timezone.utc)  # 21 January, 01:30 in Moscow
    GameEvent.objects.create(game=game, seq=99, kind="penalty", player="white", number=1, reason="address_error",
                             entered_by=anna, entered_at=late)
    [row] = [r for r in chunk_rows(chunk_games([game.pk]))[game.pk] if r.seq == 99]
    assert row.entered_on == day(11)  # 2026-01-21
    assert (row.kind, row.player, row.reason) == ("penalty", "white", "address_error")


def test_the_stored_report_is_the_report_data_of_the_date(make_game, eve, boris):
    make_game()
    make_game(white=eve, black=boris)
    with time_machine.travel(at(day(26)), tick=False):
        nightly_job(on=day(26))  # time trouble and deadlines soon
        expected = {tid: {"date": day(26).isoformat(), **body} for tid, body in report_data(on=day(26)).items()}
        [report] = NightlyReport.objects.filter(date=day(26))
        assert report.data == expected[report.tournament_id]
        assert report.data["time_trouble"] and report.data["deadlines_soon"]
        assert nightly_reports_create(on=day(26), run_id=None) == 0  # exists: nothing created twice
    with time_machine.travel(at(day(31)), tick=False):
        nightly_job(on=day(31))  # two overstep cases announced that night
        expected = {tid: {"date": day(31).isoformat(), **body} for tid, body in report_data(on=day(31)).items()}
    [report] = NightlyReport.objects.filter(date=day(31))
    assert report.data == expected[report.tournament_id]
    assert len(report.data["overstep_cases"]) == 2
