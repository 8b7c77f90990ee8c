"""The channel layer of the served site: channels-redis, with the sockets of this process served without Redis.

Issue 42: with Redis stopped, channels-redis closed every live socket (1011: the consumer's receive raised)
and refused new ones, though the moves themselves did not need Redis. :class:`RedisWithLocalFanout` keeps
channels-redis for what crosses processes and serves what stays in one process from memory:

- **Local first.** Each socket's channel of this process has an in-memory inbox; ``group_add`` records the
  membership here too, and ``group_send`` puts the message into the inboxes of this process's members at once,
  whatever Redis does, then sends it through Redis for the other processes. A socket that registered a handler
  for the message's type (:meth:`RedisWithLocalFanout.direct_add`: the live push) has it called by the sender
  instead, on the same event loop, before anything goes to Redis. A message this process sent comes
  back through Redis tagged with this process's token and is dropped (it was delivered already).
- **Not twice.** A group's channels of this process are left out of what ``group_send`` writes to Redis
  (:meth:`RedisWithLocalFanout._map_channel_keys_to_connection`): they had the message from memory already, so a
  push whose sockets are all in this process costs Redis the group's read and nothing more (issue 42: each such
  push was written to this process's own list, read back by its reader, decoded and dropped).
- **One reader.** One task per event loop reads this process's Redis list (``receive_single`` on the
  ``specific.<prefix>!`` channel) and files each message into its inbox; a socket's ``receive`` only waits on its
  inbox, so a Redis error never reaches a consumer (no close 1011, no traceback per socket).
- **Down, then back.** The first Redis error (a refused connection, or a call longer than
  ``HANDOFF_SEND_SECONDS``) marks the layer down, logged once: from then on sends stay local, the groups they
  were for are remembered, and the reader pings Redis with a backoff of ``RETRY_FIRST_S`` doubling to
  ``RETRY_MAX_S``. Once Redis answers, every membership of this process is added again (a restarted Redis
  holds no group), each local socket is sent :data:`RESTORED_TYPE` (the consumer sends its page the current
  state: whatever it missed) and so is each group whose send was skipped, through Redis, so that the sockets of
  the other processes get the state they missed from this one.

The contract with the consumers: a consumer that joins a group handles ``layer.restored`` (a message with no
other key). Messages are the dictionaries channels-redis carries; the inboxes hold at most the layer's
``capacity`` each (a full inbox drops the message and logs it: every push carries the whole state).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from channels_redis.core import RedisChannelLayer
from django.conf import settings

log = logging.getLogger(__name__)

RESTORED_TYPE = "layer.restored"
"""The message every local socket gets when the layer is back after being down (send the page the state)."""
ORIGIN_KEY = "__corr_origin__"
"""The key naming the process that sent a message through Redis (its layer's token)."""
RETRY_FIRST_S = 0.25
RETRY_MAX_S = 2.0


Handler = Callable[[dict], Awaitable[None]]
"""A consumer's handler of one message type (``live_update``), awaited by the sender (:meth:`direct_add`)."""


@dataclass
class _Inbox:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue
    groups: set[str] = field(default_factory=set)


class RedisWithLocalFanout(RedisChannelLayer):
    """channels-redis whose sockets of this process keep receiving this process's messages with Redis down."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.token = uuid.uuid4().hex
        self._inboxes: dict[str, _Inbox] = {}
        self._members: dict[str, set[str]] = {}  # group -> this process's channels in it
        self._readers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
        self.down = False
        self._retry_at = 0.0
        self._missed_groups: set[str] = set()
        self._direct: dict[str, tuple[asyncio.AbstractEventLoop, dict[str, Handler]]] = {}

    # -- this process's inboxes ------------------------------------------------------------------------------

    def _local(self, channel: str) -> bool:
        return "!" in channel and self.non_local_name(channel).endswith(self.client_prefix + "!")

    def _inbox(self, channel: str) -> _Inbox:
        inbox = self._inboxes.get(channel)
        if inbox is None:
            inbox = self._inboxes[channel] = _Inbox(asyncio.get_running_loop(), asyncio.Queue(self.capacity))
        return inbox

    def _deliver(self, channel: str, message: dict) -> None:
        """Put ``message`` into ``channel``'s inbox, from any thread; a closed or full inbox drops it."""
        inbox = self._inboxes.get(channel)
        if inbox is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is inbox.loop:
            self._put(inbox, channel, message)
        elif not inbox.loop.is_closed():
            inbox.loop.call_soon_threadsafe(self._put, inbox, channel, message)

    @staticmethod
    def _put(inbox: _Inbox, channel: str, message: dict) -> None:
        try:
            inbox.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("message %s to %s dropped: its inbox is full", message.get("type"), channel)

    def direct_add(self, channel: str, handlers: dict[str, Handler]) -> None:
        """Have :meth:`group_send`, when it runs on this event loop, hand a message of a type of ``handlers`` for
        ``channel`` (a socket of this process) to ``handlers[type](message)`` itself, awaited before it returns,
        instead of filing it in the inbox for the consumer's dispatch to pick up (issue 42: three turns of a busy
        event loop, 0.9 ms at the median of a 500-game load and 5.7 ms at its p99, between a press's answer and the
        partner's push). Sent from another thread or loop (a handoff), the message goes to the inbox as before."""
        self._direct[channel] = (asyncio.get_running_loop(), handlers)

    def direct_discard(self, channel: str) -> None:
        self._direct.pop(channel, None)

    def _deliver_to_group(self, group: str, message: dict) -> list[Handler]:
        """Deliver ``message`` to this process's members of ``group``: into their inboxes, except those taking it
        directly on the running loop (:meth:`direct_add`), whose handlers are returned for the caller to await."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        direct: list[Handler] = []
        for channel in tuple(self._members.get(group, ())):
            loop, handlers = self._direct.get(channel, (None, {}))
            handler = handlers.get(message.get("type"))
            if handler is not None and loop is running:
                direct.append(handler)
            else:
                self._deliver(channel, dict(message))
        return direct

    def _forget(self, channel: str) -> None:
        self._direct.pop(channel, None)
        inbox = self._inboxes.pop(channel, None)
        for group in inbox.groups if inbox else ():
            self._members.get(group, set()).discard(channel)
            if not self._members.get(group, True):
                del self._members[group]

    # -- Redis, tolerated when down --------------------------------------------------------------------------

    def _mark_down(self, error: BaseException) -> None:
        self._retry_at = time.monotonic() + RETRY_MAX_S
        if not self.down:
            self.down = True
            log.warning("channel layer unreachable (%s: %s): pushes stay within this process until it returns",
                        type(error).__name__, error)

    async def _redis(self, make) -> bool:
        """Await ``make()`` (a channels-redis call) unless the layer is down; False when skipped or failed.

        Down, a process that reads (it has sockets) waits for its reader to bring the layer back, memberships
        first; one that only sends (gunicorn, a Celery worker) tries again every ``RETRY_MAX_S``.
        """
        if self.down and (any(not task.done() for task in self._readers.values())
                          or time.monotonic() < self._retry_at):
            return False
        try:
            await asyncio.wait_for(make(), timeout=settings.HANDOFF_SEND_SECONDS)
        except Exception as error:  # noqa: BLE001 - Redis down or hanging: served locally, recovered later
            self._mark_down(error)
            return False
        if self.down:  # a sender's retry went through: Redis is back
            await self._back()
        return True

    # -- the channel layer API -------------------------------------------------------------------------------

    async def send(self, channel, message):
        if self._local(channel):
            self._deliver(channel, message)
            return
        await super().send(channel, message)

    async def receive(self, channel):
        if not self._local(channel):
            return await super().receive(channel)
        inbox = self._inbox(channel)
        self._reader()
        try:
            return await inbox.queue.get()
        except asyncio.CancelledError:  # the consumer ended (channels cancels its receive only then)
            self._forget(channel)
            raise

    async def group_add(self, group, channel):
        if self._local(channel):
            self._inbox(channel).groups.add(group)
            self._members.setdefault(group, set()).add(channel)
        await self._redis(lambda: super(RedisWithLocalFanout, self).group_add(group, channel))

    async def group_discard(self, group, channel):
        inbox = self._inboxes.get(channel)
        if inbox is not None:
            inbox.groups.discard(group)
        members = self._members.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self._members[group]
        await self._redis(lambda: super(RedisWithLocalFanout, self).group_discard(group, channel))

    async def group_send(self, group, message):
        for handler in self._deliver_to_group(group, message):
            try:
                await handler(dict(message))
            except Exception:  # noqa: BLE001 - one socket's failure is not the sender's nor the other sockets'
                log.exception("message %s of group %s not delivered to a socket of this process",
                              message.get("type"), group)
        tagged = {**message, ORIGIN_KEY: self.token}
        if not await self._redis(lambda: super(RedisWithLocalFanout, self).group_send(group, tagged)):
            self._missed_groups.add(group)

    async def _clean_receive_backup(self, index, channel):
        """channels-redis's clean-up after a receive (a task of its own, whose error nobody awaits): Redis gone in
        between is the outage this layer serves through, not a traceback in the log ("Task exception was never
        retrieved"). The message stays in Redis's backup set and may be delivered again once Redis returns: a push
        carries the whole state, and a page keeps the highest version."""
        try:
            await super()._clean_receive_backup(index, channel)
        except Exception as error:  # noqa: BLE001 - Redis down: marked, recovered by the reader
            self._mark_down(error)

    def _map_channel_keys_to_connection(self, channel_names, message):
        """channels-redis's mapping of a group's channels to what ``group_send`` writes, without this process's own
        channels: ``group_send`` delivered to them from memory first (a group of this process's sockets only is then
        written nowhere). channels-redis 4.x calls it from ``group_send`` alone."""
        return super()._map_channel_keys_to_connection(
            [name for name in channel_names if not self._local(name)], message)

    async def flush(self):
        self._direct.clear()
        self._inboxes.clear()
        self._members.clear()
        await super().flush()

    # -- the reader: Redis to the inboxes, and the way back after an outage -----------------------------------

    def _reader(self) -> None:
        loop = asyncio.get_running_loop()
        task = self._readers.get(loop)
        if task is None or task.done():
            self._readers[loop] = loop.create_task(self._read_forever())

    async def _read_forever(self) -> None:
        own = f"specific.{self.client_prefix}!"
        while True:
            if self.down:
                await self._come_back()
            try:
                channels, message = await self.receive_single(own)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - Redis gone: the inboxes keep serving this process
                self._mark_down(error)
                continue
            if message.pop(ORIGIN_KEY, None) == self.token:
                continue  # sent by this process, delivered to its inboxes already
            for channel in channels if isinstance(channels, list) else (channels,):
                self._deliver(channel, dict(message))

    async def _come_back(self) -> None:
        """Wait until Redis answers, then add this process's memberships again and tell who missed what."""
        wait_s = RETRY_FIRST_S
        while True:
            await asyncio.sleep(wait_s)
            try:
                await asyncio.wait_for(self.connection(0).ping(), timeout=settings.HANDOFF_SEND_SECONDS)
                for group, channels in list(self._members.items()):
                    for channel in tuple(channels):
                        await super().group_add(group, channel)
                break
            except Exception:  # noqa: BLE001 - still down
                wait_s = min(wait_s * 2, RETRY_MAX_S)
        await self._back()

    async def _back(self) -> None:
        """Redis answers again: this process's sockets and the groups whose sends were skipped get the state."""
        self.down = False
        missed, self._missed_groups = self._missed_groups, set()
        log.warning("channel layer back: %d sockets of this process and %d groups sent the current state",
                    len(self._inboxes), len(missed))
        for channel, inbox in list(self._inboxes.items()):
            if inbox.groups:
                self._deliver(channel, {"type": RESTORED_TYPE})
        for group in missed:
            await self._redis(lambda group=group: super(RedisWithLocalFanout, self).group_send(
                group, {"type": RESTORED_TYPE, ORIGIN_KEY: self.token}))
