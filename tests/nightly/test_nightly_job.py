"""The nightly job: selection, flags at the boundaries, idempotency, e-mails and reports.

A postal game starts 2026-01-10; white's move 1 is pending from that day, so
on day n white has used n days of 30: n = 25 leaves exactly 5 (time trouble,
50.4.12), n = 24 leaves 6, n = 30 is the deadline day (0 left) and n = 31 is
the day after the deadline (control 1 exceeded).
"""

from __future__ import annotations

import io
import json

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command

from corr.models import (
    DeadlineReminder, EmailStatus, NightlyReport, OutboundEmail, OverstepCase, PlayerClock, TimeTroubleNotice,
)
from corr.nightly.flags import reminder_threshold
from corr.nightly.job import nightly_job, nightly_select

from .conftest import at, day

pytestmark = pytest.mark.django_db


def run(n: int) -> dict:
    with time_machine.travel(at(day(n)), tick=False):
        return nightly_job(on=day(n))


@pytest.mark.parametrize("days_left, thresholds, expected", [
    (8, [7, 2], None), (7, [7, 2], 7), (3, [7, 2], 7), (2, [7, 2], 2), (0, [7, 2], 2), (-1, [7, 2], None),
    (5, [], None), (10, [14], 14),
])
def test_the_tightest_reached_reminder_threshold_applies(days_left, thresholds, expected):
    assert reminder_threshold(days_left, thresholds) == expected


def test_it_flags_a_player_with_exactly_five_days_left(make_game, anna):
    anna.email = "anna@example.org"
    anna.save()
    game = make_game()
    totals = run(25)
    assert totals["time_trouble_notices"] == 1
    notice = TimeTroubleNotice.objects.get()
    assert (notice.game_id, notice.player, notice.remaining_days, notice.deadline) == (game.pk, "white", 5, day(30))
    sent = [m for m in mail.outbox if "Time trouble" in m.subject]
    assert len(sent) == 1 and sent[0].to == ["anna@example.org"]
    assert "registered mail" in sent[0].body and "2026-02-09" in sent[0].body


def test_six_days_left_is_not_time_trouble(make_game):
    make_game()
    assert run(24)["time_trouble_notices"] == 0
    assert TimeTroubleNotice.objects.count() == 0


def test_the_deadline_day_itself_is_not_an_overstep_and_gets_the_last_reminder(make_game):
    make_game()
    totals = run(30)
    assert totals["overstep_cases"] == 0
    assert list(DeadlineReminder.objects.values_list("days_before", flat=True)) == [2]


def test_the_day_after_the_deadline_opens_an_overstep_case_and_mails_the_arbiters(make_game, arbiter):
    game = make_game()
    totals = run(31)
    assert totals["overstep_cases"] == 1
    case = OverstepCase.objects.get()
    assert (case.game_id, case.player, case.control_number, case.used_days, case.allowed_days) == (
        game.pk, "white", 1, 31, 30)
    assert any(m.to == [arbiter.email] and "Overstep case" in m.subject for m in mail.outbox)


def test_reminders_come_seven_and_two_days_before_each_once(make_game):
    make_game()
    assert run(22)["reminders"] == 0            # 8 days before the deadline 02-09
    assert run(23)["reminders"] == 1            # 7 days before
    assert run(24)["reminders"] == 0            # 6 days: the 7-day reminder was sent
    assert run(28)["reminders"] == 1            # 2 days before
    assert run(29)["reminders"] == 0
    assert sorted(DeadlineReminder.objects.values_list("days_before", flat=True)) == [2, 7]


def test_a_second_run_for_the_same_date_creates_and_sends_nothing(make_game):
    make_game()
    first = run(31)
    sent = len(mail.outbox)
    second = run(31)
    assert first["overstep_cases"] == 1 and first["reports"] == 1
    assert second == {"date": "2026-02-10", "time_trouble_notices": 0, "reminders": 0, "overstep_cases": 0,
                      "reports": 0,
     "cases_withdrawn": 0, "stale_skipped": 0, "errors": 0}
    assert len(mail.outbox) == sent


def test_it_selects_by_stored_deadline_and_leaves_the_other_games_alone(make_game, anna, boris, eve):
    near = make_game()
    far = make_game(white=boris, black=eve)
    # The far game's white moved on day 20: black's move counts from day 20 + 4 transit, deadline day 54.
    from corr.games import services
    with time_machine.travel(at(day(20)), tick=False):
        services.move_submit(game=far, by=boris, number=1, sent_on=day(20), today=day(20))
    assert nightly_select(on=day(22)) == []  # near: deadline day 30, beyond the 7-day window
    assert nightly_select(on=day(23)) == [near.pk]


