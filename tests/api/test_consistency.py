"""One clock everywhere: API, export, ``manage.py clock`` and the stored accounts; constant queries."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.models import PlayerClock

from ..conftest import NOW, clock_events

pytestmark = pytest.mark.django_db




def play_days(api, game, anna, boris, moves: int):
    """Like ``play`` with ISO dates from day offsets (any length of game)."""
    from datetime import date

    base = date(2026, 1, 10)
    offset = 0
    for n in range(1, moves + 1):
        data = {"number": n, "sent_on": (base + timedelta(days=offset)).isoformat()}
        if n > 1:
            data["received_on"] = (base + timedelta(days=offset)).isoformat()
        assert api(anna).post(f"/api/games/{game.pk}/moves/", data, format="json").status_code == 201
        offset += 1
        data = {"number": n, "received_on": (base + timedelta(days=offset)).isoformat(),
                "sent_on": (base + timedelta(days=offset)).isoformat()}
        assert api(boris).post(f"/api/games/{game.pk}/moves/", data, format="json").status_code == 201


def test_the_exported_game_file_gives_the_api_clock_through_manage_py_clock(api, postal_game, anna, boris, arbiter,
                                                                             tmp_path):
    play_days(api, postal_game, anna, boris, 6)
    api(arbiter).post(f"/api/games/{postal_game.pk}/penalties/", {"player": "black", "reason": "address_error"},
                      format="json")
    api(arbiter).post(f"/api/games/{postal_game.pk}/delays/", {"player": "white", "days": 2}, format="json")
    game = api(anna).get(f"/api/games/{postal_game.pk}/").json()
    exported = api(anna).get(f"/api/games/{postal_game.pk}/events/").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported))
    out = io.StringIO()
    call_command("clock", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue()) == game["clock"]


def test_the_stored_accounts_match_the_clock_after_every_event(api, postal_game, anna, boris):
    play_days(api, postal_game, anna, boris, 3)
    game = api(anna).get(f"/api/games/{postal_game.pk}/").json()
    for colour, account in game["clock"]["players"].items():
        stored = PlayerClock.objects.get(game=postal_game, player=colour)
        assert stored.deadline == (None if account["deadline"] is None else
                                   __import__("datetime").date.fromisoformat(account["deadline"]))
        assert stored.on_move == account["on_move"]
        assert stored.total_days == account["total_days"]
        assert stored.remaining_days == account["control"]["remaining_days"]


def count_queries(client, url) -> int:
    from django.core.cache import cache

    cache.clear()  # a cold read: the clock is computed, not taken from the cache
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_reading_a_game_costs_the_same_queries_whatever_its_length(api, arbiter, postal, anna, boris, frozen):
    from corr.games import services

    frozen.move_to(NOW + timedelta(days=400))
    today = (NOW + timedelta(days=400)).date()
    short = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=today)
    long = services.game_create(by=arbiter, tournament=postal, white=boris, black=anna, today=today)
    play_days(api, short, anna, boris, 2)
    play_days(api, long, boris, anna, 40)
    assert clock_events(game=long).count() == 80
    client = api(anna)
    count_queries(client, f"/api/games/{short.pk}/")  # warm the token's user cache alike
    assert count_queries(client, f"/api/games/{short.pk}/") == count_queries(client, f"/api/games/{long.pk}/")


def test_a_retried_post_with_the_same_idempotency_key_replays_and_stores_nothing(api, postal_game, anna):
    client = api(anna)
    url = f"/api/games/{postal_game.pk}/moves/"
    first = client.post(url, {"number": 1, "sent_on": "2026-01-12"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = client.post(url, {"number": 1, "sent_on": "2026-01-12"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert clock_events().count() == 1
    # Without the key the same body is a new request: not white's turn any more.
    assert client.post(url, {"number": 1, "sent_on": "2026-01-12"}, format="json").status_code == 409


def test_an_idempotency_key_reused_on_another_path_is_refused(api, postal_game, anna):
    client = api(anna)
    client.post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-01-12"}, format="json",
                HTTP_IDEMPOTENCY_KEY="k-2")
    r = client.post(f"/api/games/{postal_game.pk}/receipts/", {"received_on": "2026-01-12"}, format="json",
                    HTTP_IDEMPOTENCY_KEY="k-2")
    assert r.status_code == 422 and r.json()["field"] == "Idempotency-Key"


def test_a_cached_clock_is_never_served_after_a_move_a_new_day_or_a_result(api, postal_game, anna, boris, arbiter,
                                                                            frozen):
    url = f"/api/games/{postal_game.pk}/"
    first = api(anna).get(url).json()
    assert api(anna).get(url).json() == first  # served again, now from the cache
    api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-02-20"}, format="json")
    after_move = api(anna).get(url).json()
    assert after_move["to_move"] == "black" and after_move != first
    frozen.move_to(NOW + timedelta(days=1))
    next_day = api(anna).get(url).json()
    assert next_day["clock"]["as_of"] == "2026-03-02"
    api(arbiter).post(f"/api/games/{postal_game.pk}/result/", {"result": "1-0"}, format="json")
    assert api(anna).get(url).json()["to_move"] is None


def test_a_rule_change_in_the_admin_is_never_hidden_by_the_cache(api, postal_game, anna):
    url = f"/api/games/{postal_game.pk}/"
    before = api(anna).get(url).json()["clock"]["players"]["white"]["control"]["allowed_days"]
    postal_game.tournament.days_per_control = 40
    postal_game.tournament.save()
    after = api(anna).get(url).json()["clock"]["players"]["white"]["control"]["allowed_days"]
    assert (before, after) == (30, 40)
