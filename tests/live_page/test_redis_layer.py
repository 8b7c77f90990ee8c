"""The production path's channel layer: channels-redis on a real Redis carries a push between connections.

CI's PostgreSQL and Redis pass sets REDIS_URL (and so runs every test of this folder on channels-redis);
this test takes the same server, or the local one, in both passes. It proves the crossing of processes:
a layer of its own, as a second server process holds, publishes to the group, and both connections of
the first get it; then a move made through the API reaches them the same way.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from corr.live.push import group_name, update_message
from corr.live.state import live_payload

from ..conftest import needs_server
from ..support.parallel import redis_for_tests
from .conftest import move_made, socket

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_URL = redis_for_tests(14)


@pytest.fixture
def redis_layer(settings):
    import redis

    try:
        reachable = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.RedisError:
        reachable = False
    needs_server(f"Redis at {REDIS_URL}", reachable)
    config = {"hosts": [REDIS_URL], "prefix": "corr-live-page-test"}
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "corr.live.layer.RedisWithLocalFanout", "CONFIG": config}}
    return config


def test_channels_redis_carries_a_push_between_two_connections(redis_layer, live_game, anna, boris, arbiter,
                                                               server_clock):
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    from corr.live.layer import RedisWithLocalFanout

    assert isinstance(get_channel_layer(), RedisWithLocalFanout)  # production's (corr/settings.py)
    player, referee = socket(live_game.pk, boris), socket(live_game.pk, arbiter)

    async def scenario():
        for ws in (player, referee):
            assert (await ws.connect(timeout=10))[0]
            await ws.receive_json_from(timeout=5)
        # Another server process: its own layer object, its own connections, the same Redis.
        elsewhere = RedisChannelLayer(**redis_layer)
        payload = await sync_to_async(live_payload)(live_game)
        await elsewhere.group_send(group_name(live_game.pk), update_message(payload | {"version": 999}))
        for ws in (player, referee):
            assert (await ws.receive_json_from(timeout=5))["version"] == 999
        await elsewhere.close_pools()
        # A move through the API: the service's push after commit goes through Redis to both.
        server_clock.advance(2_000)
        await sync_to_async(move_made)(live_game, anna, 1, "d4")
        expected = await sync_to_async(live_payload)(live_game)
        for ws in (player, referee):
            pushed = await ws.receive_json_from(timeout=5)
            assert pushed == {**expected, "termination_text": None} and pushed["running"] == "black"
        for ws in (player, referee):
            await ws.disconnect()

    async_to_sync(scenario)()
