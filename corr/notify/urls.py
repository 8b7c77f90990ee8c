from django.urls import path

from . import views

urlpatterns = [
    path("account/notifications/", views.preferences_page, name="notify-preferences"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="notify-unsubscribe"),
    path("games/<int:game_id>/presence/", views.presence, name="game-presence"),
]
