"""The demo of ``make run`` and the admin."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from corr.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def test_the_demo_creates_two_games_and_prints_sign_ins_once(frozen):
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "anna / anna-demo-2026" in out.getvalue()
    call_command("demo", stdout=io.StringIO())
    assert Game.objects.count() == 2
    assert sorted(Game.objects.values_list("mode", flat=True)) == ["postal", "server"]


def test_the_demo_players_can_sign_in_and_see_their_clock(frozen):
    call_command("demo", stdout=io.StringIO())
    client = Client()
    assert client.post("/login/", {"username": "anna", "password": "anna-demo-2026"}).status_code == 302
    game = Game.objects.get(mode="postal")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Clock" in page and "Ledger" in page


def test_the_admin_shows_every_model_and_events_are_read_only(frozen):
    call_command("demo", stdout=io.StringIO())
    client = Client()
    # Through the admin's sign-in page: Client.login() passes no request, which django-axes refuses.
    client.post("/admin/login/", {"username": "arbiter", "password": "arbiter-demo-2026"})
    for path in ("tournament", "game", "gameevent", "playerclock", "idempotencyrecord"):
        assert client.get(f"/admin/corr/{path}/").status_code == 200, path
    event = GameEvent.objects.first()
    assert client.post(f"/admin/corr/gameevent/{event.pk}/change/", {"seq": 99}).status_code == 403
    assert client.get("/admin/corr/gameevent/add/").status_code == 403


def test_every_stored_clock_column_has_an_sql_type_for_the_set_based_update():
    from corr.games.services.storage import _CLOCK_TYPES, CLOCK_FIELDS

    assert set(_CLOCK_TYPES) == set(CLOCK_FIELDS)
