"""Secret calendar addresses: one per user, and one per arbiter and tournament they arbitrate."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

TOKEN_LOOKUP_LENGTH = 12
"""Characters of the token that find its row; the whole token is then compared in constant time."""


class CalendarFeed(models.Model):
    """The token of an iCalendar address (``/calendar/<token>.ics``); rotating it replaces the row's token.

    ``tournament`` None is the user's own feed (their games' deadlines); set,
    it is the feed of that tournament's deadlines, kept for one of its arbiters
    (it answers 404 once they no longer arbitrate it). ``lookup`` is the
    token's first characters: the row is found by it through its index, and
    the token compared whole with ``secrets.compare_digest``, so a request's
    timing says nothing about how much of a guessed token was right.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feeds")
    tournament = models.ForeignKey("corr.Tournament", on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="calendar_feeds")
    lookup = models.CharField(max_length=TOKEN_LOOKUP_LENGTH, unique=True)
    token = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=Q(tournament__isnull=True),
                                    name="one_own_calendar_per_user"),
            models.UniqueConstraint(fields=["user", "tournament"], condition=Q(tournament__isnull=False),
                                    name="one_tournament_calendar_per_arbiter"),
        ]

    def __str__(self) -> str:
        return f"calendar of {self.user} ({self.tournament or 'own games'})"
