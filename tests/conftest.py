"""Fixtures shared by the service tests: users, a postal and a server tournament, API clients."""

from __future__ import annotations

import contextlib
import os
from datetime import date, datetime, timezone

import pytest
import time_machine
from django.utils import translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from corr.games import services

from .support.smtp import smtp  # noqa: F401  (a fixture: a real SMTP server on loopback)

# Frozen "now": noon UTC on 2026-03-01, so "today" is 2026-03-01 in every zone the tests use.
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
TODAY = date(2026, 3, 1)


def pytest_configure(config):
    """The translation catalogues compiled (as `make test` does first), for a suite run by pytest alone."""
    from pathlib import Path

    from corr.catalogues import catalogues_compile

    catalogues_compile(Path(__file__).resolve().parent.parent / "locale")
    # No beat thread of this process's servers (the Channels live server imports corr.asgi): the tests
    # that need the beat turn it on and beat by hand with the injected clock (corr.live.beat.beat_once).
    from django.conf import settings

    settings.LIVE_BEAT_SECONDS = 0


def needs_server(name: str, reachable: bool) -> None:
    """Skip when a server is missing on a developer's machine; fail under CI (CI=true)."""
    if reachable:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{name} is required under CI and is not reachable")
    pytest.skip(f"{name} is not reachable")


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture
def arbiter(db):
    user = User.objects.create_user("arbiter", "arbiter@example.org", "arbiter-pass-1")
    services.arbiter_grant(user=user)
    return user


@pytest.fixture
def other_arbiter(db):
    user = User.objects.create_user("other-arbiter", "oa@example.org", "other-pass-1")
    services.arbiter_grant(user=user)
    return user


@pytest.fixture
def anna(db):
    return User.objects.create_user("anna", "anna@example.org", "anna-pass-1")


@pytest.fixture
def boris(db):
    return User.objects.create_user("boris", "boris@example.org", "boris-pass-1")


@pytest.fixture
def eve(db):
    return User.objects.create_user("eve", "eve@example.org", "eve-pass-1")


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def api():
    return client_for


@pytest.fixture
def postal(arbiter):
    return services.tournament_create(by=arbiter, name="Postal cup", official_start=date(2026, 1, 10),
                                      mode="postal", presumed_transit_days=4, time_zone="Europe/Moscow")


@pytest.fixture
def server(arbiter):
    return services.tournament_create(by=arbiter, name="Server league", official_start=date(2026, 1, 10),
                                      mode="server")


@pytest.fixture
def postal_game(postal, arbiter, anna, boris, frozen):
    return services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=TODAY)


@pytest.fixture
def server_game(server, arbiter, anna, boris, frozen):
    return services.game_create(by=arbiter, tournament=server, white=anna, black=boris, today=TODAY)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # PBKDF2's deliberate slowness is for attackers, not for a suite that signs in hundreds of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_inprocess_live_sweep(settings):
    # The embedded run's sweep thread outlives the test that started it and would sweep later tests'
    # live games on their own injected clocks; the sweep is tested by calling it (tests/live).
    settings.LIVE_INPROCESS_SWEEP = False


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts and ends in the default language: Django's LocaleMiddleware activates a request's language
    in its thread and nothing deactivates it, so a test's ru or fr request in process would set the language of the
    tests after it in the same worker (a text compared in English then read in French)."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def no_timer_outlives_its_test(monkeypatch):
    """The in-process timers a test started (``timesource.call_at``: live and server flags when tasks are eager)
    and left pending are cancelled when it ends: one firing later would check a game on a later test's database,
    or after the worker's database is gone (a traceback at the end of ``make test``)."""
    from corr.live import timesource

    started = []
    call_at = timesource.call_at

    def tracked(at_ms, callback):
        timer = call_at(at_ms, callback)
        started.append(timer)
        return timer

    monkeypatch.setattr(timesource, "call_at", tracked)
    yield
    for timer in started:
        timer.cancel()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, whose sessions are all ended before it drops them: those the sockets' database
    threads keep (corr.dbthreads) and the pool's (``DB_POOL``), which held the drop up ("is being accessed by other
    users") and left the databases behind."""
    yield
    from django.db import connections

    from corr import dbthreads

    dbthreads.release_sessions()
    for wrapper in connections.all():
        wrapper.close()
        if getattr(wrapper, "pool", None) is not None:
            wrapper.close_pool()


