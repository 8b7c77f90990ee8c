"""Sign-in, users, tournaments and games through the API."""

from __future__ import annotations

import pytest

from corr.models import Game, Tournament

pytestmark = pytest.mark.django_db


def test_a_token_is_issued_for_a_right_password(api, anna):
    response = api(None).post("/api/auth/token/", {"username": "anna", "password": "anna-pass-1"}, format="json")
    assert response.status_code == 200
    me = api(None)
    me.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert me.get("/api/users/me/").json()["username"] == "anna"


def test_a_wrong_password_gets_400_naming_the_field(api, anna):
    response = api(None).post("/api/auth/token/", {"username": "anna", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "password"


@pytest.mark.parametrize("path", ["/api/games/", "/api/tournaments/", "/api/users/me/", "/api/games/1/"])
def test_anonymous_requests_get_401(api, path):
    assert api(None).get(path).status_code == 401


def test_an_arbiter_creates_a_participant(api, arbiter):
    response = api(arbiter).post("/api/users/", {"username": "carl", "password": "carl-pass-123",
                                                 "email": "carl@example.org"}, format="json")
    assert response.status_code == 201
    assert response.json()["username"] == "carl"


def test_a_participant_cannot_create_users(api, anna):
    response = api(anna).post("/api/users/", {"username": "carl", "password": "carl-pass-123"}, format="json")
    assert response.status_code == 403


def test_a_taken_username_gets_400(api, arbiter, anna):
    response = api(arbiter).post("/api/users/", {"username": "anna", "password": "carl-pass-123"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "username"


def test_an_arbiter_creates_a_tournament_and_becomes_its_arbiter(api, arbiter):
    response = api(arbiter).post("/api/tournaments/", {
        "name": "Cup", "official_start": "2026-01-10", "mode": "postal",
        "ruleset": {"days_per_control": 40}, "time_zone": "Europe/Moscow", "presumed_transit_days": 5,
    }, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["ruleset"]["days_per_control"] == 40 and body["ruleset"]["moves_per_control"] == 10
    assert body["arbiters"] == ["arbiter"]
    assert Tournament.objects.get(pk=body["id"]).presumed_transit_days == 5


@pytest.mark.parametrize("payload, field", [
    ({"ruleset": {"days_per_control": 0}}, "ruleset.days_per_control"),
    ({"ruleset": {"moves": 3}}, "ruleset.moves"),
    ({"official_start": "10.01.2026"}, "official_start"),
    ({"mode": "pigeon"}, "mode"),
    ({"time_zone": "Mars/Olympus"}, "time_zone"),
])
def test_a_bad_tournament_gets_400_naming_the_field_and_stores_nothing(api, arbiter, payload, field):
    data = {"name": "Cup", "official_start": "2026-01-10", "mode": "postal", **payload}
    response = api(arbiter).post("/api/tournaments/", data, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert Tournament.objects.count() == 0


def test_a_participant_cannot_create_a_tournament(api, anna):
    response = api(anna).post("/api/tournaments/", {"name": "x", "official_start": "2026-01-10", "mode": "postal"},
                              format="json")
    assert response.status_code == 403


def test_the_tournaments_arbiter_pairs_players(api, arbiter, postal, anna, boris, frozen):
    response = api(arbiter).post("/api/games/", {"tournament": postal.pk, "white": "anna", "black": "boris"},
                                 format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["white"], body["black"], body["first"], body["to_move"]) == ("anna", "boris", "white", "white")
    assert body["clock"]["players"]["white"]["on_move"] is True


def test_go_games_can_start_with_black(api, arbiter, postal, anna, boris, frozen):
    response = api(arbiter).post("/api/games/", {"tournament": postal.pk, "white": "anna", "black": "boris",
                                                 "first": "black"}, format="json")
    assert response.json()["to_move"] == "black"


def test_an_arbiter_of_another_tournament_cannot_pair_players(api, other_arbiter, postal, anna, boris, frozen):
    response = api(other_arbiter).post("/api/games/", {"tournament": postal.pk, "white": "anna",
                                                       "black": "boris"}, format="json")
    assert response.status_code == 403
    assert Game.objects.count() == 0


def test_pairing_an_unknown_user_names_the_field(api, arbiter, postal, anna, frozen):
    response = api(arbiter).post("/api/games/", {"tournament": postal.pk, "white": "anna", "black": "nobody"},
                                 format="json")
    assert response.status_code == 400 and response.json()["field"] == "black"


def test_the_schema_and_the_docs_are_served(api, anna):
    assert api(anna).get("/api/schema/").status_code == 200
    assert api(anna).get("/api/docs/").status_code == 200


def test_a_tournament_can_choose_a_preset_and_its_games_show_the_systems_clock(api, arbiter, anna, boris, frozen):
    r = api(arbiter).post("/api/tournaments/", {"name": "SchemingMind", "official_start": "2026-02-01",
                                                "mode": "server", "preset": "schemingmind_standard"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["ruleset"]["time_control"] == {"system": "fischer", "initial": 30, "increment": 1, "max": 45}
    game = api(arbiter).post("/api/games/", {"tournament": r.json()["id"], "white": "anna", "black": "boris"},
                             format="json").json()
    white = game["clock"]["players"]["white"]
    # Pending from 02-01; on 03-01 (frozen today) 28 days of the 30 are used.
    assert white["clock"] == {"system": "fischer", "clock_days": 2, "increment_days": 1, "max_days": 45}
    assert white["deadline"] == "2026-03-03" and white["time_trouble"] is True


def test_a_bad_time_control_is_refused_naming_the_field(api, arbiter):
    r = api(arbiter).post("/api/tournaments/", {"name": "x", "official_start": "2026-02-01", "mode": "postal",
                                                "ruleset": {"time_control": {"system": "fischer", "initial": 30}}},
                          format="json")
    assert r.status_code == 400 and r.json()["field"] == "ruleset.time_control.increment"


def test_a_weak_participant_password_is_refused_naming_the_field(api, arbiter):
    r = api(arbiter).post("/api/users/", {"username": "carl", "password": "12345678"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "password"
    assert "too common" in r.json()["detail"] or "numeric" in r.json()["detail"]


@pytest.mark.parametrize("path, body", [
    ("/api/games/{game_id}/moves/", "MoveInput"), ("/api/games/{game_id}/receipts/", "ReceiptInput"),
    ("/api/games/{game_id}/notices/", "NoticeInput"), ("/api/games/{game_id}/penalties/", "PenaltyInput"),
    ("/api/games/{game_id}/delays/", "DelayInput"), ("/api/games/{game_id}/start-notices/", "StartNoticeInput"),
    ("/api/games/{game_id}/corrections/", "CorrectionInput"),
    ("/api/games/{game_id}/withdrawals/", "WithdrawalInput"), ("/api/games/{game_id}/result/", "ResultInput"),
])
def test_the_schema_documents_each_game_actions_body_and_answer(api, anna, path, body):
    schema = api(anna).get("/api/schema/?format=json").json()
    post = schema["paths"][path]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(f"/{body}")
    assert post["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/GameOut")


def test_an_arbiter_lists_a_tournaments_games_and_a_player_their_own(api, postal_game, postal, arbiter, anna, eve,
                                                                      other_arbiter):
    listed = api(arbiter).get("/api/games/").json()
    assert [g["id"] for g in listed] == [postal_game.pk]  # not played, arbitrated
    assert [g["id"] for g in api(arbiter).get(f"/api/games/?tournament={postal.pk}").json()] == [postal_game.pk]
    assert [g["id"] for g in api(anna).get(f"/api/games/?tournament={postal.pk}").json()] == [postal_game.pk]
    assert api(eve).get(f"/api/games/?tournament={postal.pk}").json() == []
    assert api(other_arbiter).get(f"/api/games/?tournament={postal.pk}").json() == []
    assert api(arbiter).get("/api/games/?tournament=999999").json() == []
    r = api(arbiter).get("/api/games/?tournament=x")
    assert r.status_code == 400 and r.json()["field"] == "tournament"
