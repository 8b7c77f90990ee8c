"""A push is worded and encoded once per language for every socket of the process, and a socket's database work
stays on the sockets' pool (issue 42: what limited corr at 1,000 live games).

Through the real ASGI application on the production channel layer (``RedisWithLocalFanout`` on a real Redis): the
texts the sockets receive are compared byte for byte with the JSON of the payload each language is owed, and the
encodings of payloads counted by wrapping the one encoder (:func:`corr.live.pushtext.encoded`). No timing.
"""

from __future__ import annotations

import json
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from corr.live import pushtext

from .conftest import session_cookie
from .test_redis_layer import redis_layer  # noqa: F401 - the fixture: production's layer on a real Redis

pytestmark = pytest.mark.django_db(transaction=True)

STOPPED_BY_BLACK = {
    "en": "black stopped the clocks: resignation (Russian draughts rules 12.11, 1.7.11)",
    "ru": "чёрные остановили часы: сдача партии (Правила игры в русские шашки 12.11, 1.7.11)",
}


def socket_in(game, user, language: bytes):
    from channels.testing import WebsocketCommunicator

    from corr.asgi import application

    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver"), (b"accept-language", language),
               (b"cookie", session_cookie(user))]
    return WebsocketCommunicator(application, f"/ws/games/{game.pk}/live/", headers=headers)


@pytest.fixture
def payload_encodings(monkeypatch) -> list[dict]:
    """Every live payload (a dict with a ``version``) encoded, in order: by :func:`corr.live.pushtext.encoded` or by
    Channels' ``send_json`` (a payload, or an answer carrying one in ``live``)."""
    from channels.generic.websocket import AsyncJsonWebsocketConsumer

    seen: list[dict] = []
    encode, encode_json = pushtext.encoded, AsyncJsonWebsocketConsumer.encode_json

    def counted(value):
        if "version" in value:
            seen.append(value)
        return encode(value)

    def counted_json(cls, content):
        if isinstance(content, dict) and ("version" in content or isinstance(content.get("live"), dict)):
            seen.append(content.get("live", content))
        return encode_json(content)

    monkeypatch.setattr(pushtext, "encoded", counted)
    monkeypatch.setattr(AsyncJsonWebsocketConsumer, "encode_json", classmethod(counted_json))
    return seen


def test_a_push_is_encoded_once_per_language_and_each_socket_gets_its_languages_text(
        redis_layer, live_game, anna, boris, arbiter, payload_encodings):  # noqa: F811
    from tests.conftest import client_for

    sockets = {"en": [socket_in(live_game, anna, b"en"), socket_in(live_game, anna, b"en-GB"),
                      socket_in(live_game, arbiter, b"en")],
               "ru": [socket_in(live_game, boris, b"ru-RU,ru;q=0.9"), socket_in(live_game, arbiter, b"ru")],
               "fr": [socket_in(live_game, arbiter, b"fr")]}

    black = client_for(boris)

    async def scenario():
        for ws in (ws for group in sockets.values() for ws in group):
            assert (await ws.connect(timeout=10))[0]
            await ws.receive_from(timeout=5)
        del payload_encodings[:]
        r = await sync_to_async(black.post)(f"/api/games/{live_game.pk}/live/stop/", {}, format="json")
        assert r.status_code == 201, r.json()
        texts = {language: [await ws.receive_from(timeout=5) for ws in group] for language, group in sockets.items()}
        for ws in (ws for group in sockets.values() for ws in group):
            await ws.disconnect()
        return texts

    texts = async_to_sync(scenario)()
    # Six sockets, three languages: three encodings of the one payload pushed.
    assert len(payload_encodings) == 3
    assert all(p["version"] == payload_encodings[0]["version"] for p in payload_encodings)
    for language, received in texts.items():
        assert len(set(received)) == 1, f"the {language} sockets got one text"
        pushed = json.loads(received[0])
        # Byte for byte what Channels' send_json sent before (json.dumps, its default separators).
        assert received[0] == json.dumps(pushed)
        assert pushed["termination"] == "black stopped the clocks: resignation (000 12.11, 001 1.7.11)"
        if language in STOPPED_BY_BLACK:
            assert pushed["termination_text"] == STOPPED_BY_BLACK[language]
        else:
            assert pushed["termination_text"].startswith("les noirs ont arrêté les pendules : abandon (")
    payloads = {language: json.loads(received[0]) for language, received in texts.items()}
    assert {k: v for k, v in payloads["en"].items() if k != "termination_text"} == \
        {k: v for k, v in payloads["fr"].items() if k != "termination_text"}


def first_move(game, white_user, black_user, connected) -> tuple[list[str], str]:
    """Both players' sockets (en) connected and sent their state, ``connected()`` called, then white's first move on
    its socket: the two texts white receives (the answer and the push, in the order sent) and the one black does."""
    white, black = socket_in(game, white_user, b"en"), socket_in(game, black_user, b"en")

    async def scenario():
        for ws in (white, black):
            assert (await ws.connect(timeout=10))[0]
            await ws.receive_from(timeout=5)
        connected()
        await white.send_json_to({"type": "move", "id": "m1", "number": 1, "notation": ""})
        to_white = [await white.receive_from(timeout=5) for _ in range(2)]
        to_black = await black.receive_from(timeout=5)
        for ws in (white, black):
            await ws.disconnect()
        return to_white, to_black

    return async_to_sync(scenario)()