@pytest.fixture(autouse=True)
def nothing_known_of_earlier_tests():
    """Each test starts with no live game's rows known to this process (corr.live.known): a game of an earlier test's
    database may have the same key. What is known only saves a read when it is right (its rows' versions are checked
    by the write), but the statements a test counts must not depend on the tests before it."""
    from corr.live import known

    known.forget()
    yield
    known.forget()


@pytest.fixture(autouse=True)
def no_inprocess_server_flags(settings):
    # The same for server games' flags (issue 22): a timer set under a frozen clock would fire at once
    # on the machine's clock, in a thread, on a later test's database; tests call the check or run a worker.
    settings.SERVER_FLAG_INPROCESS = False


@pytest.fixture(autouse=True)
def no_inprocess_notices(settings):
    # The same for the notifications (issue 38): a thread started by one test would read a later test's
    # database; tests/notify runs them inline or on a real worker.
    settings.NOTIFY_INPROCESS = "off"


@pytest.fixture(autouse=True)
def tokens_outlive_time_travel(settings):
    # Tests travel in time and use a token issued on another date; expiry is tested on its own
    # (tests/security/test_tokens.py), with the setting back at its documented value.
    settings.TOKEN_TTL_DAYS = 100 * 365


@contextlib.contextmanager
def celery_conf(**changes):
    """Change the Celery app's settings (by their ``CELERY_`` names) for a block, then restore them.

    The broker connection and producer pools and the result backend are dropped
    on the way in and out: they were built for the old URLs.
    """
    from corr.celery import app

    saved = {key: getattr(app.conf, key.removeprefix("CELERY_").lower()) for key in changes}

    def reset_pools():
        # Drop, never close: kombu keeps one pool per broker URL in a registry, and a
        # closed pool would be handed back the next time that URL is used.
        app._pool = None
        app.amqp._producer_pool = None
        # The result backend is built once from the settings: build it again from the new ones.
        app._backend_cache = None
        app._local.__dict__.pop("backend", None)

    reset_pools()
    app.conf.update(changes)
    try:
        yield app
    finally:
        reset_pools()
        app.conf.update(saved)


@pytest.fixture(autouse=True)
def eager_tasks(request):
    """Tasks run in-process in every test, whatever REDIS_URL says, unless a test asks for a real broker.

    The domain is what the tests exercise; the worker integration test and the
    broker-down test set their own broker.
    """
    if {"worker", "broker_down"} & set(request.fixturenames):
        yield
        return
    with celery_conf(CELERY_TASK_ALWAYS_EAGER=True):
        yield


@pytest.fixture(autouse=True)
def fresh_content_types():
    """Each test reads content types from its database: a transactional test's flush gives them new ids, and
    Django's process-wide cache would hand the old ones to the admin's log (a foreign key to nothing)."""
    from django.contrib.contenttypes.models import ContentType

    ContentType.objects.clear_cache()
    yield


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with no cached clocks (ids and versions repeat between tests)."""
    from django.core.cache import cache

    cache.clear()
    yield


def clock_events(**filters):
    """The stored events the calculator sees: the history without its record lines (results, cases, rules)."""
    from corr.models import RECORD_KINDS, GameEvent

    return GameEvent.objects.filter(**filters).exclude(kind__in=RECORD_KINDS)


def seq_of(game, kind: str, player: str, number: int | None = None) -> int:
    """The seq of a game's event, looked up: record lines of the history take seq numbers too."""
    filters = {"number": number} if number is not None else {}
    return clock_events(game=game, kind=kind, player=player, supersedes=None, **filters).get().seq
