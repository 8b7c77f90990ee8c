"""A push to sockets of the sending process is not written to Redis (issue 42): the layer delivered it from memory.

Two layer objects on one real Redis stand for two server processes. A group whose only member is a channel of the
sending process gets the message in its inbox and nothing is written to Redis for it (the process's own sorted set
stays empty, so its reader never reads it back to drop it); once a channel of the other process joins, the message
is written for that channel alone and arrives there, and the sender's own channel still gets exactly one copy.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync

from corr.live.layer import RedisWithLocalFanout

from ..conftest import needs_server
from ..support.parallel import redis_for_tests

REDIS_URL = redis_for_tests(13)
PREFIX = "corr-layer-own-test"


@pytest.fixture
def redis_url():
    import redis

    try:
        reachable = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.RedisError:
        reachable = False
    needs_server(f"Redis at {REDIS_URL}", reachable)
    return REDIS_URL


def test_a_push_to_the_senders_own_sockets_writes_nothing_to_redis_and_one_to_another_process(redis_url):
    import redis.asyncio as aioredis

    async def scenario():
        here = RedisWithLocalFanout(hosts=[redis_url], prefix=PREFIX)
        there = RedisWithLocalFanout(hosts=[redis_url], prefix=PREFIX)
        watcher = aioredis.Redis.from_url(redis_url)
        await here.flush()
        own_key = f"{PREFIX}specific.{here.client_prefix}!"
        mine, theirs = await here.new_channel(), await there.new_channel()
        try:
            await here.group_add("live-game-1", mine)
            await here.group_send("live-game-1", {"type": "live.update", "n": 1})
            # Checked before this process's reader starts (a socket's first receive starts it): it would read a
            # copy written for its own channel and drop it, leaving the set empty either way.
            assert await watcher.zcard(own_key) == 0  # nothing written for a channel delivered from memory
            assert (await asyncio.wait_for(here.receive(mine), 2))["n"] == 1

            await there.group_add("live-game-1", theirs)
            await here.group_send("live-game-1", {"type": "live.update", "n": 2})
            assert (await asyncio.wait_for(here.receive(mine), 2))["n"] == 2
            assert (await asyncio.wait_for(there.receive(theirs), 2))["n"] == 2
            assert await watcher.zcard(own_key) == 0
            await asyncio.sleep(0.2)  # a copy read back by this process's reader would have reached the inbox now
            assert here._inboxes[mine].queue.empty()
        finally:
            for layer in (here, there):
                for task in layer._readers.values():
                    task.cancel()
            await here.flush()
            for layer in (here, there):
                await layer.close_pools()
            await watcher.aclose()

    async_to_sync(scenario)()


def test_a_receives_clean_up_with_redis_gone_marks_the_layer_down_and_raises_nothing():
    """channels-redis cleans up after each receive in a task nobody awaits: with Redis gone its error was logged as
    "Task exception was never retrieved" with a traceback (seen in the Redis outage test, 2026-12-05)."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on: Redis gone
        probe.bind(("127.0.0.1", 0))
        gone = f"redis://127.0.0.1:{probe.getsockname()[1]}/0"

    async def scenario():
        layer = RedisWithLocalFanout(hosts=[gone], prefix=PREFIX)
        try:
            await layer._clean_receive_backup(0, f"{PREFIX}specific.{layer.client_prefix}!")
            assert layer.down
        finally:
            await layer.close_pools()

    async_to_sync(scenario)()


def test_a_push_to_a_socket_that_takes_it_directly_is_sent_by_its_sender_and_not_queued(redis_url):
    """Issue 42: a live push to a socket of the sending process is handed to the socket's handler by ``group_send``
    itself (no turn of the consumer's dispatch); another type of message, a socket without a handler, and a push
    sent from another thread's loop go to the inboxes as before."""
    import threading

    async def scenario():
        here = RedisWithLocalFanout(hosts=[redis_url], prefix=PREFIX)
        await here.flush()
        direct, queued = await here.new_channel(), await here.new_channel()
        handled: list[dict] = []

        async def live_update(message: dict) -> None:
            handled.append(message)

        try:
            for channel in (direct, queued):
                await here.group_add("live-game-2", channel)
                here._inbox(channel)  # as a consumer's first receive makes it
            here.direct_add(direct, {"live.update": live_update})
            await here.group_send("live-game-2", {"type": "live.update", "n": 1})
            assert [m["n"] for m in handled] == [1]  # sent before group_send returned
            assert here._inboxes[direct].queue.empty()
            assert (await asyncio.wait_for(here.receive(queued), 2))["n"] == 1

            await here.group_send("live-game-2", {"type": "session.ended", "n": 2})
            assert (await asyncio.wait_for(here.receive(direct), 2))["n"] == 2
            assert [m["n"] for m in handled] == [1]

            def from_another_loop():
                asyncio.run(here.group_send("live-game-2", {"type": "live.update", "n": 3}))

            thread = threading.Thread(target=from_another_loop)
            thread.start()
            await asyncio.get_running_loop().run_in_executor(None, thread.join)
            assert (await asyncio.wait_for(here.receive(direct), 2))["n"] == 3  # queued: not this loop's sender
            assert [m["n"] for m in handled] == [1]

            here.direct_discard(direct)
            await here.group_send("live-game-2", {"type": "live.update", "n": 4})
            assert (await asyncio.wait_for(here.receive(direct), 2))["n"] == 4
            assert [m["n"] for m in handled] == [1]
        finally:
            for task in here._readers.values():
                task.cancel()
            await here.flush()
            await here.close_pools()

    async_to_sync(scenario)()
