"""Pushes to the live page: every committed change of a live game reaches its open WebSockets.

The service calls :func:`game_changed` after each commit (``transaction.on_commit``); the payload is
computed once here and sent to the Channels group of the game, where each connection of
:mod:`corr.live.consumers` forwards it to its browser. Through channels-redis (``REDIS_URL``) a push made
by any process reaches connections held by any other; the in-memory layer of the embedded run serves
one process.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from corr.handoff import handoff, run_async

logger = logging.getLogger(__name__)

# The contract of issue 16: the group of game <id> and the type of its messages.
GROUP_PREFIX = "live-game-"
MESSAGE_TYPE = "live.update"


def group_name(game_id: int) -> str:
    """The Channels group of game ``game_id``'s open live pages: ``live-game-<id>``."""
    return f"{GROUP_PREFIX}{int(game_id)}"


def update_message(payload: dict) -> dict:
    """The group message that carries ``payload`` (a ``live_payload``) to the connections."""
    return {"type": MESSAGE_TYPE, "payload": payload}


def game_changed(game_id: int, payload: dict | None = None) -> None:
    """Send game ``game_id``'s current live payload to its group; never raises, never waits on Redis.

    Called after the change is committed. The payload is computed here, in the caller's thread (the
    state as committed, in the order of the changes); the send goes through channels-redis on this
    process's handoff thread (:mod:`corr.handoff`), so a slow or stopped Redis delays no answer. The
    in-memory layer of the embedded run is sent to inline (it lives on the server's event loop). A push
    that cannot be sent is logged, and nothing is lost for good: a page that reconnects gets the current
    payload on connecting, and every later push carries the whole state.

    ``payload``: the ``"live"`` object as the write that calls computed it from its own clock (issue 27:
    a press's push re-reads nothing); None reads the game again.
    """
    if payload is None:
        from corr.models import Game

        from .state import live_payload

        try:
            game = Game.objects.select_related("tournament", "white", "black").get(pk=game_id)
        except Game.DoesNotExist:
            return
        payload = live_payload(game)
    message = update_message(payload)
    layer = get_channel_layer()
    if isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(layer.group_send)(group_name(game_id), message)
        except Exception:  # noqa: BLE001 - any failure of the layer leaves the move stored
            logger.exception("live push of game %s not sent", game_id)
        return
    handoff(f"live push of game {game_id}",
            lambda: run_async(lambda: layer.group_send(group_name(game_id), message)))
