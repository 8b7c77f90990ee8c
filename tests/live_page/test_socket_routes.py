"""WebSocket paths the site does not serve, and games that have no live socket (issue 23, item 5).

Through the real ASGI application of corr/asgi.py (origin check, session, router): an unknown path
was a ``ValueError("No route found")`` (HTTP 500 at the handshake under daphne), a correspondence
game's own player got close 1011 (the live payload of a game with no live clock). Both are now
accepted and closed at once with 4404, as a game that does not exist, so the page stops reconnecting.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from corr.live.consumers import CLOSE_NO_GAME

from .conftest import session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)


def closed_with(ws: WebsocketCommunicator):
    async def scenario():
        connected, _ = await ws.connect(timeout=10)
        assert connected  # accepted, then closed at once: the browser sees the code
        return await ws.receive_output(timeout=5)

    return async_to_sync(scenario)()


def raw_socket(path: str, user=None, origin: bytes | None = b"http://testserver") -> WebsocketCommunicator:
    from corr.asgi import application

    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        headers.append((b"cookie", session_cookie(user)))
    return WebsocketCommunicator(application, path, headers=headers)


@pytest.mark.parametrize("path", ["/ws/", "/ws/games/1/", "/ws/games/x/live/", "/nope", "/ws/games/1/live/extra",
                                  "/api/games/1/", "/ws/games/99999999999999999999999/live/"])
def test_an_unknown_path_is_closed_with_4404(path, anna):
    assert closed_with(raw_socket(path, anna)) == {"type": "websocket.close", "code": CLOSE_NO_GAME}


def test_an_unknown_path_is_closed_with_4404_for_an_anonymous_client_too(db):
    assert closed_with(raw_socket("/ws/anything/")) == {"type": "websocket.close", "code": CLOSE_NO_GAME}


def test_an_unknown_path_from_another_site_is_still_refused_at_the_handshake(anna):
    ws = raw_socket("/ws/anything/", anna, origin=b"http://evil.example")

    async def scenario():
        connected, _ = await ws.connect(timeout=10)
        assert not connected

    async_to_sync(scenario)()


@pytest.mark.parametrize("who", ["anna", "boris", "arbiter"])
def test_a_correspondence_games_own_player_or_arbiter_gets_4404_not_1011(postal_game, anna, boris, arbiter, who):
    user = {"anna": anna, "boris": boris, "arbiter": arbiter}[who]
    assert closed_with(socket(postal_game.pk, user)) == {"type": "websocket.close", "code": CLOSE_NO_GAME}


def test_a_server_game_gets_4404_too(server_game, anna):
    assert closed_with(socket(server_game.pk, anna)) == {"type": "websocket.close", "code": CLOSE_NO_GAME}


@pytest.fixture
def daphne_server(transactional_db, settings):
    """corr.asgi served by a real daphne in a child process (as tests/browser does); yields (host, port)."""
    from functools import partial

    from channels.testing.live import make_application, set_database_connection
    from daphne.testing import DaphneProcess

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    process = DaphneProcess("127.0.0.1", partial(make_application, static_wrapper=None),
                            setup=set_database_connection)
    process.start()
    assert process.ready.wait(timeout=30), "daphne did not start"
    yield "127.0.0.1", process.port.value
    process.terminate()
    process.join(timeout=10)


def handshake(host: str, port: int, path: str) -> tuple[bytes, bytes]:
    """A raw WebSocket handshake on ``path``: the status line, and what follows the headers (a close frame)."""
    import base64
    import os
    import socket as sockets

    key = base64.b64encode(os.urandom(16)).decode()
    with sockets.create_connection((host, port), timeout=10) as conn:
        conn.sendall((f"GET {path} HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < 4:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n", 1)[0], rest


def test_under_daphne_an_unknown_path_is_upgraded_and_closed_with_4404_not_http_500(daphne_server):
    status, frame = handshake(*daphne_server, "/ws/no/such/socket/")
    assert status.startswith(b"HTTP/1.1 101"), status
    assert frame[0] == 0x88  # a close frame
    assert int.from_bytes(frame[2:4], "big") == CLOSE_NO_GAME
