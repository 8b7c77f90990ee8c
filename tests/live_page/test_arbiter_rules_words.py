"""The arbiter's forms of a live game say the rules of the game's own kind, with its ruleset's numbers
(corr/web/live_rules_words.py): the browser walk of 2026-12-06 found a chess game's page citing draughts' 15-minute
floor and Go's illegal-move rule, though its ruleset had neither."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from corr.models import Tournament

from .conftest import FISCHER_5_2, iso, live_game_create

pytestmark = pytest.mark.django_db


def arbiter_forms(user, game, language: str) -> str:
    """The text of the arbiter's forms on the game page (up to the page's script data), tags dropped."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    start = page.index('<div class="forms live-arbiter">')
    part = page[start:page.index("<script", start)]
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", part)))


@pytest.fixture
def game_of_kind(api, arbiter, anna, boris, server_clock):
    def make(kind: str, **live_rules):
        answer = api(arbiter).post("/api/tournaments/", {
            "name": f"Live {kind}", "official_start": iso(server_clock.ms)[:10], "mode": "live", "kind": kind,
            "ruleset": {"time_control": {**FISCHER_5_2, **live_rules}}}, format="json")
        assert answer.status_code == 201, answer.json()
        return live_game_create(api, arbiter, Tournament.objects.get(pk=answer.json()["id"]), "anna", "boris",
                                server_clock.ms)
    return make


def test_a_chess_game_cites_the_fide_laws_and_its_own_numbers_and_no_other_rulebook(game_of_kind, arbiter):
    text = arbiter_forms(arbiter, game_of_kind("chess"), "en")
    assert "Warnings owed No player" in text  # no draughts article in the title
    assert ("Seconds added (or taken with a minus sign): a sanction or a correction (FIDE Laws 6.10, 6.13)."
            " A shortened clock never reaches zero.") in text
    assert ("An illegal move gives the opponent 2 minutes the first 2 times; illegal move 3 loses the game"
            " (this tournament's ruleset).") in text
    assert ("A call of the arbiter: justified, a warning, or a penalty of time (FIDE Laws 6.12 b: seconds taken from"
            " the caller with a minus sign, or given to the partner). A stop: a misunderstanding is a warning and the"
            " game goes on; otherwise it is a resignation.") in text
    assert "Stop both clocks and start them again (FIDE Laws 6.12, 6.13)." in text
    assert "unless the arbiter decides otherwise (FIDE Laws 6.6): excusing the late player" in text
    assert "draughts" not in text and "Go rules" not in text and "15 minutes" not in text


def test_a_tournament_s_own_numbers_are_said_as_it_set_them(game_of_kind, arbiter):
    text = arbiter_forms(arbiter, game_of_kind("chess", illegal_move_seconds=90, illegal_move_limit=2,
                                               min_after_correction_seconds=300), "en")
    assert ("An illegal move gives the opponent 90 seconds the first time; illegal move 2 loses the game"
            " (this tournament's ruleset).") in text
    assert ("A shortened clock keeps at least 5 minutes to the control (this tournament's ruleset) and never reaches"
            " zero.") in text
    text = arbiter_forms(arbiter, game_of_kind("chess", illegal_move_limit=1), "en")
    assert "An illegal move loses the game (this tournament's ruleset)." in text
    # Spans to the millisecond, and none, said as the service applies them.
    text = arbiter_forms(arbiter, game_of_kind("chess", illegal_move_seconds=1.5, min_after_correction_seconds=0.5),
                         "en")
    assert "An illegal move gives the opponent 1.5 seconds the first 2 times; illegal move 3 loses the game" in text
    assert "A shortened clock keeps at least 0.5 seconds to the control" in text
    text = arbiter_forms(arbiter, game_of_kind("chess", illegal_move_seconds=0), "fr")
    assert ("Un coup illégal est enregistré les 2 premières fois, sans temps pour l'adversaire ; le 3e perd la"
            " partie (le règlement de ce tournoi).") in text


def test_a_stop_claims_a_draw_wherever_the_ruleset_says_so(game_of_kind, arbiter):
    text = arbiter_forms(arbiter, game_of_kind("chess", stop_claims_draw=True), "en")
    assert ("A stop: a misunderstanding is a warning and the game goes on; a draw claimed in a game to the end is"
            " confirmed or ruled a resignation (this tournament's ruleset).") in text
    assert "otherwise it is a resignation" not in text


def test_a_draughts_game_in_russian_cites_the_draughts_rules_with_their_15_minutes(game_of_kind, arbiter):
    text = arbiter_forms(arbiter, game_of_kind("draughts", min_after_correction_seconds=900, stop_claims_draw=True),
                         "ru")
    assert "признаётся сдачей (Правила игры в русские шашки 12.11, 1.7.11, 1.7.13)" in text
    text = arbiter_forms(arbiter, game_of_kind("draughts", min_after_correction_seconds=900), "ru")
    assert "Положенные предупреждения (Правила игры в русские шашки 1.7.9)" in text
    assert ("После уменьшения до контроля остаётся не меньше чем 15 минут (Правила игры в русские шашки 12.5, 1.7.8),"
            " и время никогда не доходит до нуля.") in text
    assert ("Неправильный ход: сопернику добавляется 2 минуты; неправильных ходов без поражения: 2, поражение — на"
            " 3-м (регламент этого турнира).") in text
    assert "иначе это сдача партии (Правила игры в русские шашки 12.11, 1.7.11)." in text  # no draw claimed here
    assert "Остановить часы обоих игроков и снова пустить их." in text
    assert "если только арбитр не решит иначе: прощение опоздавшего" in text
    assert "игры в го" not in text and "ФИДЕ" not in text


def test_a_go_game_in_french_cites_the_go_rules(game_of_kind, arbiter):
    text = arbiter_forms(arbiter, game_of_kind("go", first="black"), "fr")
    assert ("Un coup illégal donne 2 minutes à l'adversaire les 2 premières fois ; le 3e perd la partie"
            " (Règles du go 13.4).") in text
    assert "(Règles du go 17.4)" in text
    assert "En byo-yomi elles vont à la période en cours (Règles du go 12.14)." in text
    assert "(Règles du go 12.13, 17.4 :" in text and "sauf si l'arbitre en décide autrement (Règles du go 12.7)" in text
    assert "Arrêter les deux pendules et les relancer." in text
    assert "dames" not in text and "FIDE" not in text
