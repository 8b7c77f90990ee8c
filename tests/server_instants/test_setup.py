"""Tournaments and their count (issue 22): instants only where there are instants; the count a tournament keeps."""

from __future__ import annotations

from datetime import date

import pytest

from corr.games import services
from corr.games.clockstate import tournament_count
from corr.models import GameEvent, PlayerClock, Tournament

from .conftest import START, WHITE_SENT, game_of, move_at, z

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words", [
    ("en", "a postal or e-mail tournament counts dates"),
    ("ru", "заочный турнир по почте или e-mail считает даты"),
    ("fr", "un tournoi par correspondance postale ou électronique compte en dates"),
])
@pytest.mark.parametrize("preset", ["lichess_days_1", "chesscom_days_3", "iccf_10_50"])
def test_a_postal_tournament_on_an_instant_count_is_refused_naming_count(api, arbiter, language, words, preset):
    response = api(arbiter).post("/api/tournaments/", {"name": "Post", "official_start": "2026-03-02",
                                                       "mode": "postal", "preset": preset},
                                 format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == "time_control.count"
    assert words in body["detail"]
    assert not Tournament.objects.exists()


def test_a_server_tournament_on_an_instant_count_is_created_with_its_count_and_timeouts(api, arbiter):
    response = api(arbiter).post("/api/tournaments/", {"name": "Daily", "official_start": "2026-03-02",
                                                       "mode": "server", "preset": "lichess_days_2",
                                                       "timeouts": "automatic"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["timeouts"] == "automatic"
    assert body["ruleset"]["time_control"]["count"] == "exact"


def test_a_postal_tournament_cannot_be_changed_to_an_instant_count(api, arbiter):
    tournament = services.tournament_create(by=arbiter, name="Post", official_start=START, mode="postal")
    response = api(arbiter).patch(f"/api/tournaments/{tournament.pk}/", {"preset": "iccf_10_50"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "time_control.count"
    tournament.refresh_from_db()
    assert tournament_count(tournament) == "dates"


def test_timeouts_is_checked_and_changed_through_the_api(api, arbiter):
    tournament = services.tournament_create(by=arbiter, name="Daily", official_start=START, mode="server",
                                            preset="lichess_days_1")
    assert tournament.timeouts == "arbiter"  # the default: a case, the 50.4 way
    bad = api(arbiter).post("/api/tournaments/", {"name": "D", "official_start": "2026-03-02", "mode": "server",
                                                  "timeouts": "sometimes"}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "timeouts"
    changed = api(arbiter).patch(f"/api/tournaments/{tournament.pk}/", {"timeouts": "automatic"}, format="json")
    assert changed.status_code == 200 and changed.json()["timeouts"] == "automatic"


def test_a_tournament_created_before_counts_keeps_counting_dates(api, arbiter, anna, boris):
    """An iccf_10_50 tournament stored before the preset counted whole days has no count: it counts dates."""
    old = services.tournament_create(by=arbiter, name="Old ICCF", official_start=START, mode="server",
                                     preset="iccf_10_50")
    stored = dict(old.time_control)
    stored.pop("count", None)  # as it was stored then
    Tournament.objects.filter(pk=old.pk).update(time_control=stored)
    old = Tournament.objects.get(pk=old.pk)
    assert tournament_count(old) == "dates"
    game = game_of(arbiter, old, anna, boris)
    assert move_at(api(anna), game, 1, "d4", WHITE_SENT).status_code == 201
    # The instant is stored all the same (it is a fact of a server game); the clock counts dates.
    row = GameEvent.objects.get(game=game, kind="move")
    assert (row.sent_on, z(row.sent_at)) == (date(2026, 3, 2), "2026-03-02T10:00:00Z")
    clock = PlayerClock.objects.get(game=game, player="black")
    assert clock.flag_at is None  # no sweep for a dates game: the nightly run checks it
    body = api(anna).get(f"/api/games/{game.pk}/").json()
    assert body["clock"]["players"]["black"]["deadline"] is not None


def test_a_postal_game_is_not_paired_in_an_instant_tournament(api, arbiter, anna, boris):
    tournament = services.tournament_create(by=arbiter, name="Daily", official_start=START, mode="server",
                                            preset="lichess_days_1")
    response = api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": "anna", "black": "boris",
                                                 "mode": "postal"}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "time_control.count"


def test_the_admin_offers_timeouts_and_refuses_a_postal_instant_count(admin_client, arbiter):
    form = {"name": "Admin daily", "official_start": "2026-03-02", "mode": "postal", "kind": "chess",
            "time_zone": "UTC", "presumed_transit_days": 0, "moves_per_control": 10, "days_per_control": 30,
            "grace_days": 3, "first_penalty_days": 5, "repeat_penalty_days": 10, "time_trouble_days": 5,
            "late_notice_start_days": 3, "arbiters": [arbiter.pk], "created_by": arbiter.pk,
            "created_at_0": "2026-01-01", "created_at_1": "12:00:00", "timeouts": "automatic",
            "time_control": '{"system": "per_move", "time": 1, "count": "exact"}'}
    page = admin_client.get("/admin/corr/tournament/add/").content.decode()
    assert 'name="timeouts"' in page
    refused = admin_client.post("/admin/corr/tournament/add/", form)
    assert refused.status_code == 200 and "a postal or e-mail tournament counts dates" in refused.content.decode()
    created = admin_client.post("/admin/corr/tournament/add/", form | {"mode": "server"})
    assert created.status_code == 302, created.content.decode()[-2000:]
    tournament = Tournament.objects.get(name="Admin daily")
    assert (tournament.timeouts, tournament_count(tournament)) == ("automatic", "exact")
