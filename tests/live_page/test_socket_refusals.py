"""The live socket refuses what cannot be a message cleanly (issue 42): a close code that says why, or an error
message naming the field, in the page's language; nothing stored, nothing echoed beyond its bound, no error logged.

Through the real ASGI application (corr.asgi: origin check, session, router, consumer) with Channels'
communicator; tests/live/test_socket_refusals_daphne.py sends the same frames to a real daphne and reads its log.
"""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import async_to_sync

from corr.limits import JSON_DEPTH_MAX
from corr.live.consumers import FIELD_ECHO_MAX_CHARS
from corr.live.frames import CLOSE_INVALID, CLOSE_TOO_BIG, CLOSE_UNSUPPORTED
from corr.models import LiveEvent

from .conftest import socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def asgi_loaded():
    """The application loaded before a test captures the log: loading it configures logging (which would drop
    the capture's handler in the first test)."""
    import corr.asgi  # noqa: F401


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def answers(game, user, frames: list[dict], language: str = "en") -> list[dict]:
    """Send each of ``frames`` (``{"text": str}`` or ``{"bytes": bytes}``) on ``user``'s socket; what came back to
    each: the JSON message, or ``{"closed": code}``, or None (nothing within 0.5 s)."""
    from corr.handoff import drain

    ws = socket(game.pk, user)
    ws.scope["headers"].append((b"accept-language", language.encode()))
    got = []
    # The game's creation was pushed by the handoff thread: sent before the socket joins its group, not received
    # on it as an answer to the first frame (the socket joins the group before it reads the state).
    assert drain(10)

    async def scenario():
        assert (await ws.connect(timeout=10))[0]
        await ws.receive_json_from(timeout=5)  # the state on connecting
        for frame in frames:
            await ws.send_to(text_data=frame.get("text"), bytes_data=frame.get("bytes"))
            if await ws.receive_nothing(timeout=0.5):
                got.append(None)
                continue
            output = await ws.receive_output(timeout=5)
            got.append({"closed": output["code"]} if output["type"] == "websocket.close"
                       else __import__("json").loads(output["text"]))
        await ws.disconnect()

    async_to_sync(scenario)()
    return got


@pytest.mark.parametrize("frame, code", [
    ({"bytes": b"\x00\x01binary"}, CLOSE_UNSUPPORTED),
    ({"text": '{"type": "refresh", "pad": "' + "x" * 4100 + '"}'}, CLOSE_TOO_BIG),
    # 2,049 characters of two bytes each: within 4096 characters, beyond 4096 bytes.
    ({"text": '"' + "é" * 2049 + '"'}, CLOSE_TOO_BIG),
    ({"text": '{"type": "move", "id": "' + "i" * 1_000_000 + '", "number": 1}'}, CLOSE_TOO_BIG),
    ({"text": deep(100_000)[:4000]}, CLOSE_INVALID),  # unbalanced, and far past the bound
    ({"text": '{"type": "refresh", "x": ' + deep(JSON_DEPTH_MAX) + "}"}, CLOSE_INVALID),  # one past it
    ({"text": '{"type": "move", "id": NaN, "number": 1}'}, CLOSE_INVALID),
    ({"text": '{"type": "move", "id": "m1", "number": 1, "lag_ms": Infinity}'}, CLOSE_INVALID),
    ({"text": '{"type": "move", "id": -Infinity}'}, CLOSE_INVALID),
    ({"text": "not json"}, CLOSE_INVALID),
])
def test_a_frame_that_cannot_be_a_message_closes_the_socket_with_its_code(live_game, anna, frame, code, caplog):
    with caplog.at_level(logging.INFO, logger="corr.live.consumers"):
        assert answers(live_game, anna, [frame]) == [{"closed": code}]
    assert not LiveEvent.objects.filter(game=live_game, kind="move").exists()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert f"closed with {code}" in caplog.text  # one line says why, nothing of the frame beyond its size


def test_json_nested_up_to_the_bound_is_read_and_brackets_in_strings_are_not_nesting(live_game, anna):
    within = '{"type": "refresh", "x": ' + deep(JSON_DEPTH_MAX - 1) + "}"
    in_a_string = '{"type": "refresh", "note": "' + "[{" * 100 + '\\"]"}'
    got = answers(live_game, anna, [{"text": within}, {"text": in_a_string}])
    assert [a["field"] for a in got] == ["x", "note"]  # read, and answered as unknown fields


@pytest.mark.parametrize("language, words", [
    ("en", "is not a field of this request (fields: type)"),
    ("ru", "— не поле этого запроса (поля: type)"),
    ("fr", "n'est pas un champ de cette requête (champs : type)"),
])
def test_an_unknown_field_of_a_refresh_is_answered_naming_it_in_the_pages_language(live_game, anna, language,
                                                                                   words):
    [answer] = answers(live_game, anna, [{"text": '{"type": "refresh", "colour": "blue"}'}], language)
    assert answer == {"type": "error", "status": 400, "field": "colour", "detail": f"'colour' {words}"}


@pytest.mark.parametrize("language, words", [
    ("en", "a message on this socket is a JSON object whose type is one of: refresh, move"),
    ("ru", "сообщение в этом сокете — объект JSON, чей type — один из: refresh, move"),
    ("fr", "un message sur ce socket est un objet JSON dont le type est l'un de : refresh, move"),
])
def test_a_message_of_no_known_type_is_answered_naming_type(live_game, anna, language, words):
    got = answers(live_game, anna, [{"text": '{"type": "resign"}'}, {"text": "[1, 2]"}, {"text": "12"}], language)
    assert got == [{"type": "error", "status": 400, "field": "type", "detail": words}] * 3


def test_an_unknown_field_of_a_move_is_answered_naming_it_and_nothing_is_stored(live_game, anna):
    [answer] = answers(live_game, anna, [{"text": '{"type": "move", "id": 7, "number": 1, "colour": "white"}'}])
    assert answer["status"] == 400 and answer["field"] == "colour" and answer["id"] == 7
    assert "'colour' is not a field of this request (fields: number, notation, lag_ms)" in answer["detail"]
    assert not LiveEvent.objects.filter(game=live_game, kind="move").exists()


@pytest.mark.parametrize("language, words", [
    ("en", "id is echoed in the answer: a string of at most 64 characters, a whole number or null"),
    ("ru", "id возвращается в ответе: строка не длиннее 64 символов, целое число или null"),
    ("fr", "id est renvoyé dans la réponse : une chaîne d'au plus 64 caractères, un nombre entier ou null"),
])
def test_an_id_beyond_its_bound_is_refused_and_never_echoed(live_game, anna, language, words):
    long_id = "i" * 3000  # within the frame's bound, far beyond the id's
    frames = [{"text": '{"type": "move", "id": "' + long_id + '", "number": 1}'},
              {"text": '{"type": "move", "id": {"a": [1, 2]}, "number": 1}'},
              {"text": '{"type": "move", "id": true, "number": 1}'}]
    got = answers(live_game, anna, frames, language)
    assert got == [{"type": "move", "id": None, "status": 400, "field": "id", "detail": words}] * 3
    assert not LiveEvent.objects.filter(game=live_game, kind="move").exists()
    # An id at its bound is echoed (and the move made).
    at_bound = "m" * FIELD_ECHO_MAX_CHARS
    [made] = answers(live_game, anna, [{"text": '{"type": "move", "id": "' + at_bound + '", "number": 1}'}])
    assert made["status"] == 201 and made["id"] == at_bound
