"""Server moves on the game page (issue 36): an illegal move refused in the reader's language with the form kept,
a draw claimed with the move or on one's turn, the board's ending said on the page in ru, fr and en."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from corr.games import services
from corr.models import GameEvent

from ..api.test_server_moves_legal import FOOLS_MATE, KNIGHTS_DANCE
from ..conftest import TODAY

pytestmark = pytest.mark.django_db


def page_of(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def play(game, users, moves):
    for index, notation in enumerate(moves):
        colour = "white" if index % 2 == 0 else "black"
        services.move_submit(game=game, by=users[colour], number=index // 2 + 1, notation=notation, today=TODAY)


@pytest.fixture
def users(anna, boris):
    return {"white": anna, "black": boris}


@pytest.mark.parametrize("language, words", [
    ("en", "Ke3 is not a legal move for white after 1. e4 e5"),
    ("ru", "Ke3 — невозможный ход стороны «белые» после 1. e4 e5"),
    ("fr", "Ke3 n'est pas un coup légal des blancs après 1. e4 e5"),
])
def test_an_illegal_move_on_the_page_is_refused_in_the_readers_language_and_the_text_kept(
        server_game, users, language, words):
    play(server_game, users, ["e4", "e5"])
    r = page_of(users["white"], language).post(f"/games/{server_game.pk}/move/", {"number": 2, "notation": "Ke3"})
    assert r.status_code == 400
    page = html.unescape(r.content.decode())
    assert words in page
    assert 'value="Ke3"' in page  # what the player typed stays in the field
    assert GameEvent.objects.filter(game=server_game, kind="move").count() == 2


@pytest.mark.parametrize("language, ended", [
    ("en", "black checkmates white (FIDE Laws 5.1.1)"),
    ("ru", "чёрные ставят мат, белые проиграли (Правила ФИДЕ 5.1.1)"),
    ("fr", "les noirs matent les blancs (Règles du jeu FIDE 5.1.1)"),
])
def test_a_checkmate_on_the_page_finishes_the_game_and_says_how(server_game, users, language, ended):
    play(server_game, users, FOOLS_MATE[:3])
    r = page_of(users["black"]).post(f"/games/{server_game.pk}/move/", {"number": 2, "notation": "Qh4"})
    assert r.status_code == 302
    page = html.unescape(page_of(users["white"], language).get(f"/games/{server_game.pk}/").content.decode())
    assert ended in page and "0-1" in page


def test_a_claim_with_the_move_from_the_page_draws(server_game, users):
    play(server_game, users, KNIGHTS_DANCE[:7])
    client = page_of(users["black"])
    assert "Claim a draw with this move" in client.get(f"/games/{server_game.pk}/").content.decode()
    r = client.post(f"/games/{server_game.pk}/move/", {"number": 4, "notation": "Ng8", "claim_draw": "on"})
    assert r.status_code == 302
    server_game.refresh_from_db()
    assert (server_game.result, server_game.termination) == (
        "1/2-1/2", "black claimed a draw: the same position for the third time (002 9.2)")


def test_an_unfounded_claim_on_the_page_names_the_box_and_stores_nothing(server_game, users):
    r = page_of(users["white"], "fr").post(f"/games/{server_game.pk}/move/", {"number": 1, "notation": "e4",
                                                                              "claim_draw": "on"})
    assert r.status_code == 400
    assert "La réclamation de nulle n&#x27;est pas fondée" in r.content.decode()  # on the box, in French
    assert not GameEvent.objects.filter(game=server_game, kind="move").exists()


def test_the_claim_button_shows_only_when_the_position_founds_it(server_game, users):
    play(server_game, users, KNIGHTS_DANCE[:6])
    assert "Claim a draw…" not in page_of(users["white"]).get(f"/games/{server_game.pk}/").content.decode()
    services.move_submit(game=server_game, by=users["white"], number=4, notation="Ng1", today=TODAY)
    services.move_submit(game=server_game, by=users["black"], number=4, notation="Ng8", today=TODAY)
    white = page_of(users["white"])
    assert "Claim a draw…" in white.get(f"/games/{server_game.pk}/").content.decode()
    assert "Please confirm" in white.post(f"/games/{server_game.pk}/draw-claim/", {}).content.decode()
    assert white.post(f"/games/{server_game.pk}/draw-claim/", {"confirmed": "on"}).status_code == 302
    server_game.refresh_from_db()
    assert server_game.result == "1/2-1/2" and "claimed a draw" in server_game.termination
