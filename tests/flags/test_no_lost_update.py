"""No lost update: moves over real HTTP while the nightly job runs, every stored clock checked against the calculator.

Eight server games are played by sixteen clients through a live threaded
server while this thread runs the nightly job over and over on the same
database. Between runs, and at the end, a consistent snapshot of every game
(one transaction: REPEATABLE READ on PostgreSQL, the write lock on SQLite)
compares each stored clock with what the calculator computes from the stored
events of that snapshot. Before the chunk locked its games, 22 stale clocks
were seen in 7 of 16 games under this load.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import requests
from django.db import connection, transaction
from rest_framework.authtoken.models import Token

from accounts.models import User
from corr.games import services
from corr.games.clockstate import game_time
from corr.games.selectors import game_rows
from corr.games.services import CLOCK_FIELDS, clock_fields, time_for_storage
from corr.models import Game, PlayerClock
from corr.nightly.job import nightly_job

from ..conftest import NOW, TODAY
from ..support.legal_moves import dance

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = 8
MOVES_EACH = 10


def snapshot_mismatches() -> list[str]:
    """Stored clocks that differ from the calculator's, in one consistent read of every game."""
    bad = []
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        for game in Game.objects.select_related("tournament").order_by("pk"):
            rows = game_rows(game=game)
            expected = clock_fields(game, time_for_storage(game, rows, TODAY, game_time(game, rows, TODAY)))
            for clock in PlayerClock.objects.filter(game=game):
                stored = {name: getattr(clock, name) for name in CLOCK_FIELDS}
                if stored != expected[clock.player]:
                    bad.append(f"game {game.pk} {clock.player}: stored {stored}, computed {expected[clock.player]}")
    return bad


def test_moves_and_the_nightly_job_at_once_leave_every_stored_clock_true(live_server, arbiter, frozen):
    # 5 days a control: every player is in time trouble, so the nightly job selects every game each run.
    league = services.tournament_create(by=arbiter, name="Busy league", official_start=TODAY - timedelta(days=3),
                                        mode="server", ruleset={"days_per_control": 5})
    games = []
    for i in range(GAMES):
        white = User.objects.create_user(f"w{i}", f"w{i}@example.org", "pass-w-123")
        black = User.objects.create_user(f"b{i}", f"b{i}@example.org", "pass-b-123")
        game = services.game_create(by=arbiter, tournament=league, white=white, black=black, today=TODAY)
        tokens = [Token.objects.get_or_create(user=u)[0].key for u in (white, black)]
        games.append((game.pk, tokens))
    failures: list[str] = []

    def play(game_id: int, tokens: list[str]) -> None:
        session = requests.Session()
        for number in range(1, MOVES_EACH + 1):
            for colour, token in zip(("white", "black"), tokens, strict=True):
                r = session.post(f"{live_server.url}/api/games/{game_id}/moves/",
                                 json={"number": number, "notation": dance(colour, number)},
                                 headers={"Authorization": f"Token {token}"}, timeout=60)
                if r.status_code != 201:
                    failures.append(f"game {game_id} move {number}: {r.status_code} {r.text}")
                    return

    players = [threading.Thread(target=play, args=game) for game in games]
    for thread in players:
        thread.start()
    runs, mismatches = 0, []
    while any(thread.is_alive() for thread in players):
        nightly_job(on=TODAY, now=NOW)
        runs += 1
        mismatches += snapshot_mismatches()
    for thread in players:
        thread.join()
    nightly_job(on=TODAY, now=NOW)
    assert failures == []
    assert runs >= 2, "the job must have run while the players moved"
    assert mismatches == []
    assert snapshot_mismatches() == []
    assert all(c.made == MOVES_EACH for c in PlayerClock.objects.all())
