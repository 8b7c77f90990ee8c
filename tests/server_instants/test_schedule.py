"""The check of a server game's flag is queued at flag_at with the game's version (issue 22)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from corr.celery import app
from corr.handoff import drain
from corr.live import timesource
from corr.models import Game, PlayerClock
from corr.timeouts.sweep import flags_due, flags_sweep

from ..conftest import celery_conf
from .conftest import BLACK_FLAG, WHITE_SENT, game_of, move_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch, settings):
    """What the flag clock hands to Celery (a broker, not eager) or to the in-process timer (eager)."""
    sent: list = []
    monkeypatch.setattr(app, "send_task", lambda name, args, eta, **options: sent.append((name, tuple(args), eta)))
    monkeypatch.setattr(timesource, "call_at", lambda at_ms, callback: sent.append(("timer", at_ms)))
    return sent


def test_a_move_queues_the_check_at_the_partners_flag_with_the_new_version(
        exact, arbiter, anna, boris, api, queued, django_capture_on_commit_callbacks, settings):
    game = game_of(arbiter, exact, anna, boris)
    with celery_conf(CELERY_TASK_ALWAYS_EAGER=False), django_capture_on_commit_callbacks(execute=True):
        assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    assert drain(10)  # sent from the handoff thread, not by the request (issue 23)
    version = Game.objects.get(pk=game.pk).events_version
    assert queued == [("corr.server_flag_check", (game.pk, version), BLACK_FLAG)]


def test_when_tasks_run_eagerly_an_in_process_timer_is_set_for_the_flag(
        exact, arbiter, anna, boris, api, queued, django_capture_on_commit_callbacks, settings, monkeypatch):
    from corr.games import flagclock

    settings.SERVER_FLAG_INPROCESS = True
    monkeypatch.setattr(flagclock, "_sweeper_ensure", lambda: None)  # no thread outliving the test
    game = game_of(arbiter, exact, anna, boris)
    with django_capture_on_commit_callbacks(execute=True):
        assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    assert queued == [("timer", int(BLACK_FLAG.timestamp() * 1000))]


def test_a_dates_game_queues_nothing(server_game, anna, api, queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert api(anna).post(f"/api/games/{server_game.pk}/moves/", {"number": 1, "notation": "e4"},
                              format="json").status_code == 201
    assert queued == []
    assert not PlayerClock.objects.filter(flag_at__isnull=False).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the planner's index is PostgreSQL's")
def test_the_sweep_selects_through_the_flag_at_index(exact_game):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a test table is tiny: ask whether the index serves
        plan = flags_due(now=BLACK_FLAG).explain()
    assert "Index Scan on corr_playerclock_flag_at" in plan or "Index Scan using corr_playerclock_flag_at" in plan, plan
    assert "Index Cond: (flag_at <=" in plan, plan
    assert flags_sweep(now=BLACK_FLAG - timedelta(seconds=1)) == {"checked": 0, "recorded": 0}
