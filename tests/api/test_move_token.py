"""A move's API token is read by the game's locking read, and refused exactly as DRF refuses it (issue 42).

On PostgreSQL, outside any atomic block (as a request in production, ``transaction=True``), a move signed by
``Authorization: Token <key>`` pays no round trip for its token: the locking read joins the token and its
user. Every refusal still answers what DRF's own authentication answers (401 and its ``WWW-Authenticate``, in
the reader's language, an expired token deleted), a stranger 403 and a missing game 404 only to someone signed
in, and nothing is stored or left open. The same requests with an ``Idempotency-Key`` take DRF's ordinary
path (the key's record opens ``atomic``): each answer is compared with that one. On SQLite every request
takes the ordinary path, and the same answers hold.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from psycopg.pq import TransactionStatus
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from corr.games import services
from corr.models import GameEvent

from ..conftest import TODAY
from ..support.legal_moves import dance

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fresh_game(arbiter, anna, boris, frozen):
    league = services.tournament_create(by=arbiter, name="Fresh league", official_start=TODAY, mode="server")
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)


def post(header: str | None, game_id: int, *, key: str | None = None, language: str = "en"):
    client = APIClient()
    extra = {"HTTP_ACCEPT_LANGUAGE": language}
    if header is not None:
        extra["HTTP_AUTHORIZATION"] = header
    if key is not None:
        extra["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(f"/api/games/{game_id}/moves/", {"number": 1, "notation": dance("white", 1)}, format="json",
                       **extra)


def answer(response) -> tuple:
    return response.status_code, response.json().get("detail"), response.get("WWW-Authenticate")


def idle() -> bool:
    if connection.vendor != "postgresql":
        return True
    connection.ensure_connection()
    return connection.connection.info.transaction_status == TransactionStatus.IDLE


def token_of(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the token joins the locking read on PostgreSQL")
def test_a_move_signed_by_a_token_sends_no_statement_for_the_token(fresh_game, anna):
    header = f"Token {token_of(anna)}"
    with CaptureQueriesContext(connection) as ctx:
        response = post(header, fresh_game.pk)
    assert response.status_code == 201, response.json()
    sql = [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith("PREPARE ")]
    assert len(sql) == 2, sql
    assert sql[0].startswith("BEGIN; EXECUTE corr_game_lock_read_token("), sql
    assert not any("authtoken_token" in q for q in sql), sql
    assert GameEvent.objects.get(game=fresh_game).entered_by == anna
    assert idle()


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
@pytest.mark.parametrize("case", ["unknown key", "unknown key, no game", "inactive user", "expired",
                                  "no key", "key with a space", "no header", "stranger", "no game"])
def test_every_refusal_answers_as_drfs_own_authentication_and_stores_nothing(case, language, fresh_game, anna, eve,
                                                                             settings, frozen):
    settings.TOKEN_TTL_DAYS = 30
    game_id = fresh_game.pk
    header = f"Token {token_of(anna)}"
    if case.startswith("unknown key"):
        header = "Token " + "0" * 40
    if case.endswith("no game"):
        game_id = fresh_game.pk + 1000
    if case == "inactive user":
        anna.is_active = False
        anna.save(update_fields=["is_active"])
    if case == "no key":
        header = "Token"
    if case == "key with a space":
        header = f"Token {token_of(anna)} extra"
    if case == "no header":
        header = None
    if case == "stranger":
        header = f"Token {token_of(eve)}"
    expected = {"unknown key": 401, "unknown key, no game": 401, "inactive user": 401, "expired": 401, "no key": 401,
                "key with a space": 401, "no header": 401, "stranger": 403, "no game": 404}[case]

    def attempt(key: str | None):
        if case == "expired":
            Token.objects.filter(user=anna).delete()
            token = Token.objects.create(user=anna)
            Token.objects.filter(pk=token.pk).update(created=timezone.now() - timedelta(days=30))
            return post(f"Token {token.key}", game_id, key=key, language=language), token.key
        return post(header, game_id, key=key, language=language), None

    plain, expired_key = attempt(None)
    assert plain.status_code == expected, plain.json()
    assert idle()
    ordinary, _ = attempt(f"{case}-{language}")  # DRF's own path: the Idempotency-Key's record opens atomic
    assert answer(plain) == answer(ordinary), (plain.json(), ordinary.json())
    assert plain.json() == ordinary.json()
    if expected == 401:
        assert plain["WWW-Authenticate"] == "Token"
    if case == "expired":
        assert not Token.objects.filter(key=expired_key).exists()  # deleted, as DRF's path deletes it
    assert not GameEvent.objects.filter(game=fresh_game).exists()
    assert idle()


def test_a_move_after_a_refusal_is_stored_once_by_its_token(fresh_game, anna):
    assert post("Token " + "1" * 40, fresh_game.pk).status_code == 401
    response = post(f"Token {token_of(anna)}", fresh_game.pk)
    assert response.status_code == 201, response.json()
    assert GameEvent.objects.filter(game=fresh_game, kind="move").count() == 1
    assert idle()
