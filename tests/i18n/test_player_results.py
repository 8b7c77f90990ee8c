"""The players' own endings and offers said in the reader's language (issue 39): a draw offered and declined,
a draw agreed and a resignation in a server game, on the game page, My games and the tournament page, in
ru and fr, with no English left (the history and the result were stored English and shown as stored)."""

from __future__ import annotations

import pytest

from .test_languages import english_left, sign_in, untranslated_messages, visible_text

pytestmark = pytest.mark.django_db

ENGLISH = ("resigned", "draw agreed", "offers a draw", "offered a draw", "declined", "accepted")


def _move(api, game, user, number: int, notation: str) -> None:
    response = api(user).post(f"/api/games/{game.pk}/moves/", {"number": number, "notation": notation},
                              format="json")
    assert response.status_code == 201, response.json()


@pytest.fixture
def ended(api, server_game, anna, boris):
    """White offers a draw after 1. e4, black declines with 1... e5; white offers again after 2. Nf3 and black
    accepts: drawn. A second game: black resigns."""
    _move(api, server_game, anna, 1, "e4")
    assert api(anna).post(f"/api/games/{server_game.pk}/draw-offer/").status_code in (200, 201)
    assert api(boris).post(f"/api/games/{server_game.pk}/draw-offer/decline/").status_code in (200, 201)
    _move(api, server_game, boris, 1, "e5")
    _move(api, server_game, anna, 2, "Nf3")
    assert api(anna).post(f"/api/games/{server_game.pk}/draw-offer/").status_code in (200, 201)
    assert api(boris).post(f"/api/games/{server_game.pk}/draw-offer/accept/").status_code in (200, 201)
    return server_game


@pytest.fixture
def resigned(api, server, arbiter, anna, boris, frozen):
    from corr.games import services

    from ..conftest import TODAY
    game = services.game_create(by=arbiter, tournament=server, white=anna, black=boris, today=TODAY)
    _move(api, game, anna, 1, "d4")
    assert api(boris).post(f"/api/games/{game.pk}/resign/").status_code in (200, 201)
    return game


@pytest.mark.parametrize("language", ["ru", "fr"])
def test_draws_and_resignations_are_said_in_the_readers_language(ended, resigned, anna, language):
    client = sign_in(anna, "anna-pass-1", language)
    for path in (f"/games/{ended.pk}/", f"/games/{resigned.pk}/", "/games/", f"/tournaments/{ended.tournament_id}/"):
        texts = visible_text(client.get(path).content.decode(), language)
        shown = "\n".join(texts)
        assert [words for words in ENGLISH if words in shown] == [], (path, shown)
        assert untranslated_messages(texts, language) == [], path
        if language == "ru":
            left = [run for run in english_left(texts) if run != ended.tournament.name]  # the arbiter's words
            assert left == [], (path, left)
    drawn = "\n".join(visible_text(client.get(f"/games/{ended.pk}/").content.decode(), language))
    lost = "\n".join(visible_text(client.get(f"/games/{resigned.pk}/").content.decode(), language))
    if language == "ru":
        assert "ничья по соглашению" in drawn and "белые предлагают ничью" in drawn
        assert "чёрные отклонили предложение ничьей" in drawn and "чёрные сдались" in lost
    else:
        assert "nulle par accord" in drawn and "les blancs proposent la nulle" in drawn
        assert "les noirs ont refusé la proposition de nulle" in drawn and "les noirs ont abandonné" in lost
