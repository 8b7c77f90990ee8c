"""Under /api/ every answer is JSON, errors included: 404, 405, 500, and 503 when the database is down."""

from __future__ import annotations

import copy

import socket

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/nothing/", "/api/games/abc/", "/api/games/1/nothing/", "/api/"])
def test_an_unknown_api_path_answers_404_json(path):
    response = Client().get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert path in response.json()["detail"]


def test_an_unknown_api_path_answers_json_in_the_embedded_debug_run_too(settings):
    settings.DEBUG = True  # make run: Django's technical 404 page would answer otherwise
    response = Client().get("/api/nothing/")
    assert (response.status_code, response["Content-Type"]) == (404, "application/json")


def test_an_unknown_page_keeps_the_html_404():
    response = Client().get("/nothing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("method, path", [("delete", "/api/games/"), ("put", "/api/auth/token/"),
                                          ("get", "/api/games/1/moves/")])
def test_a_wrong_method_answers_405_json(api, anna, method, path):
    response = getattr(api(anna), method)(path)
    assert response.status_code == 405
    assert "detail" in response.json()


def test_a_server_error_under_api_answers_500_json(anna, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("corr.api.views.games_visible", broken)
    client = client_for(anna)
    client.raise_request_exception = False
    response = client.get("/api/games/")
    assert response.status_code == 500
    assert response.json() == {"detail": "internal server error"}


def test_a_server_error_on_a_page_keeps_the_html_500(anna, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("corr.web.views.games_of_user", broken)
    client = Client(raise_request_exception=False)
    client.force_login(anna)
    response = client.get("/games/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


@pytest.fixture
def database_down():
    """The default connection pointed at a database that cannot be reached, then restored.

    PostgreSQL: a TCP port on which nothing listens (bound once, then closed);
    SQLite: a file in a directory that does not exist. Both fail in the driver's
    real connect, as a stopped server would.
    """
    saved = copy.deepcopy(connection.settings_dict)
    connection.close()
    _pool_closed()  # a pool (DB_POOL, PostgreSQL) keeps its sessions to the real server: made anew from these settings
    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = "/nonexistent-directory-of-corr-tests/db.sqlite3"
    else:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        connection.settings_dict.update(HOST="127.0.0.1", PORT=str(port))
        pool = connection.settings_dict.get("OPTIONS", {}).get("pool")
        if isinstance(pool, dict):  # a request waits the pool's timeout for a session: 1 s here, not 10
            options = connection.settings_dict["OPTIONS"]
            connection.settings_dict["OPTIONS"] = {**options, "pool": {**pool, "timeout": 1}}
    try:
        yield
    finally:
        connection.close()
        _pool_closed()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


def _pool_closed() -> None:
    """Close the connection's pool of sessions, if it has one: the next connection makes a new pool."""
    if getattr(connection, "pool", None) is not None:
        connection.close_pool()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/api/games/", "/api/auth/token/"])
def test_a_database_that_is_down_gives_503_json_with_retry_after(anna, path, request):
    client = client_for(anna)  # the token is stored before the database goes away
    client.raise_request_exception = False
    request.getfixturevalue("database_down")
    if path.endswith("token/"):
        client = APIClient(raise_request_exception=False)
        response = client.post(path, {"username": "anna", "password": "anna-pass-1"}, format="json")
    else:
        response = client.get(path)
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert "database" in response.json()["detail"]
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db(transaction=True)
def test_a_database_that_is_down_gives_a_page_503_too(database_down):
    response = Client(raise_request_exception=False).post("/login/", {"username": "anna", "password": "x"})
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert response["Content-Type"].startswith("text/plain")
