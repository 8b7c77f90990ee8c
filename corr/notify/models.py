"""What the notifications store: each player's choices, each notice, and each player's pace."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


def default_warning_hours() -> list[int]:
    """The hours before the flag a player is warned at, until they choose (``NOTIFY_WARNING_HOURS``)."""
    return list(settings.NOTIFY_WARNING_HOURS)


class Preference(models.Model):
    """A player's choices; no row: every kind on, no daily digest, the default warning hours."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="notify_preference")
    off = models.JSONField(default=list, blank=True, help_text="The kinds (notify.Kind) the player turned off.")
    daily = models.BooleanField(default=False, help_text="Gather everything but flag warnings into one e-mail a"
                                                         " day, at NOTIFY_DAILY_HOUR in the player's time zone.")
    warning_hours = models.JSONField(default=default_warning_hours, blank=True,
                                     help_text="Hours before flag_at the player is warned at, largest first.")
    updated_at = models.DateTimeField(auto_now=True)


class NoticeState(models.TextChoices):
    PENDING = "pending", "pending"
    """Waiting for the end of the player's quiet period (or the daily digest)."""
    SENT = "sent", "sent"
    """In an e-mail stored in the outbox (``email_key``)."""


class Notice(models.Model):
    """One thing a player is told, worded when it happened in their language and zone (``text``).

    ``key`` names its cause and recipient (``move:<game>:<version>:<user>``) and is unique: a task run twice
    (a redelivered message) stores it once and sends it once.
    """

    key = models.CharField(max_length=120, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("corr.Game", on_delete=models.CASCADE, related_name="+", null=True)
    colour = models.CharField(max_length=5, blank=True, default="", help_text="The recipient's colour in the game.")
    kind = models.CharField(max_length=20)
    subject = models.CharField(max_length=200)
    text = models.TextField()
    state = models.CharField(max_length=10, choices=NoticeState.choices, default=NoticeState.PENDING)
    email_key = models.CharField(max_length=120, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "state"])]


class Pace(models.Model):
    """A player's quiet period: when their last e-mail went, and when the gathered one is due (None: none)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")
    last_sent_at = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
