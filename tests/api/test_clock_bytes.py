"""The clock read kept as JSON bytes: a cached read answers the bytes the renderer gives, never a stale clock."""

from __future__ import annotations

import json
from datetime import timedelta

import orjson
import pytest
from django.core.cache import cache

from corr.api import serializers as s
from corr.api.renderers import OrjsonRenderer
from corr.api.views import game_body
from corr.games import services
from corr.games.clockstate import game_time
from corr.games.selectors import (
    _clock_cache_key, _clock_view_compute, game_clock_view, game_clock_view_json, game_get, game_rows,
)
from corr.jsonbytes import json_bytes, json_object_join

from ..conftest import NOW, TODAY

pytestmark = pytest.mark.django_db

VIEW_KEYS = ("to_move", "pending", "draw_offer", "turn", "time_left", "latest_send", "clock")


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
                               "received_at": None, "presumed": True}
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


# --- the answer of GET /api/games/{id}/ -----------------------------------------------------------

def expected_answer(game, as_of=TODAY) -> bytes:
    """What the view answered before its clock was kept as bytes: the renderer's output for the whole dict."""
    return rendered(general_body(game, as_of))


def test_the_answer_is_the_rendered_dict_on_a_miss_and_on_a_hit(api, game, anna):
    client, url = api(anna), f"/api/games/{game.pk}/"
    expected = expected_answer(game)
    key = _clock_cache_key(game=game, as_of=TODAY)
    assert cache.get(key) is None
    miss = client.get(url)
    assert cache.get(key) is not None
    hit = client.get(url)
    for answer in (miss, hit):
        assert answer.status_code == 200
        assert answer.content == expected
        assert answer.content == rendered(s.game_summary(game) | game_clock_view(game=game, as_of=TODAY))
        assert answer.json() == json.loads(expected)
        assert list(answer.json()) == list(s.game_summary(game)) + list(VIEW_KEYS)


def test_the_answer_has_the_headers_of_a_drf_answer(api, played, anna):
    """Those of the events' answer, a DRF ``Response`` of a view with the same methods (length aside)."""
    client = api(anna)
    drf = client.get(f"/api/games/{played.pk}/events/")
    expected = {name: value for name, value in drf.headers.items() if name != "Content-Length"}
    assert expected["Content-Type"] == "application/json" and "Accept" in expected["Vary"], expected
    for answer in (client.get(f"/api/games/{played.pk}/"), client.get(f"/api/games/{played.pk}/"),
                   client.get(f"/api/games/{played.pk}/", HTTP_ACCEPT="application/json"),
                   client.get(f"/api/games/{played.pk}/?format=json")):
        assert {name: value for name, value in answer.headers.items() if name != "Content-Length"} == expected
        assert answer["Content-Length"] == str(len(answer.content))


def test_a_json_read_does_not_render_the_clock_again(api, played, anna, monkeypatch):
    """The clock's part is written as cached: the renderer, which would render the whole ledger, is not called."""
    expected = expected_answer(played)

    def refuse(*args, **kwargs):
        raise AssertionError("the answer was rendered from a dict")

    monkeypatch.setattr(OrjsonRenderer, "render", refuse)
    client = api(anna)
    assert client.get(f"/api/games/{played.pk}/").content == expected  # miss
    assert client.get(f"/api/games/{played.pk}/").content == expected  # hit


def test_a_hit_answers_the_cached_bytes_as_they_are(api, played, anna):
    kept = b'{"to_move":"black","pending":null,"clock":{"marker":[1,2]}}'
    cache.set(_clock_cache_key(game=played, as_of=TODAY), kept)
    answer = api(anna).get(f"/api/games/{played.pk}/")
    assert answer.content == rendered(s.game_summary(played) | orjson.loads(kept))


@pytest.mark.parametrize("query, headers", [("?format=api", {}), ("", {"HTTP_ACCEPT": "text/html"})])
def test_the_browsable_api_still_shows_the_game(api, played, anna, query, headers):
    client, url = api(anna), f"/api/games/{played.pk}/"
    for _read in ("miss", "hit"):
        answer = client.get(url + query, **headers)
        assert answer.status_code == 200
        assert answer["Content-Type"].startswith("text/html")
        assert b"&quot;to_move&quot;" in answer.content and b"&quot;ledger&quot;" in answer.content


def test_a_move_changes_the_answer(api, played, anna):
    client, url = api(anna), f"/api/games/{played.pk}/"
    before = client.get(url).content
    assert client.get(url).content == before  # a hit
    services.move_submit(game=played, by=anna, number=2, notation="Nf3", received_on=TODAY - timedelta(days=10),
                         sent_on=TODAY - timedelta(days=9), today=TODAY)
    after = client.get(url).content
    assert after != before
    assert after == expected_answer(played)
    assert json.loads(after)["pending"]["player"] == "black"


def test_a_new_day_changes_the_answer(api, played, anna, frozen):
    client, url = api(anna), f"/api/games/{played.pk}/"
    before = client.get(url).content
    frozen.move_to(NOW + timedelta(days=1))
    after = client.get(url).content
    tomorrow = TODAY + timedelta(days=1)
    assert after != before
    assert json.loads(after)["clock"]["as_of"] == tomorrow.isoformat()
    assert after == expected_answer(played, tomorrow)


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


def test_a_miss_computes_with_the_cyclic_collector_paused_and_leaves_it_as_it_was(played, monkeypatch):
    import gc

    from corr.games import selectors

    seen = []

    def compute(**kwargs):
        seen.append(gc.isenabled())
        return _clock_view_compute(**kwargs)

    def failing(**kwargs):
        seen.append(gc.isenabled())
        raise RuntimeError("no clock")

    cache.clear()
    assert gc.isenabled()
    monkeypatch.setattr(selectors, "_clock_view_compute", compute)
    assert game_clock_view_json(game=played, as_of=TODAY) == json_bytes(_clock_view_compute(game=played, as_of=TODAY))
    game_clock_view_json(game=played, as_of=TODAY)  # a hit computes nothing
    monkeypatch.setattr(selectors, "_clock_view_compute", failing)
    with pytest.raises(RuntimeError):
        game_clock_view_json(game=played, as_of=TODAY + timedelta(days=1))
    assert seen == [False, False] and gc.isenabled()
