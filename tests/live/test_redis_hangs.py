"""No request waits on Redis (issue 23): a live move answers while Redis holds its push and its check.

Redis here is a black hole (tests/support/blackhole.py): it accepts the connections and never
answers, so a send to it can only end by its timeout (``HANDOFF_SEND_SECONDS``, set far beyond the
test) or when the black hole closes. The move's answer arrives while both sends still wait: the
request did not make them. Then the black hole closes, the sends fail, are logged, and the game is
as the move left it.
"""

from __future__ import annotations

import pytest

from corr.handoff import drain
from corr.models import Game, LiveEvent

from ..conftest import celery_conf
from ..support.blackhole import BlackHole
from .conftest import SUDDEN_DEATH_60, START_MS, S, live_tournament


@pytest.fixture
def hanging_redis(settings):
    hole = BlackHole()
    settings.HANDOFF_SEND_SECONDS = 600
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [hole.url]}}}
    with celery_conf(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=hole.url, CELERY_RESULT_BACKEND=None):
        try:
            yield hole
        finally:
            hole.close()
            assert drain(30)


def test_a_live_move_answers_while_redis_hangs_on_its_push_and_its_flag_check(
        hanging_redis, api, arbiter, anna, clock, create_game, django_capture_on_commit_callbacks, caplog):
    game_id = create_game(live_tournament(arbiter, SUDDEN_DEATH_60))
    assert drain(30)  # the game's creation sends went to the black hole too
    clock.advance_to(START_MS + S)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api(anna).post(f"/api/games/{game_id}/moves/", {"number": 1, "notation": "e4"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["live"]["running"] == "black"
    # The answer is here and neither send has ended: they wait on the black hole (which closes itself
    # after 60 s: a request that waited on it would answer after that, its push failed and logged).
    assert "not sent" not in caplog.text
    assert hanging_redis.connected.wait(30)  # and the handoff thread is the one waiting
    hanging_redis.close()
    assert drain(30)
    assert "live push of game" in caplog.text and "not sent" in caplog.text
    assert Game.objects.get(pk=game_id).status == "ongoing"
    assert LiveEvent.objects.filter(game_id=game_id, kind="move").count() == 1
