"""The demo of ``make run`` and the admin."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from corr.models import Game, GameEvent, PlayerClock, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_creates_three_games_and_prints_sign_ins_once(frozen):
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "anna / anna-demo-2026" in out.getvalue()
    call_command("demo", stdout=io.StringIO())
    assert Game.objects.count() == 3
    assert sorted(Game.objects.values_list("mode", flat=True)) == ["postal", "server", "server"]


def test_the_demos_iccf_game_counts_whole_days_and_shows_its_deadline_as_a_time(frozen):
    call_command("demo", stdout=io.StringIO())
    client = Client()
    assert client.post("/login/", {"username": "anna", "password": "anna-demo-2026"}).status_code == 302
    game = Game.objects.get(tournament__name="Demo ICCF server event")
    assert game.tournament.ruleset.count.value == "whole_days"
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "send before" in page and "Europe/Moscow" in page and "data-countdown" in page


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
    for path in ("tournament", "game", "gameevent", "playerclock", "idempotencyrecord", "overstepcase",
                 "timetroublenotice", "deadlinereminder", "nightlyreport", "outboundemail", "nightlyrun"):
        assert client.get(f"/admin/corr/{path}/").status_code == 200, path
    event = GameEvent.objects.first()
    assert client.post(f"/admin/corr/gameevent/{event.pk}/change/", {"seq": 99}).status_code == 403
    assert client.get("/admin/corr/gameevent/add/").status_code == 403


def test_every_stored_clock_column_has_an_sql_type_for_the_set_based_update():
    from corr.games.services.storage import _CLOCK_TYPES, CLOCK_FIELDS

    assert set(_CLOCK_TYPES) == set(CLOCK_FIELDS)


def test_the_admin_creates_tournaments_and_games_through_the_services(frozen):
    call_command("demo", stdout=io.StringIO())
    client = Client()
    client.post("/admin/login/", {"username": "arbiter", "password": "arbiter-demo-2026"})
    r = client.post("/admin/corr/tournament/add/", {
        "name": "Admin cup", "official_start": "2026-02-01", "mode": "postal", "time_zone": "UTC",
        "presumed_transit_days": 3, "moves_per_control": 10, "days_per_control": 30, "grace_days": 3,
        "first_penalty_days": 5, "repeat_penalty_days": 10, "time_trouble_days": 5, "late_notice_start_days": 3,
        "time_control": "null", "kind": "chess"})
    assert r.status_code == 302, r.content.decode()[-3000:]
    cup = Tournament.objects.get(name="Admin cup")
    assert cup.arbiters.filter(username="arbiter").exists() and cup.created_by.username == "arbiter"
    from accounts.models import User

    anna, boris = User.objects.get(username="anna"), User.objects.get(username="boris")
    r = client.post("/admin/corr/game/add/", {"tournament": cup.pk, "white": anna.pk, "black": anna.pk,
                                              "first": "white", "mode": "postal"})
    assert r.status_code == 200 and "two different participants" in r.content.decode()
    r = client.post("/admin/corr/game/add/", {"tournament": cup.pk, "white": anna.pk, "black": boris.pk,
                                              "first": "white", "mode": "postal"})
    assert r.status_code == 302
    game = Game.objects.get(tournament=cup)
    assert PlayerClock.objects.filter(game=game).count() == 2  # stored clocks: the nightly job sees it
    assert 'name="events_version"' not in client.get(f"/admin/corr/game/{game.pk}/change/").content.decode()
