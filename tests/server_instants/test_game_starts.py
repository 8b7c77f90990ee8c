"""A server game's clock starts no earlier than the game (issue 39): a game created after its tournament's
official start charges its first mover nothing before it existed, unless the arbiter names an earlier start;
the demo's ICCF game shows 0 days used however late in the UTC day it is made; exports carry the start."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command

from corr.games import services
from corr.games.demo import demo_create
from corr.models import Game

from .conftest import START, instant_tournament

pytestmark = pytest.mark.django_db

CREATED = datetime(2026, 3, 5, 14, 30, tzinfo=UTC)
"""Three days and a half after the official start (00:00 of 03-02 in Moscow is 03-01T21:00Z)."""


def create(api, arbiter, tournament, **extra):
    with time_machine.travel(CREATED, tick=False):
        return api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": "anna", "black": "boris",
                                                 **extra}, format="json")


def white(api, user, game_id, at) -> dict:
    with time_machine.travel(at, tick=False):
        return api(user).get(f"/api/games/{game_id}/").json()


@pytest.mark.parametrize("preset", ["iccf_10_50", "lichess_days_3"])
def test_a_game_created_after_the_start_charges_nothing_before_it_existed(api, arbiter, anna, boris, preset):
    tournament = instant_tournament(arbiter, preset=preset)
    answer = create(api, arbiter, tournament)
    assert answer.status_code == 201, answer.json()
    body = white(api, anna, answer.json()["id"], CREATED + timedelta(hours=20))
    account = body["clock"]["players"]["white"]
    assert account["thinking_days"] == 0  # 20 hours since the game began: not 3 days since the official start
    assert account["flag_at"] > CREATED.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_the_arbiter_may_name_an_earlier_start(api, arbiter, anna, boris):
    tournament = instant_tournament(arbiter, preset="lichess_days_3")
    answer = create(api, arbiter, tournament, starts_at="2026-03-02T06:00:00Z")
    assert answer.status_code == 201, answer.json()
    account = white(api, anna, answer.json()["id"], CREATED)["clock"]["players"]["white"]
    assert account["flag_at"] == "2026-03-05T06:00:00Z"  # 3 days of 86,400 s from the named start
    refused = create(api, arbiter, tournament, starts_at="2026-03-01T20:59:59Z")  # before 00:00 in Moscow
    assert refused.status_code == 400
    assert refused.json()["field"] == "starts_at" and "official start" in refused.json()["detail"]
    postal = services.tournament_create(by=arbiter, name="Cup", official_start=START, mode="postal")
    refused = create(api, arbiter, postal, starts_at="2026-03-02T06:00:00Z")
    assert refused.status_code == 400 and refused.json()["field"] == "starts_at"
    assert Game.objects.count() == 1  # the refusals stored nothing


def test_the_export_carries_the_start_and_computes_back(api, arbiter, anna, boris, tmp_path):
    tournament = instant_tournament(arbiter, preset="lichess_days_3")
    game_id = create(api, arbiter, tournament).json()["id"]
    with time_machine.travel(CREATED + timedelta(hours=2), tick=False):
        assert api(anna).post(f"/api/games/{game_id}/moves/", {"number": 1, "notation": "e4"},
                              format="json").status_code == 201
    as_of = CREATED + timedelta(days=1)
    with time_machine.travel(as_of, tick=False):
        answer = api(anna).get(f"/api/games/{game_id}/export/pgn/")
    assert answer.status_code == 200
    text = answer.content.decode()
    assert '[UTCDate "2026.03.05"]' in text and '[UTCTime "14:30:00"]' in text, text
    path = tmp_path / "game.pgn"
    path.write_text(text)
    out = StringIO()
    call_command("clock", str(path), "--preset", "lichess_days_3", "--time-zone", "Europe/Moscow", "--json",
                 "--as-of", as_of.strftime("%Y-%m-%dT%H:%M:%SZ"), stdout=out)
    said = json.loads(out.getvalue())["players"]
    page = white(api, anna, game_id, as_of)["clock"]["players"]
    assert said["white"] == page["white"] and said["black"] == page["black"]


@pytest.mark.parametrize("utc", [datetime(2026, 3, 5, 23, 23, tzinfo=UTC), datetime(2026, 3, 5, 9, 0, tzinfo=UTC)])
def test_the_demos_iccf_game_shows_no_day_used_when_it_is_made(api, utc):
    with time_machine.travel(utc, tick=False):
        demo_create(now=utc)
        game = Game.objects.get(tournament__name="Demo ICCF server event")
        assert game.tournament.official_start == (utc + timedelta(hours=3)).date()  # today in Moscow
        body = api(game.white).get(f"/api/games/{game.pk}/").json()
    assert body["clock"]["players"]["white"]["thinking_days"] == 0
    assert body["time_left"]["white"]["control_days"] == 50
    assert date.fromisoformat(body["clock"]["as_of"][:10]) >= game.tournament.official_start - timedelta(days=1)
