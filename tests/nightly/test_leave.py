"""The nightly job follows stopped clocks (issue 14): no reminder, notice or case for days that do not count.

White's move 1 runs from 2026-01-10 (30 days). Without leave, day 25 (4 Feb) is time trouble and
day 31 (10 Feb) an overstep; anna's leave 20 Jan - 20 Feb stops her clock from day 10.
"""

from __future__ import annotations

from datetime import date

import pytest
import time_machine

from corr.games.services.leave import leave_book
from corr.models import DeadlineReminder, OverstepCase, PlayerClock, TimeTroubleNotice
from corr.nightly.job import nightly_job

from .conftest import START, at, day

pytestmark = pytest.mark.django_db


def run(on: date) -> dict:
    with time_machine.travel(at(on), tick=False):
        return nightly_job(on=on)


def test_a_nightly_run_during_a_leave_sends_no_reminder_and_opens_no_case(make_game, anna):
    game = make_game()
    with time_machine.travel(at(START), tick=False):
        leave_book(by=anna, first=date(2026, 1, 20), last=date(2026, 2, 20), now=at(START))
    # 11-19 Jan used (9 days); 21 left after the leave: 21 Feb .. 13 Mar.
    assert PlayerClock.objects.get(game=game, player="white").deadline == date(2026, 3, 13)
    for n in (25, 30, 31, 40):
        totals = run(day(n))
        assert (totals["time_trouble_notices"], totals["reminders"], totals["overstep_cases"]) == (0, 0, 0), n
    assert not TimeTroubleNotice.objects.exists() and not DeadlineReminder.objects.exists()
    assert not OverstepCase.objects.exists()


def test_no_warning_on_a_leave_day_even_near_the_deadline(make_game, anna):
    # Leave 8-9 Feb, booked on 10 Jan: the deadline moves from 9 Feb to 11 Feb. On 8 and 9 Feb anna
    # is on leave: no warning; on 10 Feb (1 day left) the run warns.
    game = make_game()
    with time_machine.travel(at(START), tick=False):
        leave_book(by=anna, first=date(2026, 2, 8), last=date(2026, 2, 9), now=at(START))
    assert PlayerClock.objects.get(game=game, player="white").deadline == date(2026, 2, 11)
    assert run(date(2026, 2, 8))["reminders"] == 0 and run(date(2026, 2, 9))["reminders"] == 0
    assert run(date(2026, 2, 8))["time_trouble_notices"] == 0
    after = run(date(2026, 2, 10))
    assert after["reminders"] == 1 and after["time_trouble_notices"] == 1
