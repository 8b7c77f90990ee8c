"""Moves, receipts and notices of participants; turns, dates and errors."""

from __future__ import annotations

from datetime import timedelta

import pytest

from corr.models import GameEvent, PlayerClock

from ..conftest import NOW

pytestmark = pytest.mark.django_db


def post_move(client, game, **data):
    return client.post(f"/api/games/{game.pk}/moves/", data, format="json")


def test_a_postal_game_runs_on_the_dates_the_players_enter(api, postal_game, anna, boris):
    # Anna (white) sends move 1 on 01-12: 2 days from the start 01-10.
    r = post_move(api(anna), postal_game, number=1, notation="e4", sent_on="2026-01-12", mail="ordinary")
    assert r.status_code == 201, r.json()
    assert r.json()["clock"]["players"]["white"]["thinking_days"] == 2
    assert r.json()["to_move"] == "black"
    # Boris received it 01-16 (4 days of post, not counted) and answers 01-18: 2 days.
    r = post_move(api(boris), postal_game, number=1, notation="e5", received_on="2026-01-16",
                  sent_on="2026-01-18", mail="ordinary")
    assert r.status_code == 201, r.json()
    black = r.json()["clock"]["players"]["black"]
    assert black["thinking_days"] == 2 and black["on_move"] is False


