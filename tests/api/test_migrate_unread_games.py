"""A database made before issue 36, holding a server game with ``Ke2`` and ``zz9``, migrates and serves that game.

The rows are written at the schema before issue 36 (migration 0019) with the historical models, as the old
service stored them (unchecked), then the database is migrated to today's schema; the game's page, API, XFCC
answer and export are then served without an error, and nothing stored is changed.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from accounts.models import User
from accounts.xfcc import xfcc_password_issue
from corr.models import Game, GameEvent

from ..conftest import client_for
from ..xfcc.conftest import envelope, move_params

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("corr", "0019_conditional_draughts")]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture
def old_database(settings):
    settings.XFCC_REQUIRE_HTTPS = False
    anna = User.objects.create_user("anna", "anna@example.org", "anna-pass-1")
    boris = User.objects.create_user("boris", "boris@example.org", "boris-pass-1")
    arbiter = User.objects.create_user("arbiter", "arbiter@example.org", "arbiter-pass-1", is_superuser=True)
    # Every app's latest, not corr's alone: going back to 0019 unapplies the apps that depend on corr's later
    # migrations too (corr.notify), and the tests after this one need their tables.
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate(BEFORE)
    apps = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    Tournament, OldGame, Event = (apps.get_model("corr", name) for name in ("Tournament", "Game", "GameEvent"))
    tournament = Tournament.objects.create(name="Old league", official_start=date(2026, 11, 1), mode="server",
                                           created_by_id=arbiter.pk)
    tournament.arbiters.add(arbiter.pk)
    game = OldGame.objects.create(tournament=tournament, white_id=anna.pk, black_id=boris.pk, mode="server")
    sent = datetime(2026, 11, 2, 10, 0, tzinfo=timezone.utc)
    for seq, (player, user, notation) in enumerate([("white", anna, "Ke2"), ("black", boris, "zz9")], start=1):
        Event.objects.create(game=game, seq=seq, kind="move", player=player, number=1, notation=notation,
                             mail="server", sent_on=sent.date(), sent_at=sent, entered_by_id=user.pk)
    migrate(latest)
    yield Game.objects.get(pk=game.pk), anna, arbiter


def test_the_old_game_migrates_and_is_served_everywhere(old_database):
    game, anna, arbiter = old_database
    before = list(GameEvent.objects.filter(game=game).values_list("seq", "notation"))
    assert before == [(1, "Ke2"), (2, "zz9")]
    assert client_for(anna).get(f"/api/games/{game.pk}/").status_code == 200
    page = Client()
    page.force_login(arbiter)
    text = page.get(f"/games/{game.pk}/").content.decode()
    assert "corr cannot read this game from White&#x27;s move 1 Ke2" in text  # the page says from where
    assert client_for(anna).get(f"/api/games/{game.pk}/export/pgn/").status_code == 200
    password = xfcc_password_issue(user=anna, now=datetime.now(timezone.utc))
    r = Client().post("/xfcc/xfccbasic.asmx", envelope("GetMyGames", {"username": "anna", "password": password}),
                      content_type='text/xml; charset="utf-8"')
    assert r.status_code == 200 and f"<id>{game.pk}</id>" in r.content.decode()
    r = Client().post("/xfcc/xfccbasic.asmx", envelope("MakeAMove", move_params("anna", password, game.pk, 2, "Nf3")),
                      content_type='text/xml; charset="utf-8"')
    assert "<MakeAMoveResult>Success</MakeAMoveResult>" in r.content.decode()
    after = list(GameEvent.objects.filter(game=game).values_list("seq", "notation"))
    assert after[:2] == before  # nothing stored was changed
