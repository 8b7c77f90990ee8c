"""A system's state in words on the game page (corr.web.describe.system_state_text): each key named in the page's
language with its unit said, whether the unit leads the key or ends it. The e-mail walk of 2026-12-06 read
"restant pour le coup 72 h, seconds per move 259200" on a French page of a chess.com 3-days game."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from corr.games import services
from corr.web.describe import system_state_text

from ..conftest import TODAY

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words", [("en", "a move 72 h"), ("fr", "par coup 72 h"),
                                             ("ru", "на ход 72 ч")])
def test_an_exact_count_s_seconds_per_move_is_said_in_words(arbiter, anna, boris, frozen, language, words):
    tournament = services.tournament_create(by=arbiter, name="Daily", official_start=date(2026, 1, 10),
                                            mode="server", preset="chesscom_days_3")
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(anna)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert words in page
    assert "seconds per move" not in page


def test_a_leading_and_a_trailing_unit_are_read_alike():
    assert system_state_text({"system": "per_move", "seconds_per_move": 90}) == system_state_text(
        {"system": "per_move", "per_move_seconds": 90})
    assert system_state_text({"system": "per_move", "days_per_move": 3}) == "a move 3 days"