def test_a_stale_stored_flag_never_produces_a_wrong_notice(make_game):
    game = make_game()
    # Pretend the stored account says time trouble: the re-check as of day 10 (20 left) finds none.
    PlayerClock.objects.filter(game=game, player="white").update(flagged=True, time_trouble=True, remaining_days=1)
    assert nightly_select(on=day(10)) == [game.pk]
    assert run(10)["time_trouble_notices"] == 0
    assert PlayerClock.objects.get(game=game, player="white").remaining_days == 20  # refreshed as of day 10


def test_a_run_that_died_half_way_is_finished_by_running_again(make_game, anna, boris, eve, settings):
    from corr.nightly.job import nightly_chunk_process, nightly_start

    settings.NIGHTLY_CHUNK_SIZE = 1
    make_game()
    make_game(white=eve, black=boris)
    with time_machine.travel(at(day(31)), tick=False):
        run_, chunks = nightly_start(on=day(31))
        assert len(chunks) == 2
        nightly_chunk_process(on=day(31), game_ids=chunks[0], run_id=run_.pk, enqueue=False)  # then it "died"
    assert OverstepCase.objects.count() == 1
    totals = run(31)
    assert totals["overstep_cases"] == 1 and OverstepCase.objects.count() == 2


def test_the_report_lists_deadlines_time_trouble_and_new_cases(make_game, eve, boris):
    late = make_game()
    soon = make_game(white=eve, black=boris)
    run(26)  # both whites pending since day 0: 26 used, 4 left, deadline day 30
    report = NightlyReport.objects.get(date=day(26))
    data = report.data
    assert [(i["game"], i["player"], i["remaining_days"]) for i in data["time_trouble"]] == [
        (late.pk, "white", 4), (soon.pk, "white", 4)]
    assert {i["game"] for i in data["deadlines_soon"]} == {late.pk, soon.pk}
    assert data["deadlines_soon"][0]["deadline"] == "2026-02-09"
    assert data["overstep_cases"] == []
    run(31)
    cases = NightlyReport.objects.get(date=day(31)).data["overstep_cases"]
    assert [(c["game"], c["player"], c["used_days"], c["allowed_days"]) for c in cases] == [
        (late.pk, "white", 31, 30), (soon.pk, "white", 31, 30)]


def test_a_failed_email_is_never_marked_sent_and_the_next_run_sends_it(make_game, anna, settings):
    anna.email = "anna@example.org"
    anna.save()
    make_game()
    settings.EMAIL_BACKEND = "tests.nightly.failing_backend.EmailBackend"
    run(25)
    email = OutboundEmail.objects.get(key__startswith="time_trouble:")
    assert (email.status, email.attempts, email.sent_at) == (EmailStatus.FAILED, 1, None)
    assert "SMTP server refused" in email.last_error
    run(26)  # the report of the next night shows the failure
    failures = NightlyReport.objects.get(date=day(26)).data["email_failures"]
    assert failures and failures[0]["key"] == email.key
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    run(27)
    email.refresh_from_db()
    assert email.status == EmailStatus.SENT and email.attempts >= 2
    assert [m.to for m in mail.outbox if "Time trouble" in m.subject] == [["anna@example.org"]]


def test_the_nightly_command_prints_exactly_the_counts(make_game):
    make_game()
    out = io.StringIO()
    with time_machine.travel(at(day(31)), tick=False):
        call_command("nightly", "--date", day(31).isoformat(), "--json", stdout=out)
    assert json.loads(out.getvalue()) == {"date": "2026-02-10", "time_trouble_notices": 0, "reminders": 0,
                                          "overstep_cases": 1, "reports": 1,
     "cases_withdrawn": 0, "stale_skipped": 0, "errors": 0}


def test_an_event_that_puts_a_player_in_time_trouble_shows_at_once_and_is_mailed_by_that_night(
        make_game, arbiter, anna, api, django_capture_on_commit_callbacks):
    anna.email = "anna@example.org"
    anna.save()
    game = make_game()
    with time_machine.travel(at(day(20)), tick=False), django_capture_on_commit_callbacks(execute=True) as queued:
        # 20 days used, 10 left; a first penalty of 5 leaves 5: time trouble on the page at once.
        r = api(arbiter).post(f"/api/games/{game.pk}/penalties/", {"player": "white", "reason": "address_error"},
                              format="json")
        assert r.status_code == 201
        assert r.json()["clock"]["players"]["white"]["time_trouble"] is True
        assert PlayerClock.objects.get(game=game, player="white").flagged
    assert queued == [] and mail.outbox == [] and TimeTroubleNotice.objects.count() == 0
    assert run(20)["time_trouble_notices"] == 1  # the night's re-check announces it, once
    assert [m.to for m in mail.outbox if m.subject.startswith("Time trouble")] == [["anna@example.org"]]
    assert run(20)["time_trouble_notices"] == 0
