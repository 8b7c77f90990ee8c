"""A move's ``move_id`` on the live socket (issue 42): the socket's ``Idempotency-Key``, as its user receives it.

Through the real ASGI application (corr.asgi: the origin check, the session, the router, the consumer). A
``move_id`` that is not a text of 1 to 200 characters is refused with 400 naming ``move_id``, in the language of
the page that opened the socket, and makes nothing; a ``move_id`` sent again gets its first answer, replayed.
"""

from __future__ import annotations

import pytest

from corr.api.live_socket import MOVE_ID_MAX

from .test_socket_moves import moves_stored, over_socket

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED = {
    "en": "move_id must be a text of 1 to 200 characters",
    "ru": "move_id должен быть текстом от 1 до 200 символов",
    "fr": "move_id doit être un texte de 1 à 200 caractères",
}
"""What the player's page receives, written out: the catalogue's words, not read back from it."""


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
@pytest.mark.parametrize("move_id", ["", "x" * (MOVE_ID_MAX + 1), 12, ["a"], {"k": "v"}, True],
                         ids=["empty", "too-long", "number", "list", "object", "boolean"])
def test_a_move_id_that_is_no_short_text_is_refused_naming_it_in_the_pages_language(live_game, anna, language,
                                                                                      move_id):
    message = {"type": "move", "id": "m1", "move_id": move_id, "number": 1, "notation": "e4"}
    (answer,) = over_socket(live_game, anna, [message], language=language)["answers"]
    assert answer == {"type": "move", "id": "m1", "status": 400, "field": "move_id", "detail": REFUSED[language]}
    assert moves_stored(live_game) == 0


def test_the_longest_move_id_is_taken(live_game, anna):
    message = {"type": "move", "id": 1, "move_id": "x" * MOVE_ID_MAX, "number": 1, "notation": "e4"}
    (answer,) = over_socket(live_game, anna, [message])["answers"]
    assert answer["status"] == 201, answer
    assert moves_stored(live_game) == 1


def test_a_move_id_sent_again_replays_its_first_answer_and_makes_nothing(live_game, anna):
    message = {"type": "move", "move_id": "0b5e6c1e-move-1", "number": 1, "notation": "e4"}
    first, again = over_socket(live_game, anna, [{**message, "id": 1}, {**message, "id": 2}])["answers"]
    assert first["status"] == 201 and "replayed" not in first, first
    assert again == {**first, "id": 2, "replayed": True}
    assert moves_stored(live_game) == 1
    # On a new socket (a reconnect) too.
    (later,) = over_socket(live_game, anna, [{**message, "id": 3}])["answers"]
    assert later == {**first, "id": 3, "replayed": True}
    assert moves_stored(live_game) == 1


def test_a_refusal_is_replayed_too_in_the_words_it_was_first_given(live_game, anna):
    # Move 2 does not exist yet: 409. The same move_id, even once move 2 could be made, is that answer again.
    message = {"type": "move", "move_id": "m-409", "number": 2, "notation": "e4"}
    (first,) = over_socket(live_game, anna, [{**message, "id": 1}], language="fr")["answers"]
    assert first["status"] == 409 and first["field"] == "number", first
    (again,) = over_socket(live_game, anna, [{**message, "id": 2}], language="en")["answers"]
    assert again == {**first, "id": 2, "replayed": True}
    assert moves_stored(live_game) == 0


OTHER_MOVE = {
    "en": "move_id 'm-same' was used with other fields: a retry sends the same fields, a new request needs a new key",
    "ru": "move_id 'm-same' уже использован с другими полями: повтор отправляет те же поля, новому запросу нужен"
          " новый ключ",
    "fr": "move_id 'm-same' a déjà servi avec d'autres champs : une nouvelle tentative envoie les mêmes champs, une"
          " nouvelle requête demande une nouvelle clé",
}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_a_move_id_sent_with_another_move_is_refused_naming_it_and_makes_nothing(live_game, anna, language):
    first_move = {"type": "move", "id": 1, "move_id": "m-same", "number": 1, "notation": "e4"}
    other_move = {**first_move, "id": 2, "notation": "d4"}
    first, other = over_socket(live_game, anna, [first_move, other_move], language=language)["answers"]
    assert first["status"] == 201, first
    assert other == {"type": "move", "id": 2, "status": 422, "field": "move_id", "detail": OTHER_MOVE[language]}
    assert moves_stored(live_game) == 1