def test_until_a_receipt_is_recorded_it_is_presumed_and_said_so(api, postal_game, anna, boris):
    post_move(api(anna), postal_game, number=1, sent_on="2026-02-01", mail="ordinary")
    body = api(boris).get(f"/api/games/{postal_game.pk}/").json()
    # Presumed receipt: 02-01 + 4 transit days = 02-05; as of 03-01 that is 24 days running.
    assert body["pending"] == {"player": "black", "number": 1, "received_on": "2026-02-05", "received_at": None,
                               "presumed": True}
    assert body["clock"]["players"]["black"]["thinking_days"] == 24
    r = api(boris).post(f"/api/games/{postal_game.pk}/receipts/", {"received_on": "2026-02-10"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["pending"]["presumed"] is False
    assert r.json()["clock"]["players"]["black"]["thinking_days"] == 19  # 02-10 -> 03-01
    # The move then defaults its received date to the recorded receipt.
    r = post_move(api(boris), postal_game, number=1, sent_on="2026-02-20", mail="ordinary")
    assert r.status_code == 201, r.json()
    assert GameEvent.objects.get(kind="move", player="black").received_on.isoformat() == "2026-02-10"


def test_a_postal_move_without_a_received_date_or_receipt_is_refused(api, postal_game, anna, boris):
    post_move(api(anna), postal_game, number=1, sent_on="2026-02-01")
    r = post_move(api(boris), postal_game, number=1, sent_on="2026-02-20")
    assert r.status_code == 400
    assert r.json()["field"] == "received_on"
    assert "presumed 2026-02-05" in r.json()["detail"]


def test_a_move_still_in_transit_runs_no_clock_but_its_deadline_is_stored(api, postal_game, anna, boris):
    # Sent today (03-01), presumed to arrive 03-05: black's clock has not started.
    post_move(api(anna), postal_game, number=1, sent_on="2026-03-01")
    black = api(boris).get(f"/api/games/{postal_game.pk}/").json()["clock"]["players"]["black"]
    assert black["thinking_days"] == 0 and black["deadline"] is None
    stored = PlayerClock.objects.get(game=postal_game, player="black")
    assert stored.deadline.isoformat() == "2026-04-04"  # 03-05 + 30


def test_a_server_game_takes_both_dates_from_the_server(api, server_game, anna, boris, frozen):
    r = post_move(api(anna), server_game, number=1, notation="d4")
    assert r.status_code == 201, r.json()
    frozen.move_to(NOW + timedelta(days=3))
    r = post_move(api(boris), server_game, number=1, notation="d5")
    move = GameEvent.objects.get(kind="move", player="black")
    assert (move.received_on.isoformat(), move.sent_on.isoformat(), move.mail) == ("2026-03-01", "2026-03-04",
                                                                                  "server")
    assert r.json()["clock"]["players"]["black"]["thinking_days"] == 3


def test_a_move_that_sends_the_documented_defaults_is_taken_as_one_that_omits_them(api, server_game, anna):
    # The schema documents mail and variant with the default "" (none said): sending it was 400
    # '"" is not a valid choice' (schemathesis's stateful phase, issue 23).
    r = post_move(api(anna), server_game, number=1, notation="d4", mail="", variant="", void=False,
                  received_on=None, sent_on=None)
    assert r.status_code == 201, r.json()
    move = GameEvent.objects.get(kind="move", player="white")
    assert (move.mail, move.variant, move.void) == ("server", "", False)


def test_a_server_game_refuses_typed_dates(api, server_game, anna):
    r = post_move(api(anna), server_game, number=1, sent_on="2026-02-01")
    assert r.status_code == 400 and r.json()["field"] == "sent_on"
    assert GameEvent.objects.count() == 0


def test_a_move_out_of_turn_gets_409_and_stores_nothing(api, postal_game, boris):
    r = post_move(api(boris), postal_game, number=1, received_on="2026-01-10", sent_on="2026-01-12")
    assert r.status_code == 409
    assert "white's turn" in r.json()["detail"]
    assert GameEvent.objects.count() == 0


def test_a_move_with_the_wrong_number_gets_409(api, postal_game, anna):
    r = post_move(api(anna), postal_game, number=2, sent_on="2026-01-12")
    assert r.status_code == 409 and r.json()["field"] == "number"


@pytest.mark.parametrize("data, field, words", [
    ({"sent_on": "2026-1-12"}, "sent_on", "YYYY-MM-DD"),
    ({"sent_on": "2026-03-02"}, "sent_on", "after today"),
    ({"sent_on": "2026-01-12", "mail": "pigeon"}, "mail", "pigeon"),
    ({"sent_on": "2026-01-12", "number": 0}, "number", "greater than or equal to 1"),
])
def test_bad_move_input_gets_400_naming_the_field(api, postal_game, anna, data, field, words):
    payload = {"number": 1, **data}
    r = post_move(api(anna), postal_game, **payload)
    assert r.status_code == 400, r.json()
    assert r.json()["field"] == field
    assert words in r.json()["detail"]
    assert GameEvent.objects.count() == 0


def test_a_sent_date_before_the_received_date_is_refused_by_the_rules(api, postal_game, anna, boris):
    post_move(api(anna), postal_game, number=1, sent_on="2026-01-12")
    r = post_move(api(boris), postal_game, number=1, received_on="2026-01-20", sent_on="2026-01-18")
    assert r.status_code == 400
    assert r.json() == {"detail": "The sent date 2026-01-18 is before the received date 2026-01-20. Enter a sent"
                                  " date on or after the received date.", "field": "sent_on"}


def test_a_participant_cannot_act_in_someone_elses_game(api, postal_game, eve):
    assert api(eve).get(f"/api/games/{postal_game.pk}/").status_code == 403
    assert post_move(api(eve), postal_game, number=1, sent_on="2026-01-12").status_code == 403


def test_time_trouble_and_ordinary_mail_gives_a_registered_mail_warning(api, postal_game, anna, boris, frozen):
    # White's move 1 pending from the start 01-10; on 02-05 it has run 26 days: 4 left.
    frozen.move_to(NOW.replace(month=2, day=5))
    r = post_move(api(anna), postal_game, number=1, sent_on="2026-02-05", mail="ordinary")
    assert r.status_code == 201
    assert "50.4.12 requires registered mail" in r.json()["warnings"][0]
    assert r.json()["clock"]["players"]["white"]["time_trouble"] is True


def test_a_notice_of_an_impossible_move_voids_it_and_gives_the_turn_back(api, postal_game, anna, boris):
    post_move(api(anna), postal_game, number=1, sent_on="2026-01-12")
    r = api(boris).post(f"/api/games/{postal_game.pk}/notices/", {
        "reason": "impossible_move", "received_on": "2026-01-16", "sent_on": "2026-01-21"}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["to_move"] == "white"
    # Boris's notice: 5 days, 3 free (50.4.7) -> 2 counted; Anna's void move 1 still cost 2 days.
    assert body["clock"]["players"]["black"]["thinking_days"] == 2
    white = body["clock"]["players"]["white"]
    assert white["made"] == 0
    history = api(anna).get(f"/api/games/{postal_game.pk}/history/").json()
    assert [(h["kind"], h["void"], h["supersedes"]) for h in history if h["kind"] != "case"] == [
        ("move", False, None), ("move", True, 1), ("notice", False, None)]
    # Anna sends move 1 again: it counts from the presumed arrival of the notice, 01-21 + 4.
    r = post_move(api(anna), postal_game, number=1, received_on="2026-01-25", sent_on="2026-01-26")
    assert r.status_code == 201, r.json()
    assert r.json()["clock"]["players"]["white"]["thinking_days"] == 2 + 1


def test_notices_are_refused_in_server_games(api, server_game, anna, boris):
    post_move(api(anna), server_game, number=1)
    r = api(boris).post(f"/api/games/{server_game.pk}/notices/", {
        "reason": "illegible_move", "received_on": "2026-03-01", "sent_on": "2026-03-01"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "reason"


def test_a_server_game_requires_the_notation_of_the_move(api, server_game, anna):
    r = post_move(api(anna), server_game, number=1, notation="  ")
    assert r.status_code == 400 and r.json()["field"] == "notation"
    assert GameEvent.objects.count() == 0
