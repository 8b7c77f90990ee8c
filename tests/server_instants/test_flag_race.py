"""A move and the flag check at the same instant (issue 22): the row lock gives exactly one outcome.

The move travels over HTTP to a live threaded server while the check runs in
another thread with its own connection, both released by one barrier. On
PostgreSQL the game row is locked with SELECT ... FOR UPDATE; on SQLite the
writing transactions begin IMMEDIATE. Either the move is stored first (in
time: the check finds no flag) or the check records the flag first (the move
then finds the game lost on time: 409). Never both, never neither.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import requests
import time_machine
from django.db import connection
from rest_framework.authtoken.models import Token

from corr.models import EventKind, Game, GameEvent, OverstepCase
from corr.timeouts.services import flag_record

from .conftest import BLACK_FLAG, WHITE_SENT, game_of, instant_tournament

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 8


def race(url: str, token: str, game_id: int) -> tuple[int, bool]:
    barrier = threading.Barrier(2)
    out: dict = {}

    def move():
        barrier.wait()
        out["move"] = requests.post(url, json={"number": 1, "notation": "e5"},
                                    headers={"Authorization": f"Token {token}"}, timeout=30).status_code

    def check():
        try:
            barrier.wait()
            out["check"] = flag_record(game_id=game_id, now=BLACK_FLAG)
        finally:
            connection.close()

    threads = [threading.Thread(target=move), threading.Thread(target=check)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out["move"], out["check"]


def test_a_move_and_the_flag_check_at_the_same_instant_have_exactly_one_outcome(live_server, arbiter, anna, boris,
                                                                                  api):
    tournament = instant_tournament(arbiter, timeouts="automatic")
    token = Token.objects.get_or_create(user=boris)[0].key
    outcomes = []
    for _ in range(ROUNDS):
        game = game_of(arbiter, tournament, anna, boris)
        with time_machine.travel(WHITE_SENT, tick=False):
            assert api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"},
                                  format="json").status_code == 201
        # The server's clock reads one second before the flag for the move; the check is at the flag.
        with time_machine.travel(BLACK_FLAG - timedelta(seconds=1), tick=False):
            code, recorded = race(f"{live_server.url}/api/games/{game.pk}/moves/", token, game.pk)
        game = Game.objects.get(pk=game.pk)
        moves = GameEvent.objects.filter(game=game, kind="move", player="black").count()
        results = GameEvent.objects.filter(game=game, kind=EventKind.RESULT).count()
        if code == 201:  # the move came first and was in time
            assert (recorded, moves, results, game.status) == (False, 1, 0, "ongoing")
        else:  # the flag came first: lost on time, the move refused
            assert (code, recorded, moves, results, game.status, game.result) == (409, True, 0, 1, "finished", "1-0")
        assert not OverstepCase.objects.filter(game=game, status="open").exists()
        outcomes.append(code)
    print("outcomes on", connection.vendor, outcomes)  # which side won each round, shown with -s
