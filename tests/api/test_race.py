"""Two real, simultaneous HTTP submissions of one move: exactly one is stored, the other gets 409.

Runs against the configured database through a live threaded server: on
PostgreSQL the game row is locked with SELECT ... FOR UPDATE, on SQLite the
writing transactions begin IMMEDIATE. Either way the second request sees the
turn gone.
"""

from __future__ import annotations

import threading

import pytest
import requests
from rest_framework.authtoken.models import Token

from corr.models import GameEvent

from ..support.legal_moves import dance

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 6


def fire_together(requests_to_send):
    barrier = threading.Barrier(len(requests_to_send))
    results = [None] * len(requests_to_send)

    def send(i, url, headers, body):
        barrier.wait()
        results[i] = requests.post(url, json=body, headers=headers, timeout=30)

    threads = [threading.Thread(target=send, args=(i, *req)) for i, req in enumerate(requests_to_send)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_two_simultaneous_submissions_of_one_move_store_exactly_one(live_server, server_game, anna, boris):
    tokens = {u.username: Token.objects.get_or_create(user=u)[0].key for u in (anna, boris)}
    url = f"{live_server.url}/api/games/{server_game.pk}/moves/"
    players = [("anna", "white"), ("boris", "black")]
    for n in range(1, ROUNDS + 1):
        for name, colour in players:
            headers = {"Authorization": f"Token {tokens[name]}"}
            # One legal move written two ways (SAN, UCI): both checked on the board, one stored.
            results = fire_together([(url, headers, {"number": n, "notation": dance(colour, n)}),
                                     (url, headers, {"number": n, "notation": dance(colour, n, uci=True)})])
            codes = sorted(r.status_code for r in results)
            assert codes == [201, 409], [r.text for r in results]
            assert GameEvent.objects.filter(game=server_game, kind="move", player=colour, number=n).count() == 1


def test_two_simultaneous_retries_with_one_idempotency_key_store_one_and_answer_alike(live_server, server_game,
                                                                                        anna):
    token = Token.objects.get_or_create(user=anna)[0].key
    url = f"{live_server.url}/api/games/{server_game.pk}/moves/"
    headers = {"Authorization": f"Token {token}", "Idempotency-Key": "same-click"}
    body = {"number": 1, "notation": "e4"}
    results = fire_together([(url, headers, body), (url, headers, body)])
    assert [r.status_code for r in results] == [201, 201], [r.text for r in results]
    assert results[0].json() == results[1].json()
    assert GameEvent.objects.filter(game=server_game).count() == 1
