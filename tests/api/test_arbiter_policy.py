"""Arbiters do not judge themselves; results, decisions, reopenings and admin edits are lines of the history."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from corr.games import services
from corr.models import GameEvent

from ..conftest import TODAY, clock_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_game(postal, arbiter, boris, frozen):
    """The arbiter paired themself in their own tournament (allowed: small clubs do)."""
    return services.game_create(by=arbiter, tournament=postal, white=arbiter, black=boris, today=TODAY)


@pytest.mark.parametrize("path, body", [
    ("penalties", {"player": "black", "reason": "address_error"}),
    ("delays", {"player": "white", "days": 20}),
    ("start-notices", {"player": "white", "received_on": "2026-01-12"}),
    ("result", {"result": "1-0", "termination": "black resigned"}),
])
def test_an_arbiter_cannot_rule_on_their_own_game(api, own_game, arbiter, path, body):
    r = api(arbiter).post(f"/api/games/{own_game.pk}/{path}/", body, format="json")
    assert r.status_code == 403, r.json()
    assert "nobody arbitrates their own game" in r.json()["detail"]
    assert clock_events(game=own_game).count() == 0


def test_a_superuser_who_plays_is_refused_too_and_another_arbiter_may_rule(api, postal, boris, other_arbiter,
                                                                            frozen):
    boss = User.objects.create_superuser("boss", "boss@example.org", "boss-pass-1")
    game = services.game_create(by=boss, tournament=postal, white=boss, black=boris, today=TODAY)
    r = api(boss).post(f"/api/games/{game.pk}/penalties/", {"player": "black", "reason": "address_error"},
                       format="json")
    assert r.status_code == 403
    postal.arbiters.add(other_arbiter)
    r = api(other_arbiter).post(f"/api/games/{game.pk}/penalties/", {"player": "black", "reason": "address_error"},
                                format="json")
    assert r.status_code == 201, r.json()


def test_an_arbiter_cannot_decide_a_case_of_their_own_game(api, own_game, arbiter):
    case = own_game.overstep_cases.get()  # created 50 days after the start: white over 30
    r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/confirm/")
    assert r.status_code == 403
    r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/dismiss/", {"reason": "mine"}, format="json")
    assert r.status_code == 403


def test_a_result_and_a_reopening_are_in_the_history_and_a_finished_game_takes_no_ruling(
        api, postal_game, arbiter):
    client = api(arbiter)
    r = client.post(f"/api/games/{postal_game.pk}/result/", {"result": "1/2-1/2", "termination": "agreed"},
                    format="json")
    assert r.status_code == 201
    r = client.post(f"/api/games/{postal_game.pk}/penalties/", {"player": "white", "reason": "address_error"},
                    format="json")
    assert r.status_code == 409 and "game is over" in r.json()["detail"]
    r = client.post(f"/api/games/{postal_game.pk}/reopen/", {"note": "the draw offer was never accepted",
                                                             "overstep": "keep"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "ongoing" and r.json()["result"] == ""
    r = client.post(f"/api/games/{postal_game.pk}/penalties/", {"player": "white", "reason": "address_error"},
                    format="json")
    assert r.status_code == 201
    history = [(h["kind"], h["note"], h["entered_by"])
               for h in client.get(f"/api/games/{postal_game.pk}/history/").json() if h["kind"] != "case"]
    assert history == [("result", "result 1/2-1/2: agreed", "arbiter"),
                       ("reopen", "reopened (was 1/2-1/2), white's overstep kept: the draw offer was never accepted",
                        "arbiter"),
                       ("penalty", "", "arbiter")]


def test_a_dismissal_is_in_the_history_with_its_reason(api, postal_game, arbiter):
    case = postal_game.overstep_cases.get()
    r = api(arbiter).post(f"/api/overstep-cases/{case.pk}/dismiss/", {"reason": "postmark of 12 January"},
                          format="json")
    assert r.status_code == 200
    line = GameEvent.objects.get(game=postal_game, kind="case")
    assert (line.note, line.entered_by, line.player) == (
        f"overstep case {case.pk} dismissed: postmark of 12 January", arbiter, "white")


def test_a_history_line_is_never_corrected_or_withdrawn(api, postal_game, arbiter):
    api(arbiter).post(f"/api/games/{postal_game.pk}/result/", {"result": "1-0"}, format="json")
    api(arbiter).post(f"/api/games/{postal_game.pk}/reopen/", {"note": "typo", "overstep": "keep"}, format="json")
    seq = GameEvent.objects.get(game=postal_game, kind="result").seq
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/withdrawals/", {"event": seq, "note": "hide it"},
                          format="json")
    assert r.status_code == 400 and "never corrected or withdrawn" in r.json()["detail"]


def test_the_admin_cannot_change_a_result_and_its_edits_are_in_the_history(postal_game, arbiter, eve):
    arbiter.is_staff = arbiter.is_superuser = True
    arbiter.save()
    client = Client()
    client.force_login(arbiter)
    page = client.get(f"/admin/corr/game/{postal_game.pk}/change/").content.decode()
    assert 'name="status"' not in page and 'name="result"' not in page
    r = client.post(f"/admin/corr/game/{postal_game.pk}/change/", {
        "white": eve.pk, "black": postal_game.black_id, "first": "white", "mode": "postal",
        "status": "finished", "result": "1-0"})
    assert r.status_code == 302
    postal_game.refresh_from_db()
    assert (postal_game.white_id, postal_game.status, postal_game.result) == (eve.pk, "ongoing", "")
    line = GameEvent.objects.get(game=postal_game, kind="admin")
    assert line.entered_by == arbiter and line.note.startswith("changed in the admin: white anna -> eve")
    assert client.post(f"/admin/corr/game/{postal_game.pk}/delete/", {"post": "yes"}).status_code == 403


def test_in_the_admin_a_player_cannot_edit_their_own_game_nor_its_order_once_played(api, postal_game, arbiter,
                                                                                     anna, boris):
    anna.is_staff = anna.is_superuser = True
    anna.save()
    client = Client()
    client.force_login(anna)
    r = client.post(f"/admin/corr/game/{postal_game.pk}/change/", {
        "white": anna.pk, "black": arbiter.pk, "first": "white", "mode": "postal"})
    assert r.status_code == 403
    postal_game.refresh_from_db()
    assert postal_game.black_id == boris.pk

    api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-01-12"}, format="json")
    arbiter.is_staff = arbiter.is_superuser = True
    arbiter.save()
    client.force_login(arbiter)
    r = client.post(f"/admin/corr/game/{postal_game.pk}/change/", {
        "white": anna.pk, "black": boris.pk, "first": "black", "mode": "postal"})
    assert r.status_code == 200 and "cannot change once the game has events" in r.content.decode()
    postal_game.refresh_from_db()
    assert postal_game.first == "white"
