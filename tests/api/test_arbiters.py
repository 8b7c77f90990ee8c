"""Arbiters: penalties, delays, late start notices, corrections, withdrawals and results."""

from __future__ import annotations

import pytest

from corr.models import GameEvent

from ..conftest import clock_events, seq_of

pytestmark = pytest.mark.django_db


def test_penalties_are_five_days_then_ten_by_the_rules(api, postal_game, arbiter):
    url = f"/api/games/{postal_game.pk}/penalties/"
    first = api(arbiter).post(url, {"player": "white", "reason": "address_error"}, format="json")
    assert first.status_code == 201, first.json()
    assert first.json()["clock"]["players"]["white"]["penalty_days"] == 5
    second = api(arbiter).post(url, {"player": "white", "reason": "unregistered_mail", "move": 1}, format="json")
    assert second.json()["clock"]["players"]["white"]["penalty_days"] == 15
    rules = [ln["rule"] for ln in second.json()["clock"]["ledger"] if ln["kind"] == "penalty"]
    assert rules == ["50.4.9", "50.4.10"]


def test_penalty_days_cannot_be_typed(api, postal_game, arbiter):
    # The days follow the rules (50.4.9, 50.4.10): a typed number is refused, not silently ignored.
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/penalties/",
                          {"player": "white", "reason": "address_error", "days": 1}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "days"
    assert "'days' is not a field of this request (fields: player, reason, move, note)" in r.json()["detail"]
    assert GameEvent.objects.count() == 0


def test_a_participant_assessing_a_penalty_gets_403(api, postal_game, anna):
    r = api(anna).post(f"/api/games/{postal_game.pk}/penalties/", {"player": "black", "reason": "address_error"},
                       format="json")
    assert r.status_code == 403
    assert GameEvent.objects.count() == 0


def test_an_arbiter_of_another_tournament_gets_403(api, postal_game, other_arbiter):
    r = api(other_arbiter).post(f"/api/games/{postal_game.pk}/delays/", {"player": "black", "days": 3},
                                format="json")
    assert r.status_code == 403


def test_an_unknown_penalty_reason_names_the_field(api, postal_game, arbiter):
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/penalties/", {"player": "white", "reason": "rudeness"},
                          format="json")
    assert r.status_code == 400 and r.json()["field"] == "reason"
    assert "unknown reason 'rudeness'" in r.json()["detail"]


def test_a_delay_adds_its_whole_days(api, postal_game, arbiter):
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/delays/", {"player": "black", "days": 4, "move": 1},
                          format="json")
    assert r.status_code == 201
    assert r.json()["clock"]["players"]["black"]["delay_days"] == 4


def test_a_negative_delay_is_refused(api, postal_game, arbiter):
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/delays/", {"player": "black", "days": -1}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "days"


def test_a_late_notice_of_the_start_moves_the_players_start(api, postal_game, arbiter):
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/start-notices/",
                          {"player": "white", "received_on": "2026-01-15"}, format="json")
    assert r.json()["clock"]["players"]["white"]["start"] == "2026-01-18"  # 15 + 3 (50.4.6)


def test_a_correction_replaces_an_event_and_keeps_the_original(api, postal_game, arbiter, anna):
    api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-01-20"}, format="json")
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/corrections/",
                          {"event": 1, "sent_on": "2026-01-14", "note": "postmark reads 14 January"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["clock"]["players"]["white"]["thinking_days"] == 4
    history = api(arbiter).get(f"/api/games/{postal_game.pk}/history/").json()
    moves = [(h["sent_on"], h["supersedes"]) for h in history if h["kind"] == "move"]
    assert moves == [("2026-01-20", None), ("2026-01-14", 1)]


def test_a_correction_that_breaks_the_rules_is_refused(api, postal_game, arbiter, anna, boris):
    api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-01-12"}, format="json")
    api(boris).post(f"/api/games/{postal_game.pk}/moves/",
                    {"number": 1, "received_on": "2026-01-16", "sent_on": "2026-01-18"}, format="json")
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/corrections/",
                          {"event": seq_of(postal_game, "move", "black"), "received_on": "2026-01-19", "note": "typo"},
                          format="json")
    assert r.status_code == 400
    assert "before the received date 2026-01-19" in r.json()["detail"]
    assert clock_events().count() == 2


def test_a_withdrawn_penalty_no_longer_counts(api, postal_game, arbiter):
    api(arbiter).post(f"/api/games/{postal_game.pk}/penalties/", {"player": "white", "reason": "address_error"},
                      format="json")
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/withdrawals/", {"event": 1, "note": "appeal upheld"},
                          format="json")
    assert r.status_code == 201
    assert r.json()["clock"]["players"]["white"]["penalty_days"] == 0
    assert GameEvent.objects.count() == 2


def test_a_correction_needs_a_note(api, postal_game, arbiter):
    api(arbiter).post(f"/api/games/{postal_game.pk}/penalties/", {"player": "white", "reason": "address_error"},
                      format="json")
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/withdrawals/", {"event": 1, "note": "  "}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "note"


def test_the_arbiter_records_a_result_and_the_clock_stops(api, postal_game, arbiter, anna):
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/result/", {"result": "0-1", "termination": "resigned"},
                          format="json")
    assert r.status_code == 201
    assert r.json()["status"] == "finished" and r.json()["to_move"] is None
    assert r.json()["clock"]["players"]["white"]["on_move"] is False
    move = api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-01-12"},
                          format="json")
    assert move.status_code == 409
