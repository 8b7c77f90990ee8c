from django.urls import path, re_path

from . import views
from .tokens import TOKEN_PATTERN

urlpatterns = [
    re_path(rf"^calendar/(?P<token>{TOKEN_PATTERN})\.ics$", views.user_calendar, name="calendar-feed"),
    re_path(rf"^calendar/tournament/(?P<token>{TOKEN_PATTERN})\.ics$", views.tournament_calendar,
            name="calendar-tournament-feed"),
    path("calendar/rotate/", views.calendar_rotate, name="calendar-rotate"),
    path("calendar/tournament/<int:tournament_id>/rotate/", views.tournament_calendar_rotate,
         name="calendar-tournament-rotate"),
]
