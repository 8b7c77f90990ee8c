"""Leave through the API (issue 14): booking within and beyond the rules, overlaps, cancelling,
special leave, the opponent's e-mail, and the game file of a game with leave.

The postal cup starts 2026-01-10 (Europe/Moscow, 4 days presumed transit); white's move 1 runs
from the start. Bookings are made on 2026-01-10 unless a test travels.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
import time_machine

from corr.games import services
from corr.models import EventKind, GameEvent, Leave, OutboundEmail, PlayerClock

pytestmark = pytest.mark.django_db

START = date(2026, 1, 10)
ROOT = Path(__file__).resolve().parents[2]


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc)


@pytest.fixture
def game(arbiter, postal, anna, boris):
    with time_machine.travel(at(START), tick=False):
        return services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=START)


@pytest.fixture
def on_start():
    with time_machine.travel(at(START), tick=False) as traveller:
        yield traveller


def book(api, user, first, last):
    return api(user).post("/api/leaves/", {"from": first, "to": last}, format="json")


def white_clock(game):
    return PlayerClock.objects.get(game=game, player="white")


def test_a_booking_within_the_allowance_stops_the_players_clock_and_moves_the_deadline(api, game, anna, on_start):
    before = white_clock(game).deadline  # 30 days from 10 Jan
    assert before == date(2026, 2, 9)
    answer = book(api, anna, "2026-01-20", "2026-01-29")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["from"] == "2026-01-20" and answer.json()["days"] == 10
    assert white_clock(game).deadline == date(2026, 2, 19)  # ten days later
    line = GameEvent.objects.get(game=game, kind=EventKind.LEAVE)
    assert line.player == "white" and "2026-01-20 to 2026-01-29" in line.note
    summary = api(anna).get("/api/leaves/").json()
    assert summary["allowances"][0] | {"name": None} == {
        "tournament": game.tournament_id, "name": None, "per": "year", "year": 2026, "allowance_days": 45,
        "used_days": 10, "left_days": 35, "min_days": 1, "book_ahead_days": 1}
    assert [leave["id"] for leave in summary["leaves"]] == [answer.json()["id"]]


def test_the_opponent_is_emailed_when_a_leave_is_booked(api, game, anna, on_start, settings,
                                                         django_capture_on_commit_callbacks):
    settings.NOTIFY_INPROCESS = "inline"
    # Told by the notifications after commit (issue 38), as the opponent chose, in their language.
    with django_capture_on_commit_callbacks(execute=True):
        book(api, anna, "2026-01-20", "2026-01-29")
    email = OutboundEmail.objects.get(key__startswith="notice:")
    assert email.recipients == ["boris@example.org"]
    assert "anna" in email.subject and "2026-01-20" in email.subject and f"/games/{game.pk}/" in email.body


def test_booking_beyond_the_allowance_is_refused_naming_the_rule(api, game, anna, on_start):
    assert book(api, anna, "2026-01-20", "2026-02-28").status_code == 201  # 40 of 45 days
    answer = book(api, anna, "2026-03-10", "2026-03-15")  # 6 more: 46
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("leave_days: Postal cup allows 45 day(s) of leave per calendar year;"
                                              " 40 used in 2026, 5 left, 6 asked")
    assert answer.json()["field"] == "to"
    # A booking across the new year counts each year's days against that year.
    assert book(api, anna, "2026-12-28", "2027-01-20").status_code == 201  # 4 in 2026, 20 in 2027


def test_the_allowance_per_event_and_the_minimum_length(api, arbiter, game, anna, on_start):
    services.tournament_rules_change(tournament=game.tournament, by=arbiter, now=at(START), leave_per="event",
                                     leave_days=20, leave_min_days=7)
    short = book(api, anna, "2026-01-20", "2026-01-25")
    assert short.status_code == 400 and short.json()["detail"].startswith("leave_min_days:")
    assert book(api, anna, "2026-01-20", "2026-01-31").status_code == 201
    beyond = book(api, anna, "2027-03-01", "2027-03-09")  # another year, the same event
    assert beyond.status_code == 400 and "for the event; 12 used, 8 left, 9 asked" in beyond.json()["detail"]


def test_leave_must_be_booked_ahead(api, game, anna, on_start):
    answer = book(api, anna, "2026-01-10", "2026-01-20")
    assert answer.status_code == 400 and answer.json()["field"] == "from"
    assert answer.json()["detail"].startswith("leave_book_ahead_days: Postal cup requires leave to be booked 1 day(s)")


def test_overlapping_bookings_are_refused(api, game, anna, on_start):
    first = book(api, anna, "2026-01-20", "2026-01-29").json()
    answer = book(api, anna, "2026-01-29", "2026-02-02")
    assert answer.status_code == 400
    assert answer.json()["detail"] == f"overlaps your leave #{first['id']} from 2026-01-20 to 2026-01-29"


def test_a_player_without_a_tournament_allowing_leave_cannot_book(api, arbiter, game, anna, on_start):
    services.tournament_rules_change(tournament=game.tournament, by=arbiter, now=at(START), leave_days=0)
    answer = book(api, anna, "2026-01-20", "2026-01-29")
    assert answer.status_code == 400 and "allows leave" in answer.json()["detail"]


def test_cancelling_leave_before_it_begins_gives_the_clock_back(api, game, anna, on_start):
    leave = book(api, anna, "2026-01-20", "2026-01-29").json()
    assert api(anna).delete(f"/api/leaves/{leave['id']}/").status_code == 204
    assert white_clock(game).deadline == date(2026, 2, 9)
    assert not Leave.objects.exists()
    assert GameEvent.objects.filter(game=game, kind=EventKind.LEAVE).count() == 2  # booked, cancelled


def test_leave_that_has_begun_cannot_be_cancelled_nor_another_players(api, game, anna, boris, on_start):
    leave = book(api, anna, "2026-01-20", "2026-01-29").json()
    assert api(boris).delete(f"/api/leaves/{leave['id']}/").status_code == 403
    on_start.move_to(at(date(2026, 1, 20)))
    answer = api(anna).delete(f"/api/leaves/{leave['id']}/")
    assert answer.status_code == 400 and "began on 2026-01-20" in answer.json()["detail"]


def test_an_arbiter_grants_special_leave_beyond_the_allowance_with_a_reason(api, other_arbiter, arbiter, game,
                                                                             on_start):
    game.tournament.arbiters.add(other_arbiter)
    # Beyond the allowance (45 a year) and starting today: special leave follows no booking rule.
    answer = api(arbiter).post(f"/api/games/{game.pk}/special-leave/",
                               {"player": "white", "from": "2026-01-10", "to": "2026-03-31", "reason": "illness"},
                               format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["clock"]["players"]["white"]["thinking_days"] == 0
    line = GameEvent.objects.get(game=game, kind=EventKind.LEAVE)
    assert line.note == "special leave for white: 2026-01-10 to 2026-03-31, granted by arbiter: illness"
    leave = Leave.objects.get()
    assert leave.special and leave.granted_by == arbiter and leave.tournament_id == game.tournament_id


def test_players_cannot_grant_special_leave_and_a_reason_is_required(api, arbiter, game, anna, on_start):
    body = {"player": "white", "from": "2026-01-20", "to": "2026-01-25", "reason": "holiday"}
    assert api(anna).post(f"/api/games/{game.pk}/special-leave/", body, format="json").status_code == 403
    body["reason"] = " "
    assert api(arbiter).post(f"/api/games/{game.pk}/special-leave/", body, format="json").status_code == 400


def test_the_game_file_of_a_game_with_leave_recomputes_the_same_with_manage_py_clock(api, game, anna, on_start):
    book(api, anna, "2026-01-20", "2026-01-29")
    on_start.move_to(at(date(2026, 2, 5)))
    answer = api(anna).get(f"/api/games/{game.pk}/events/")
    assert answer.status_code == 200
    data = answer.json()
    game_file = data.get("game_file", data)
    assert game_file["players"]["white"]["leave"] == [{"from": "2026-01-20", "to": "2026-01-29"}]
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "clock", "-", "--json"],
                          input=json.dumps(game_file), capture_output=True, text=True,
                          env=dict(os.environ, DEBUG="1"), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    result = out[0] if isinstance(out, list) else out
    shown = api(anna).get(f"/api/games/{game.pk}/").json()["clock"]
    assert result["players"] == shown["players"]
    assert result["players"]["white"]["thinking_days"] == 26 - 10  # 11 Jan .. 5 Feb less the leave


def test_weekend_days_set_on_a_tournament_move_its_games_deadlines(api, arbiter, game, on_start):
    # 30 weekdays after Sat 10 Jan 2026: 12 Jan (Mon) .. 20 Feb (Fri); the weekend after it costs
    # nothing more, so the deadline is Sun 22 Feb.
    answer = api(arbiter).patch(f"/api/tournaments/{game.tournament_id}/",
                                {"ruleset": {"weekend_days": ["saturday", "sunday"]}}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["ruleset"]["weekend_days"] == ["saturday", "sunday"]
    assert white_clock(game).deadline == date(2026, 2, 22)
    line = GameEvent.objects.filter(game=game, kind=EventKind.RULES).last()
    assert "weekend_days [] -> ['saturday', 'sunday']" in line.note
    # And back: an empty calendar is stored as such.
    api(arbiter).patch(f"/api/tournaments/{game.tournament_id}/", {"ruleset": {"weekend_days": []}}, format="json")
    assert white_clock(game).deadline == date(2026, 2, 9)


def test_holidays_outside_the_calendar_window_or_malformed_are_refused(api, arbiter, game, on_start):
    url = f"/api/tournaments/{game.tournament_id}/"
    far = api(arbiter).patch(url, {"ruleset": {"holidays": [{"from": "2300-01-01", "to": "2300-01-02"}]}},
                             format="json")
    assert far.status_code == 400 and far.json()["field"] == "ruleset.holidays[0].from"
    bad = api(arbiter).patch(url, {"ruleset": {"weekend_days": ["caturday"]}}, format="json")
    assert bad.status_code == 400 and "unknown weekday 'caturday'" in bad.json()["detail"]
