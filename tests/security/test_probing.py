"""POST /api/games/ checks the permission before any lookup: a participant learns nothing of what exists."""

from __future__ import annotations

import pytest

from corr.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body", [
    {"tournament": 999999, "white": "nobody", "black": "nobody-else"},  # nothing exists
    {"tournament": "known", "white": "anna", "black": "boris"},  # everything exists
    {"tournament": "known", "white": "anna", "black": "nobody"},
    {"tournament": 999999, "white": "anna", "black": "boris"},
    {"tournament": "not a number"},  # even invalid input
])
def test_a_participant_gets_403_whatever_they_send(api, anna, boris, postal, body):
    body = {k: postal.pk if v == "known" else v for k, v in body.items()}
    response = api(anna).post("/api/games/", body, format="json")
    assert response.status_code == 403
    assert "field" not in response.json()
    assert Game.objects.count() == 0


@pytest.mark.parametrize("white, black", [("anna", "boris"), ("anna", "nobody")])
def test_an_arbiter_of_another_tournament_learns_no_usernames(api, other_arbiter, anna, boris, postal, white, black):
    response = api(other_arbiter).post("/api/games/", {"tournament": postal.pk, "white": white, "black": black},
                                       format="json")
    assert response.status_code == 403


def test_the_tournaments_arbiter_still_gets_400_naming_the_unknown_player(api, arbiter, anna, postal, frozen):
    response = api(arbiter).post("/api/games/", {"tournament": postal.pk, "white": "anna", "black": "nobody"},
                                 format="json")
    assert response.status_code == 400 and response.json()["field"] == "black"
