"""After-commit notice that a live game changed: its payload to the Channels group ``live-game-<id>``.

A minimal implementation until the live page's (branch ``live-page``) replaces it:
without Django Channels installed, or without a channel layer, it does nothing.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def game_changed(game_id: int) -> None:
    """Send ``{"type": "live.update", "live": live_payload}`` to the game's group; never raises."""
    try:
        from asgiref.sync import async_to_sync
        from channels.layers import get_channel_layer
    except ImportError:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    from corr.models import Game

    from .state import live_payload

    try:
        game = Game.objects.select_related("tournament").get(pk=game_id)
        async_to_sync(layer.group_send)(f"live-game-{game_id}", {"type": "live.update",
                                                                 "live": live_payload(game)})
    except Exception:  # a push is a courtesy: the page also reads the game; never fail a commit for it
        log.exception("live push of game %s failed", game_id)
