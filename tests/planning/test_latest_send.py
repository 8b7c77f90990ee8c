"""Planning ahead (issue 41): the latest day (or instant) to send, checked at its boundary by previewing the move.

The API's ``latest_send`` is the calculator's answer; these tests never re-derive it: they preview the move sent
on that day (one second, under an instant count) and one day (second) later, as the player would, and read
the clock the preview gives. The postal cup starts 2026-01-10 (30 days a control of 10 moves, 4 days' transit).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine

from corr.games import services

from .conftest import START, noon

pytestmark = pytest.mark.django_db


def preview_sent_on(api, user, game, day: date) -> dict:
    """Black's move 1 sent on ``day``, previewed on that day: black's account as the preview gives it."""
    move = {"kind": "move", "number": 1, "notation": "e5", "received_on": "2026-01-24", "sent_on": day.isoformat()}
    with time_machine.travel(noon(day), tick=False):
        answer = api(user).post(f"/api/games/{game.pk}/preview/", {"events": [move]}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["clock"]["players"]["black"]


def test_sending_on_the_latest_day_out_of_time_trouble_keeps_out_of_it_and_a_day_later_does_not(
        postal_move, boris, api):
    with time_machine.travel(noon(date(2026, 1, 25)), tick=False):
        game = api(boris).get(f"/api/games/{postal_move.pk}/").json()
    latest = game["latest_send"]["black"]
    assert set(game["latest_send"]) == {"black"}  # the player on move only
    safe = date.fromisoformat(latest["out_of_time_trouble"])
    on_time = preview_sent_on(api, boris, postal_move, safe)
    late = preview_sent_on(api, boris, postal_move, safe + timedelta(days=1))
    assert (on_time["time_trouble"], on_time["overstepped"]) == (False, None)
    assert late["time_trouble"] is True  # registered mail from then on (50.4.12)


def test_sending_on_the_latest_day_in_time_is_the_deadline_and_a_day_later_is_over_the_control(
        postal_move, boris, api):
    with time_machine.travel(noon(date(2026, 1, 25)), tick=False):
        game = api(boris).get(f"/api/games/{postal_move.pk}/").json()
    last = date.fromisoformat(game["latest_send"]["black"]["in_time"])
    assert last.isoformat() == game["clock"]["players"]["black"]["deadline"]
    assert preview_sent_on(api, boris, postal_move, last)["overstepped"] is None
    over = preview_sent_on(api, boris, postal_move, last + timedelta(days=1))["overstepped"]
    assert over is not None and over["control"] == 1


def test_leave_booked_moves_the_latest_days_as_it_moves_the_deadline(postal_move, boris, api):
    with time_machine.travel(noon(date(2026, 1, 25)), tick=False):
        before = api(boris).get(f"/api/games/{postal_move.pk}/").json()["latest_send"]["black"]
        assert api(boris).post("/api/leaves/", {"from": "2026-02-10", "to": "2026-02-16"},
                               format="json").status_code == 201
        after = api(boris).get(f"/api/games/{postal_move.pk}/").json()["latest_send"]["black"]
    for field in ("out_of_time_trouble", "in_time"):  # seven days of leave within the window
        assert date.fromisoformat(after[field]) == date.fromisoformat(before[field]) + timedelta(days=7)


def test_under_an_instant_count_the_latest_instant_in_time_is_a_second_before_the_flag(arbiter, anna, boris, api):
    t = services.tournament_create(by=arbiter, name="Daily", official_start=START, mode="server",
                                   preset="chesscom_days_3")
    at = datetime(2026, 1, 10, 9, tzinfo=timezone.utc)
    with time_machine.travel(at, tick=False):
        game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=START)
        services.move_submit(game=game, by=anna, number=1, notation="e4", today=START)
    with time_machine.travel(at + timedelta(hours=1), tick=False):
        read = api(boris).get(f"/api/games/{game.pk}/").json()
    last = datetime.fromisoformat(read["latest_send"]["black"]["in_time"])
    flag = datetime.fromisoformat(read["clock"]["players"]["black"]["flag_at"])
    assert last == flag - timedelta(seconds=1)
    move = {"events": [{"kind": "move", "number": 1, "notation": "e5"}]}
    for moment, in_time in ((last, True), (last + timedelta(seconds=1), False)):
        with time_machine.travel(moment, tick=False):
            answer = api(boris).post(f"/api/games/{game.pk}/preview/", move, format="json")
        if in_time:
            assert answer.status_code == 200 and answer.json()["clock"]["players"]["black"]["overstepped"] is None
        else:  # the flag fell: the move is refused, or taken with the overstep
            assert answer.status_code != 200 or answer.json()["clock"]["players"]["black"]["overstepped"]
