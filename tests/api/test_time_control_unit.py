"""A live tournament keeps seconds, a correspondence one days (issue 23, item 6).

A live tournament PATCHed to days answered 200, after which every live game answered 400 to reads,
moves and pauses (and the late-arrival excuse 500); a server tournament without games took a
control in seconds. Both are now 400 naming ``ruleset.time_control.unit``, with or without games,
and the tournament is unchanged.
"""

from __future__ import annotations

from datetime import date

import pytest

from corr.games import services
from corr.models import Tournament

pytestmark = pytest.mark.django_db

SECONDS = {"unit": "seconds", "system": "fischer", "initial": 300, "increment": 2}
DAYS = {"system": "fischer", "initial": 30, "increment": 1}



@pytest.fixture(autouse=True)
def no_timers(monkeypatch):
    """No in-process flag timer from these live games: set on the frozen clock, it would fire minutes after
    the test (the live tests run the checks by hand)."""
    from corr.live import timesource

    monkeypatch.setattr(timesource, "call_at", lambda at_ms, callback: None)


@pytest.fixture
def live(arbiter):
    return services.tournament_create(by=arbiter, name="Live cup", official_start=date(2026, 3, 1), mode="live",
                                      ruleset={"time_control": SECONDS})


def patch(api, user, tournament, body):
    return api(user).patch(f"/api/tournaments/{tournament.pk}/", body, format="json")


@pytest.mark.parametrize("ruleset", [{"time_control": DAYS}, {"time_control": {**DAYS, "unit": "days"}},
                                     {"time_control": None}])
def test_a_live_tournament_patched_to_days_is_refused_naming_the_unit(api, arbiter, live, ruleset):
    response = patch(api, arbiter, live, {"ruleset": ruleset})
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == "ruleset.time_control.unit"
    assert Tournament.objects.get(pk=live.pk).time_control == live.time_control


def test_a_live_tournament_with_games_patched_to_days_is_refused_and_its_game_still_reads(api, arbiter, live, frozen,
                                                                                      anna, boris):
    created = api(arbiter).post("/api/games/", {"tournament": live.pk, "white": "anna", "black": "boris",
                                                "starts_at": "2026-03-01T12:00:00Z"}, format="json")
    assert created.status_code == 201, created.json()
    response = patch(api, arbiter, live, {"ruleset": {"time_control": DAYS}})
    assert response.status_code == 400 and response.json()["field"] == "ruleset.time_control.unit"
    assert api(anna).get(f"/api/games/{created.json()['id']}/").status_code == 200


def test_a_preset_in_days_is_refused_for_a_live_tournament(api, arbiter, live):
    response = patch(api, arbiter, live, {"preset": "schemingmind_standard"})
    assert response.status_code == 400 and response.json()["field"] == "ruleset.time_control.unit"


def test_a_live_tournament_may_still_change_its_seconds(api, arbiter, live):
    response = patch(api, arbiter, live, {"ruleset": {"time_control": {**SECONDS, "initial": 600}}})
    assert response.status_code == 200, response.json()
    assert Tournament.objects.get(pk=live.pk).time_control["initial"] == 600


@pytest.mark.parametrize("mode", ["server", "postal"])
def test_a_correspondence_tournament_without_games_patched_to_seconds_is_refused(api, arbiter, mode):
    tournament = services.tournament_create(by=arbiter, name="League", official_start=date(2026, 1, 10), mode=mode)
    response = patch(api, arbiter, tournament, {"ruleset": {"time_control": SECONDS}})
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == "ruleset.time_control.unit"
    assert Tournament.objects.get(pk=tournament.pk).time_control is None


def test_a_correspondence_tournament_with_games_patched_to_seconds_is_refused(api, arbiter, server_game):
    response = patch(api, arbiter, server_game.tournament, {"ruleset": {"time_control": SECONDS}})
    assert response.status_code == 400 and response.json()["field"] == "ruleset.time_control.unit"


@pytest.mark.parametrize("mode, time_control", [("server", SECONDS), ("postal", SECONDS), ("live", DAYS)])
def test_a_tournament_created_with_the_other_unit_is_refused_naming_the_unit(api, arbiter, mode, time_control):
    response = api(arbiter).post("/api/tournaments/", {"name": "x", "official_start": "2026-02-01", "mode": mode,
                                                       "ruleset": {"time_control": time_control}}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "ruleset.time_control.unit"
    assert not Tournament.objects.exists()


def test_a_correspondence_tournament_may_still_change_its_days(api, arbiter, server):
    response = patch(api, arbiter, server, {"ruleset": {"time_control": DAYS}})
    assert response.status_code == 200, response.json()


def test_the_admin_refuses_seconds_for_a_server_tournament_and_a_mode_change_once_it_has_games(server_game, arbiter,
                                                                                            settings):
    from django.test import Client

    settings.SECURE_SSL_REDIRECT = False
    tournament = server_game.tournament
    client = Client()
    client.force_login(arbiter)
    arbiter.is_staff = arbiter.is_superuser = True
    arbiter.save()
    form = {"name": tournament.name, "official_start": "2026-01-10", "mode": "server", "time_zone": "UTC",
            "presumed_transit_days": 0, "moves_per_control": 10, "days_per_control": 30, "grace_days": 3,
            "first_penalty_days": 5, "repeat_penalty_days": 10, "time_trouble_days": 5, "late_notice_start_days": 3,
            "time_control": '{"unit": "seconds", "system": "fischer", "initial": 300, "increment": 2}',
            "kind": "chess", "created_by": arbiter.pk, "arbiters": [arbiter.pk]}
    other = services.tournament_create(by=arbiter, name="Games elsewhere", official_start=date(2026, 1, 10),
                                       mode="server")
    response = client.post(f"/admin/corr/tournament/{tournament.pk}/change/", form)
    assert response.status_code == 200 and "live tournaments" in response.content.decode()
    response = client.post(f"/admin/corr/tournament/{tournament.pk}/change/", {**form, "mode": "postal",
                                                                              "time_control": "null"})
    assert response.status_code == 200 and "cannot change once" in response.content.decode()
    response = client.post(f"/admin/corr/tournament/{other.pk}/change/", {**form, "name": other.name,
                                                                         "time_control": "null"})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).time_control is None
