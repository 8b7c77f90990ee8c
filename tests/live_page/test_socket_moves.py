"""Moves sent over the live game's WebSocket (issue 27): the checks and answers of POST /api/games/{id}/moves/.

Through the real ASGI application (corr.asgi: the origin check, the session, the router, the consumer) on the
injected server clock. What the client receives is compared: the answer's JSON with the HTTP endpoint's
answer to the same request, the pushes with GET's ``"live"`` object, and the events stored (none on a refusal).
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from corr.models import LiveEvent, LiveEventKind
from tests.conftest import client_for

from .conftest import socket

pytestmark = pytest.mark.django_db(transaction=True)


def api_live(game, user) -> dict:
    r = client_for(user).get(f"/api/games/{game.pk}/")
    assert r.status_code == 200, r.json()
    return r.json()["live"]


def http_move(game, user, body: dict, language: str = "en"):
    return client_for(user).post(f"/api/games/{game.pk}/moves/", body, format="json",
                                 HTTP_ACCEPT_LANGUAGE=language)


def moves_stored(game) -> int:
    return LiveEvent.objects.filter(game=game, kind=LiveEventKind.MOVE).count()


def over_socket(game, sender, messages: list[dict], watcher=None, language: str = "en") -> dict:
    """``sender`` sends ``messages`` on the game's socket (its page's language ``language``); returns the answers
    to the sender (one per message) and, when ``watcher`` is given, what the watcher's socket received after."""
    ws = socket(game.pk, sender)  # signed in here: a session is stored, which no event loop may do
    ws.scope["headers"].append((b"accept-language", language.encode()))
    seen = None if watcher is None else socket(game.pk, watcher)

    async def scenario():
        assert (await ws.connect(timeout=10))[0]
        await ws.receive_json_from(timeout=10)  # the state on connecting
        if seen is not None:
            assert (await seen.connect(timeout=10))[0]
            await seen.receive_json_from(timeout=10)
        answers = []
        for message in messages:
            await ws.send_json_to(message)
            while True:  # the sender's push and its answer may come in either order
                got = await ws.receive_json_from(timeout=10)
                if got.get("type") == "move":
                    answers.append(got)
                    break
        pushed = []
        if seen is not None:
            while not await seen.receive_nothing(timeout=0.5):
                pushed.append(await seen.receive_json_from(timeout=10))
            await seen.disconnect()
        await ws.disconnect()
        return {"answers": answers, "pushed": pushed}

    return async_to_sync(scenario)()


def test_a_move_sent_on_the_socket_is_recorded_answered_and_pushed_as_the_apis(live_game, anna, boris):
    got = over_socket(live_game, anna, [{"type": "move", "id": "m1", "number": 1, "notation": "e4", "lag_ms": 30}],
                      watcher=boris)
    (answer,) = got["answers"]
    assert answer["type"] == "move" and answer["id"] == "m1" and answer["status"] == 201, answer
    now = api_live(live_game, boris)
    assert now["running"] == "black" and now["version"] == answer["live"]["version"]
    assert answer["live"]["players"] == now["players"]  # the same instant (the injected clock stands still)
    assert [p["version"] for p in got["pushed"]] == [now["version"]]
    assert {k: v for k, v in got["pushed"][0].items() if k != "termination_text"} == now
    assert moves_stored(live_game) == 1


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"number": 2, "notation": "e4"}, 409, "number"),  # the game has no move 2 yet
    ({"number": 1, "notation": "e5e5"}, 400, "notation"),
    ({"number": 1, "notation": "e4", "lag_ms": 60_000}, 400, "lag_ms"),
    ({"number": 1, "notation": "e4", "colour": "white"}, 400, "colour"),  # no field the HTTP body refuses
    ({"notation": "e4"}, 400, "number"),
])
def test_a_refused_move_gets_the_https_error_body_and_stores_nothing(live_game, anna, body, status, field):
    got = over_socket(live_game, anna, [{"type": "move", "id": 7, **body}])
    (answer,) = got["answers"]
    assert moves_stored(live_game) == 0
    http = http_move(live_game, anna, body)
    assert (answer["status"], http.status_code) == (status, status), (answer, http.json())
    assert {k: v for k, v in answer.items() if k not in ("type", "id", "status")} == http.json()
    assert answer["field"] == field and answer["id"] == 7


def test_the_partners_move_and_a_watching_arbiters_are_refused_as_over_http(live_game, boris, arbiter):
    (partner,) = over_socket(live_game, boris, [{"type": "move", "number": 1, "notation": "e5"}])["answers"]
    assert partner["status"] == 409 and partner["field"] == "number", partner
    (watcher,) = over_socket(live_game, arbiter, [{"type": "move", "number": 1, "notation": "e4"}])["answers"]
    assert watcher["status"] == 403, watcher
    assert watcher["detail"] == http_move(live_game, arbiter, {"number": 1, "notation": "e4"}).json()["detail"]
    assert moves_stored(live_game) == 0


