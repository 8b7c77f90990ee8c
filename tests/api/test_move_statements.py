"""What one move costs the database: counted statements, so that a regression is caught (issue 13).

On PostgreSQL a move is: the token (with its user), one statement that locks
the game and reads it with its events, leave and cases, one that stores the
event, the version and both clocks, and the transaction's two ends (here a
savepoint and its release: the test runs inside a transaction, where
production sends BEGIN and COMMIT). Elsewhere (SQLite) the portable path is
counted. The count does not grow with the game's length, and an overstepped
game whose case figures did not change writes nothing more.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.games import services
from corr.models import CaseKind, OverstepCase

from ..support.legal_moves import dance

from ..conftest import NOW, TODAY

pytestmark = pytest.mark.django_db

POSTGRES_STATEMENTS = 5  # token, SAVEPOINT (BEGIN), lock and read, store, RELEASE (COMMIT)


def statements(client, game, number: int, colour: str = "white", **extra) -> tuple[int, list[str]]:
    """The statements one move sends; a ``PREPARE`` is once per database session, not per move: not counted."""
    with CaptureQueriesContext(connection) as ctx:
        r = client.post(f"/api/games/{game.pk}/moves/",
                        {"number": number, "notation": dance(colour, number), **extra}, format="json")
    assert r.status_code == 201, r.json()
    sql = [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith("PREPARE ")]
    return len(sql), sql


@pytest.fixture
def fresh_server_game(arbiter, anna, boris, frozen):
    # The tournament starts today: an ordinary game, no control overstepped.
    league = services.tournament_create(by=arbiter, name="Fresh league", official_start=TODAY, mode="server")
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)


def test_a_move_costs_a_fixed_number_of_statements_whatever_the_game_length(api, fresh_server_game, anna, boris):
    white, black = api(anna), api(boris)
    white.get("/api/users/me/")  # the same warm state for every counted request
    black.get("/api/users/me/")
    counts = []
    for n in range(1, 13):
        counts.append(statements(white, fresh_server_game, n)[0])
        counts.append(statements(black, fresh_server_game, n, "black")[0])
    assert len(set(counts)) == 1, counts
    if connection.vendor == "postgresql":
        assert counts[0] == POSTGRES_STATEMENTS, statements(white, fresh_server_game, 13)[1]


def test_the_one_statement_store_keeps_every_fact(api, fresh_server_game, anna):
    from corr.models import GameEvent, PlayerClock

    r = api(anna).post(f"/api/games/{fresh_server_game.pk}/moves/", {"number": 1, "notation": "e4"}, format="json")
    assert r.status_code == 201
    row = GameEvent.objects.get(game=fresh_server_game, kind="move")
    assert (row.seq, row.player, row.number, row.notation, row.sent_on, row.entered_by) == (
        1, "white", 1, "e4", TODAY, anna)
    fresh_server_game.refresh_from_db()
    assert fresh_server_game.events_version == 2  # created (1), then the move
    clocks = {c.player: c for c in PlayerClock.objects.filter(game=fresh_server_game)}
    assert clocks["white"].made == 1 and clocks["black"].on_move is True
    assert {c.events_version for c in clocks.values()} == {2}


def test_an_overstepped_game_writes_its_unchanged_case_once_a_day(api, server_game, anna, boris, frozen):
    # The server fixture's tournament began 2026-01-10: by 03-01 white is over control 1.
    white, black = api(anna), api(boris)
    white.get("/api/users/me/")
    first, _ = statements(white, server_game, 1)
    assert OverstepCase.objects.filter(game=server_game, kind=CaseKind.OVERSTEP).exists()
    second, _ = statements(black, server_game, 1, "black")
    third, sql = statements(white, server_game, 2)  # the same case, same figures, same day: not written
    assert not any("UPDATE \"corr_overstepcase\"" in q for q in sql), sql
    assert third <= second
    frozen.move_to(NOW + timedelta(days=1))
    assert date.today() == TODAY + timedelta(days=1)
    _, sql = statements(black, server_game, 2, "black")  # a new day: the case's figures are re-checked and written
    assert any("corr_overstepcase" in q for q in sql)


def test_the_ledger_is_in_the_answer_on_request_only(api, fresh_server_game, anna, boris):
    r = api(anna).post(f"/api/games/{fresh_server_game.pk}/moves/", {"number": 1, "notation": "e4"}, format="json")
    assert r.status_code == 201
    assert set(r.json()["clock"]) == {"as_of", "players"}
    assert set(r.json()) >= {"id", "to_move", "pending", "clock", "warnings", "white", "black", "status"}
    r = api(boris).post(f"/api/games/{fresh_server_game.pk}/moves/?ledger=1", {"number": 1, "notation": "e5"},
                        format="json")
    assert r.status_code == 201
    read = api(boris).get(f"/api/games/{fresh_server_game.pk}/").json()
    assert r.json()["clock"] == read["clock"]
    assert [(line["player"], line["move"]) for line in r.json()["clock"]["ledger"]] == [
        ("white", 1), ("black", 1), ("white", 2)]  # the last: white's pending move


def test_a_bad_ledger_parameter_is_refused_and_stores_nothing(api, fresh_server_game, anna):
    from corr.models import GameEvent

    r = api(anna).post(f"/api/games/{fresh_server_game.pk}/moves/?ledger=maybe", {"number": 1, "notation": "e4"},
                       format="json")
    assert r.status_code == 400 and r.json()["field"] == "ledger", r.json()
    assert not GameEvent.objects.filter(game=fresh_server_game, kind="move").exists()
