from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/export/<str:format>/", views.game_download, name="game-export"),
]
