"""The clock read kept as JSON bytes: a cached read answers the bytes the renderer gives, never a stale clock."""

from __future__ import annotations

import json
from datetime import timedelta

import orjson
import pytest
from django.core.cache import cache

from corr.api.renderers import OrjsonRenderer
from corr.api.views import game_body
from corr.games import services
from corr.games.clockstate import game_time
from corr.games.selectors import (
    _clock_cache_key, _clock_view_compute, game_clock_view, game_clock_view_json, game_get, game_rows,
)
from corr.jsonbytes import json_bytes, json_object_join
from corr.models import Leave

from ..conftest import TODAY

pytestmark = pytest.mark.django_db

VIEW_KEYS = ("to_move", "pending", "clock")


@pytest.fixture
def played(postal_game, arbiter, anna, boris):
    """A postal game with moves, a penalty (a ledger line with a note), leave; white's move 2 pending."""
    day = TODAY - timedelta(days=20)
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=day, today=TODAY)
    services.move_submit(game=postal_game, by=boris, number=1, notation="e5", received_on=day + timedelta(days=3),
                         sent_on=day + timedelta(days=5), today=TODAY)
    services.penalty_assess(game=postal_game, by=arbiter, player="white", reason="address_error", today=TODAY)
    Leave.objects.create(user=anna, first=TODAY - timedelta(days=2), last=TODAY - timedelta(days=1),
                         tournament=postal_game.tournament)
    return game_get(game_id=postal_game.pk)


@pytest.fixture
def finished(played, arbiter):
    services.game_finish(game=played, by=arbiter, result="1-0", termination="black resigned", today=TODAY)
    return game_get(game_id=played.pk)


@pytest.fixture(params=["new", "played", "finished"])
def game(request):
    """A game with no move yet, one with moves and a pending move, one finished."""
    if request.param == "new":
        return game_get(game_id=request.getfixturevalue("postal_game").pk)
    return request.getfixturevalue(request.param)


def general_body(game, as_of=TODAY) -> dict:
    """The game as the general path shows it (every row, the calculator's ``as_json``): no cache, no bytes."""
    game = game_get(game_id=game.pk)
    return game_body(game, game_time(game, game_rows(game=game), as_of, with_ledger=True))


def rendered(data) -> bytes:
    return OrjsonRenderer().render(data)


def test_the_played_game_has_a_pending_move_and_a_ledger_note(played):
    body = general_body(played)
    assert body["pending"] == {"player": "white", "number": 2, "received_on": body["pending"]["received_on"],
                               "presumed": True}
    assert any(line["note"] for line in body["clock"]["ledger"])


def test_the_finished_game_is_over(finished):
    body = general_body(finished)
    assert body["status"] != "ongoing" and body["to_move"] is None and body["pending"] is None


# --- the selector ---------------------------------------------------------------------------------

def test_the_clock_bytes_are_the_renderers_of_the_view_on_a_miss_and_on_a_hit(game):
    expected = rendered({key: general_body(game)[key] for key in VIEW_KEYS})
    assert cache.get(_clock_cache_key(game=game, as_of=TODAY)) is None
    assert game_clock_view_json(game=game, as_of=TODAY) == expected  # miss
    assert cache.get(_clock_cache_key(game=game, as_of=TODAY)) == expected  # kept as the bytes themselves
    assert game_clock_view_json(game=game, as_of=TODAY) == expected  # hit


def test_the_clock_view_dict_is_the_computed_one_on_a_miss_and_on_a_hit(game):
    """The deadlines' reader parses the cached bytes: what it reads is what the calculator computed."""
    computed = _clock_view_compute(game=game, as_of=TODAY)
    assert game_clock_view(game=game, as_of=TODAY) == computed  # miss
    assert game_clock_view(game=game, as_of=TODAY) == computed  # hit
    assert list(computed) == list(VIEW_KEYS)


def test_the_clock_view_dict_reads_the_cached_entry(played):
    key = _clock_cache_key(game=played, as_of=TODAY)
    cache.set(key, b'{"to_move":"black","pending":null,"clock":{"marker":1}}')
    assert game_clock_view(game=played, as_of=TODAY) == {"to_move": "black", "pending": None, "clock": {"marker": 1}}


def test_a_move_or_a_new_date_is_a_new_cache_entry(played, anna, frozen):
    before = game_clock_view_json(game=played, as_of=TODAY)
    tomorrow = game_clock_view_json(game=played, as_of=TODAY + timedelta(days=1))
    assert orjson.loads(tomorrow)["clock"]["as_of"] == (TODAY + timedelta(days=1)).isoformat()
    services.move_submit(game=played, by=anna, number=2, notation="Nf3", received_on=TODAY - timedelta(days=10),
                         sent_on=TODAY - timedelta(days=9), today=TODAY)
    moved = game_get(game_id=played.pk)
    after = game_clock_view_json(game=moved, as_of=TODAY)
    assert after != before
    assert after == rendered({key: general_body(moved)[key] for key in VIEW_KEYS})


# --- joining rendered objects -----------------------------------------------------------------------

@pytest.mark.parametrize("first, second", [
    ({"id": 1, "white": "anna"}, {"to_move": None, "clock": {"ledger": [1, 2]}}),
    ({}, {"to_move": "white"}),
    ({"id": 1}, {}),
    ({}, {}),
])
def test_joined_objects_are_the_rendered_union(first, second):
    joined = json_object_join(json_bytes(first), json_bytes(second))
    assert joined == json_bytes(first | second)
    assert json.loads(joined) == first | second
