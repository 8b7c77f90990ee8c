"""The floor of the live load bench (bench/live_load.py): a bare Channels echo on the same stack.

Served the same way as corr (``daphne bench.live_floor:application``, channels-redis on the same Redis), with
the same socket path and messages: on connecting a socket joins its game's group and gets a payload; a
``{"type": "move", "id", ...}`` message is answered to its sender (``{"type": "move", "id", "status": 201,
"live": payload}``) and the payload is sent to the game's group, as corr's push is. The payload has the size of
corr's (``PAYLOAD_BYTES``) and a version that counts the game's moves (kept in this one process's memory: a
floor needs no database). What corr adds above this floor is its own work: the database, the clock, the rules.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")

import django  # noqa: E402

django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

PAYLOAD_BYTES = 700
"""About the size of corr's ``"live"`` object of a Fischer game (bench/live_load.py reports corr's own)."""
_versions: dict[int, int] = {}


def payload(game_id: int) -> dict:
    version = _versions.setdefault(game_id, 1)
    return {"version": version, "status": "ongoing", "next_flag_at_ms": None, "pad": "x" * PAYLOAD_BYTES}


class Echo(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = f"floor-game-{self.game_id}"
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json(payload(self.game_id))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        if not isinstance(content, dict) or content.get("type") != "move":
            return
        _versions[self.game_id] = _versions.get(self.game_id, 1) + 1
        body = payload(self.game_id)
        await self.channel_layer.group_send(self.group, {"type": "live.update", "payload": body})
        await self.send_json({"type": "move", "id": content.get("id"), "status": 201, "live": body})

    async def live_update(self, message):
        await self.send_json(message["payload"])


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/games/<int:game_id>/live/", Echo.as_asgi())]),
})