def test_a_socket_move_is_encoded_once_for_its_answer_and_both_players_pushes(
        redis_layer, live_game, anna, boris, payload_encodings):  # noqa: F811
    to_white, to_black = first_move(live_game, anna, boris, connected=payload_encodings.clear)
    answer_text = next(text for text in to_white if json.loads(text).get("type") == "move")
    pushed_text = next(text for text in to_white if text != answer_text)
    answer = json.loads(answer_text)
    assert list(answer) == ["type", "id", "status", "live"] and answer["status"] == 201 and answer["id"] == "m1"
    assert answer_text == json.dumps(answer)  # as send_json encoded it
    # The answer carries the payload both players are pushed, worded alike: one encoding of it for all three.
    assert pushed_text == to_black == json.dumps(answer["live"])
    assert answer["live"]["running"] == "black" and answer["live"]["termination_text"] is None
    assert len(payload_encodings) == 1


def test_a_socket_move_s_push_is_sent_to_both_players_by_the_mover_s_socket_not_queued_for_their_dispatch(
        redis_layer, live_game, anna, boris, monkeypatch):  # noqa: F811
    # Issue 42: the in-process delivery of a push (an inbox, then three turns of the consumer's dispatch) was 0.9 ms
    # of a 500-game load's 8 ms push at the median and 5.7 of its 21 ms p99. Both sockets are in this process.
    from corr.live.layer import RedisWithLocalFanout

    queued: list[str] = []
    deliver = RedisWithLocalFanout._deliver

    def counted(self, channel, message):
        queued.append(message["type"])
        return deliver(self, channel, message)

    monkeypatch.setattr(RedisWithLocalFanout, "_deliver", counted)
    texts_to_white, text_to_black = first_move(live_game, anna, boris, connected=queued.clear)
    to_white, to_black = [json.loads(text) for text in texts_to_white], json.loads(text_to_black)
    answer = next(m for m in to_white if m.get("type") == "move")
    assert answer["status"] == 201
    assert to_black == answer["live"] and answer["live"] in to_white  # each player pushed once, the same payload
    assert "live.update" not in queued, queued


def test_a_sockets_connection_and_moves_read_the_database_only_on_the_sockets_pool(
        redis_layer, live_game, anna, boris, monkeypatch):  # noqa: F811
    # Channels' AuthMiddleware and its dispatch (aclose_old_connections) each handed every socket's work to the
    # process's one sync thread; here every statement of a connection, a move and its pushes runs on the pool.
    import channels.consumer
    from django.db.backends.utils import CursorWrapper

    white, black = socket_in(live_game, anna, b"en"), socket_in(live_game, boris, b"fr")  # their sessions made here
    threads: list[str] = []
    execute = CursorWrapper._execute_with_wrappers

    def recorded(self, *args, **kwargs):
        threads.append(threading.current_thread().name)
        return execute(self, *args, **kwargs)

    hops: list[int] = []

    async def closing():
        hops.append(1)

    monkeypatch.setattr(CursorWrapper, "_execute_with_wrappers", recorded)
    monkeypatch.setattr(channels.consumer, "aclose_old_connections", closing)

    async def scenario():
        for ws in (white, black):
            assert (await ws.connect(timeout=10))[0]
            assert "version" in json.loads(await ws.receive_from(timeout=5))
        await white.send_json_to({"type": "move", "id": 7, "number": 1, "notation": ""})
        assert {json.loads(await white.receive_from(timeout=5)).get("status") for _ in range(2)} >= {201}
        assert json.loads(await black.receive_from(timeout=5))["running"] == "black"
        await black.send_json_to({"type": "refresh"})
        assert json.loads(await black.receive_from(timeout=5))["running"] == "black"
        for ws in (white, black):
            await ws.disconnect()

    async_to_sync(scenario)()
    assert threads and all(name.startswith("corr-socket-db") for name in threads), sorted(set(threads))
    assert hops == []


def test_a_text_is_kept_by_the_payloads_identity_and_language():
    payload = {"version": 3, "termination": None, "players": {"white": {"remaining_ms": 1}}}
    text = pushtext.payload_text(payload, "en")
    assert text == json.dumps({**payload, "termination_text": None})
    assert pushtext.payload_text(payload, "en") is text
    assert pushtext.payload_text(payload, "ru") is not text  # another language: its own
    equal = dict(payload)
    assert pushtext.payload_text(equal, "en") == text and pushtext.payload_text(equal, "en") is not text


def test_a_text_set_in_a_head_is_the_json_of_the_whole():
    live = {"version": 1, "termination_text": "чёрные", "players": {"white": {"remaining_ms": 5}}}
    for head in ({}, {"type": "move", "id": None, "status": 201}, {"type": "move", "id": "é\"1", "status": 201},
                 {"type": "move", "id": 2**53}):
        assert pushtext.with_text(head, "live", json.dumps(live)) == json.dumps({**head, "live": live})
