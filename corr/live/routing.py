"""The live page's WebSocket route (the contract of issue 16): ``ws/games/<id>/live/``.

Every other path is accepted and closed with 4404 (issue 23): without the last route Channels'
router raises "No route found", which an ASGI server answers with HTTP 500 at the handshake.
"""

from django.urls import path, re_path

from .consumers import LiveGameConsumer, NoSuchSocketConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/live/", LiveGameConsumer.as_asgi(), name="live-game-socket"),
    re_path(r"", NoSuchSocketConsumer.as_asgi(), name="no-such-socket"),
]
