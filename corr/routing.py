"""The site's WebSocket routes: the live page's socket (the contract of issue 16), ``ws/games/<id>/live/``.

Served by :class:`corr.api.live_socket.LiveGameSocket`: the pushes of :mod:`corr.live.consumers` and the
moves a player sends on it (issue 27). Every other path is accepted and closed with 4404 (issue 23):
without the last route Channels' router raises "No route found", which an ASGI server answers with HTTP
500 at the handshake.
"""

from django.urls import path, re_path

from corr.api.live_socket import LiveGameSocket
from corr.live.consumers import NoSuchSocketConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/live/", LiveGameSocket.as_asgi(), name="live-game-socket"),
    re_path(r"", NoSuchSocketConsumer.as_asgi(), name="no-such-socket"),
]