def test_a_move_sent_twice_is_recorded_once_and_the_second_told_it_lost(live_game, anna):
    first, second = over_socket(live_game, anna, [{"type": "move", "id": 1, "number": 1, "notation": "e4"},
                                                  {"type": "move", "id": 2, "number": 1, "notation": "e4"}])["answers"]
    assert (first["status"], second["status"]) == (201, 409), second
    assert second["detail"] == "it is black's move"
    assert moves_stored(live_game) == 1


def test_the_error_is_in_the_language_of_the_page_that_opened_the_socket(live_game, anna):
    body = {"number": 3, "notation": "e4"}
    (answer,) = over_socket(live_game, anna, [{"type": "move", **body}], language="ru")["answers"]
    assert answer["detail"] == http_move(live_game, anna, body, language="ru").json()["detail"]
    assert answer["detail"] != http_move(live_game, anna, body, language="en").json()["detail"]


def test_a_game_played_on_the_socket_shows_every_move_in_the_history(live_game, anna, boris, server_clock):
    for number, (white, black) in enumerate([("e4", "e5"), ("Nf3", "Nc6")], start=1):
        server_clock.advance(3_000)
        assert over_socket(live_game, anna, [{"type": "move", "number": number, "notation": white}]
                           )["answers"][0]["status"] == 201
        server_clock.advance(2_000)
        assert over_socket(live_game, boris, [{"type": "move", "number": number, "notation": black}]
                           )["answers"][0]["status"] == 201
    history = client_for(anna).get(f"/api/games/{live_game.pk}/history/").json()
    moves = [(e["player"], e["number"], e["notation"], e["at_ms"]) for e in history if e["kind"] == "move"]
    end = server_clock.ms  # each press stamped with the server's instant when it was taken
    assert moves == [("white", 1, "e4", end - 7_000), ("black", 1, "e5", end - 5_000),
                     ("white", 2, "Nf3", end - 2_000), ("black", 2, "Nc6", end)]


def kind_game(api, arbiter, server_clock, kind: str):
    """A live game of ``kind`` (anna white, boris black; Go: black, boris, moves first), clocks running."""
    from corr.models import Game, Tournament

    from .conftest import FISCHER_5_2, iso

    r = api(arbiter).post("/api/tournaments/", {"name": f"Live {kind}", "official_start": iso(server_clock.ms)[:10],
                                                "mode": "live", "kind": kind,
                                                "ruleset": {"time_control": {
                                                    **FISCHER_5_2, **({"first": "black"} if kind == "go" else {})}}},
                          format="json")
    assert r.status_code == 201, r.json()
    tournament = Tournament.objects.get(pk=r.json()["id"])
    r = api(arbiter).post("/api/games/", {"tournament": tournament.pk, "white": "anna", "black": "boris",
                                          "starts_at": iso(server_clock.ms)}, format="json")
    assert r.status_code == 201, r.json()
    server_clock.advance(1_000)
    return Game.objects.get(pk=r.json()["id"])


@pytest.mark.parametrize(("kind", "before", "illegal", "words"), [
    # Issue 36: every kind checked on its board, on the socket as over HTTP.
    ("chess", [], "Ke2", "'Ke2' is not a legal move for white's move 1"),
    ("chess", ["e4", "e5", "Ke2", "Bc5"], "Ke3", "'Ke3' is not a legal move for white's move 3"),  # into check
    ("draughts", ["c3-d4", "f6-e5"], "a3-b4", "'a3-b4' is not a legal move for white's move 2"),  # capture forced
    ("go", ["D4"], "D4", "'D4' is not a legal move for white's move 1: the point is occupied"),
    ("go", ["A2", "T19", "B1"], "A1", "'A1' is not a legal move for white's move 2: a stone may not be played where"
                                      " it or its group would have no liberty (suicide)"),
    ("go", ["B2", "C2", "C3", "D3", "C1", "D1", "T19", "E2", "D2"], "C2",
     "'C2' is not a legal move for white's move 5: ko: the stone just captured may not be retaken at once"),
    ("go", [], "I5", "'I5' is not a Go move (black's move 1): write a point such as D4"),
])
def test_an_illegal_move_of_every_kind_is_refused_on_the_socket_as_over_http(api, arbiter, anna, boris,
                                                                             server_clock, kind, before, illegal,
                                                                             words):
    game = kind_game(api, arbiter, server_clock, kind)
    first, second = (boris, anna) if kind == "go" else (anna, boris)
    for index, notation in enumerate(before):
        mover = first if index % 2 == 0 else second
        r = http_move(game, mover, {"number": index // 2 + 1, "notation": notation})
        assert r.status_code == 201, (notation, r.json())
    mover = first if len(before) % 2 == 0 else second
    body = {"number": len(before) // 2 + 1, "notation": illegal}
    stored = moves_stored(game)
    (answer,) = over_socket(game, mover, [{"type": "move", "id": 9, **body}])["answers"]
    http = http_move(game, mover, body)
    assert (answer["status"], http.status_code) == (400, 400), (answer, http.json())
    assert answer["field"] == "notation" and answer["detail"] == http.json()["detail"]
    assert answer["detail"].startswith(words), answer["detail"]
    assert moves_stored(game) == stored  # nothing stored, no clock pressed
