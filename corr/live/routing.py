"""The live page's WebSocket route (the contract of issue 16): ``ws/games/<id>/live/``."""

from django.urls import path

from .consumers import LiveGameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/live/", LiveGameConsumer.as_asgi(), name="live-game-socket"),
]
