"""The live page's WebSocket (corr.live.consumers) through the real ASGI application of corr/asgi.py.

Policy: whoever may read the game (its players, its tournament's arbiters) may watch it; anyone else
gets the socket closed at once with 4401 (not signed in), 4403 (not theirs) or 4404 (no such game).
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from corr.handoff import drain
from corr.live import push
from corr.live.consumers import CLOSE_FORBIDDEN, CLOSE_NO_GAME, CLOSE_UNAUTHENTICATED
from corr.live.state import live_payload

from .conftest import live_game_create, move_made, socket

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario):
    """Run an async scenario to its end (the consumers' database calls run on this thread)."""
    return async_to_sync(scenario)()


def test_a_player_gets_the_payload_on_connecting_then_every_push(live_game, anna, boris, server_clock):
    watcher = socket(live_game.pk, boris)

    async def scenario():
        connected, _ = await watcher.connect(timeout=10)
        assert connected
        first = await watcher.receive_json_from(timeout=5)
        # The payload at the server's instant, with how the game ended in the page's words beside it.
        assert first == {**await sync_to_async(live_payload)(live_game), "termination_text": None}
        assert first["running"] == "white"
        server_clock.advance(3_000)
        await sync_to_async(move_made)(live_game, anna, 1, "e4")
        pushed = await watcher.receive_json_from(timeout=5)
        assert pushed == {**await sync_to_async(live_payload)(live_game), "termination_text": None}
        assert pushed["running"] == "black" and pushed["version"] > first["version"]
        assert pushed["server_ms"] == server_clock.ms
        await watcher.disconnect()

    run(scenario)


def test_every_connection_of_the_game_gets_the_push_and_other_games_do_not(live_game, live_tournament, anna, boris,
                                                                          arbiter, api, server_clock):
    other = live_game_create(api, arbiter, live_tournament, "boris", "anna", server_clock.ms)

    player, referee, elsewhere = socket(live_game.pk, boris), socket(live_game.pk, arbiter), socket(other.pk, anna)

    async def scenario():
        for ws in (player, referee, elsewhere):
            assert (await ws.connect(timeout=10))[0]
            await ws.receive_json_from(timeout=5)
        await sync_to_async(move_made)(live_game, anna, 1)
        for ws in (player, referee):
            assert (await ws.receive_json_from(timeout=5))["running"] == "black"
        assert await elsewhere.receive_nothing(timeout=0.3)
        for ws in (player, referee, elsewhere):
            await ws.disconnect()

    run(scenario)


@pytest.mark.parametrize("who, code", [("nobody", CLOSE_UNAUTHENTICATED), ("eve", CLOSE_FORBIDDEN)])
def test_who_may_not_read_the_game_is_closed_with_a_code_that_says_why(live_game, eve, who, code):
    user = {"nobody": None, "eve": eve}[who]

    ws = socket(live_game.pk, user)

    async def scenario():
        connected, _ = await ws.connect(timeout=10)
        assert connected  # accepted, then closed at once: the browser sees the code
        assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": code}

    run(scenario)


def test_a_game_that_does_not_exist_is_closed_with_4404(anna):
    ws = socket(999_999, anna)

    async def scenario():
        assert (await ws.connect(timeout=10))[0]
        assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_NO_GAME}

    run(scenario)


def test_a_page_of_another_site_cannot_open_the_socket_with_the_players_cookie(live_game, anna):
    sockets = {origin: socket(live_game.pk, anna, origin=origin) for origin in (b"http://evil.example", None)}

    async def scenario():
        for origin, ws in sockets.items():
            connected, _ = await ws.connect(timeout=10)
            assert not connected, origin

    run(scenario)


