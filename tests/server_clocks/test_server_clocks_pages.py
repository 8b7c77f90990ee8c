"""Each server's own clock on the pages and in the game file (issue 40): the automatic vacation worded to both
players in en, ru and fr; the opponent's "+1 day" in the ledger's words; the game file's ``vacation`` and
``gift`` read by ``manage.py clock`` to the API's figures."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client

from ..server_instants.conftest import read_at
from .conftest import DAY, WHITE_SENT

pytestmark = pytest.mark.django_db
FLAG = WHITE_SENT + 3 * DAY

VACATION_WORDS = {"en": "on automatic vacation since", "ru": "на автоматических каникулах с",
                  "fr": "en vacances automatiques depuis"}
GIFT_WORDS = {"en": "time given by the opponent at", "ru": "время, данное соперником",
              "fr": "temps donné par l&#x27;adversaire le"}


def page_at(user, game, at, language) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    with time_machine.travel(at, tick=False):
        response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_both_players_read_the_automatic_vacation_on_the_game_page(chesscom_game, anna, boris, language):
    for user in (anna, boris):
        html = page_at(user, chesscom_game, FLAG + DAY, language)
        assert VACATION_WORDS[language] in html, html
    # Before the flag's instant there is none to tell.
    assert VACATION_WORDS[language] not in page_at(anna, chesscom_game, FLAG - DAY, language)


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_ledger_says_the_time_given_in_the_readers_language(lichess_game, anna, boris, api, language):
    at = WHITE_SENT + timedelta(hours=2)
    with time_machine.travel(at, tick=False):
        assert api(anna).post(f"/api/games/{lichess_game.pk}/gifts/", {"days": 1}, format="json").status_code == 201
    for user in (anna, boris):
        assert GIFT_WORDS[language] in page_at(user, lichess_game, at + timedelta(hours=1), language)


@pytest.mark.parametrize("fixture", ["chesscom_game", "lichess_game"])
def test_the_game_file_computed_by_the_command_gives_the_apis_clock(request, fixture, anna, boris, api, tmp_path):
    game = request.getfixturevalue(fixture)
    at = WHITE_SENT + timedelta(hours=2)
    if fixture == "lichess_game":
        with time_machine.travel(at, tick=False):
            assert api(anna).post(f"/api/games/{game.pk}/gifts/", {"days": 1}, format="json").status_code == 201
    else:
        at = FLAG + DAY  # black on automatic vacation
    client = Client()
    client.force_login(anna)
    with time_machine.travel(at, tick=False):
        exported = client.get(f"/games/{game.pk}/file/")
    assert exported.status_code == 200
    data = json.loads(exported.content)
    if fixture == "lichess_game":
        assert [e["type"] for e in data["events"]].count("gift") == 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("clock", str(path), "--json", stdout=out)
    command = json.loads(out.getvalue())
    shown = read_at(api(boris), f"/api/games/{game.pk}/", at).json()["clock"]
    for colour in ("white", "black"):
        assert command["players"][colour] == shown["players"][colour]
    if fixture == "chesscom_game":
        assert command["players"]["black"]["vacation"]["taken"][0]["automatic"] is True