def test_a_refresh_gets_the_current_payload_at_most_once_a_second(live_game, boris, server_clock):
    ws = socket(live_game.pk, boris)

    async def scenario():
        await ws.connect(timeout=10)
        first = await ws.receive_json_from(timeout=5)
        server_clock.advance(1_500)
        await ws.send_json_to({"type": "refresh"})
        again = await ws.receive_json_from(timeout=5)
        assert again["server_ms"] == first["server_ms"] + 1_500
        assert again["players"]["white"]["remaining_ms"] == first["players"]["white"]["remaining_ms"] - 1_500
        await ws.send_json_to({"type": "refresh"})  # within the second: not answered
        assert await ws.receive_nothing(timeout=0.3)
        await ws.disconnect()

    run(scenario)


def test_a_push_that_cannot_be_sent_leaves_the_move_stored_and_raises_nothing(live_game, settings, caplog):
    # Redis down (nothing listens on port 1): the committed move must not become an error.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}}
    assert push.game_changed(live_game.pk) is None
    assert drain(10)  # the send is made by the handoff thread (corr.handoff), the request does not wait
    assert "live push of game" in caplog.text


def test_the_group_and_message_type_are_the_contracts():
    assert push.group_name(42) == "live-game-42"
    assert push.update_message({"version": 1}) == {"type": "live.update", "payload": {"version": 1}}


def test_the_socket_words_how_the_game_ended_in_the_language_of_its_page(live_game, anna, boris, arbiter):
    # The ru page (Accept-Language) and the fr page (the language cookie, which wins over the header) each get
    # the termination in their words, its rule cited by rulebook; the stored English stays in "termination".
    from channels.testing import WebsocketCommunicator

    from corr.asgi import application

    from .conftest import session_cookie

    def socket_in(user, *, accept: bytes, cookie: bytes = b"") -> WebsocketCommunicator:
        headers = [(b"host", b"testserver"), (b"origin", b"http://testserver"), (b"accept-language", accept),
                   (b"cookie", session_cookie(user) + cookie)]
        return WebsocketCommunicator(application, f"/ws/games/{live_game.pk}/live/", headers=headers)

    from tests.conftest import client_for

    ru, fr = socket_in(anna, accept=b"ru-RU,ru;q=0.9"), socket_in(arbiter, accept=b"ru", cookie=b"; django_language=fr")
    black = client_for(boris)

    async def scenario():
        for ws in (ru, fr):
            assert (await ws.connect(timeout=10))[0]
            assert (await ws.receive_json_from(timeout=5))["termination_text"] is None
        r = await sync_to_async(black.post)(f"/api/games/{live_game.pk}/live/stop/", {}, format="json")
        assert r.status_code == 201, r.json()
        said_ru, said_fr = (await ru.receive_json_from(timeout=5)), (await fr.receive_json_from(timeout=5))
        stored = "black stopped the clocks: resignation (000 12.11, 001 1.7.11)"
        assert said_ru["termination"] == said_fr["termination"] == stored
        assert said_ru["termination_text"] == ("чёрные остановили часы: сдача партии"
                                               " (Правила игры в русские шашки 12.11, 1.7.11)")
        assert said_fr["termination_text"].startswith("les noirs ont arrêté les pendules : abandon (")
        assert "000" not in said_fr["termination_text"] and "12.11, 1.7.11)" in said_fr["termination_text"]
        for ws in (ru, fr):
            await ws.disconnect()

    run(scenario)


def test_the_live_page_cites_the_rulebook_of_a_termination_never_a_seed_number(live_game, boris):
    from django.test import Client

    from tests.conftest import client_for

    assert client_for(boris).post(f"/api/games/{live_game.pk}/live/stop/", {}, format="json").status_code == 201
    page = Client()
    page.force_login(boris)
    html = page.get(f"/games/{live_game.pk}/").content.decode()
    assert "Result: 1-0 — black stopped the clocks: resignation (Russian draughts rules 12.11, 1.7.11)" in html
    assert "000 12.11" not in html.split('<script id="live-config"')[0]
    assert '"termination_text": "black stopped the clocks: resignation (Russian draughts rules 12.11, 1.7.11)"' in html
