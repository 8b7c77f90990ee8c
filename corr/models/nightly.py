"""What the nightly work records, each under a unique constraint so that a rerun creates nothing new.

Healthchecks-style (STYLE 7): a row is claimed by inserting it; whoever's
insert won (``run`` is theirs) sends its e-mail. Rows are never deleted, so
the history of warnings and cases stays.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils import timezone

from corr.limits import NOTE_MAX

from .games import Colour, Game, Tournament


class NightlyRun(models.Model):
    """One run of the nightly job for a date: when it ran and what it created."""

    date = models.DateField(db_index=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    selected_players = models.PositiveIntegerField(default=0)
    chunks = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, blank=True,
                              help_text="new time_trouble_notices, reminders, overstep_cases, reports")

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"nightly {self.date} #{self.pk}"


class TimeTroubleNotice(models.Model):
    """50.4.12: a player entered time trouble; replies must go by registered mail. Once per control."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="time_trouble_notices")
    player = models.CharField(max_length=5, choices=Colour.choices)
    control_number = models.PositiveIntegerField()
    remaining_days = models.IntegerField()
    deadline = models.DateField(null=True, blank=True)
    noticed_on = models.DateField()
    run = models.ForeignKey(NightlyRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    claim = models.UUIDField(db_index=True, help_text="Token of the insert that created the row (STYLE 7).")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player", "control_number"],
                                               name="one_time_trouble_notice_per_control")]


class DeadlineReminder(models.Model):
    """A reminder ``days_before`` a deadline, sent once per deadline and threshold."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deadline_reminders")
    player = models.CharField(max_length=5, choices=Colour.choices)
    deadline = models.DateField()
    days_before = models.PositiveSmallIntegerField()
    reminded_on = models.DateField()
    run = models.ForeignKey(NightlyRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    claim = models.UUIDField(db_index=True, help_text="Token of the insert that created the row (STYLE 7).")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player", "deadline", "days_before"],
                                               name="one_reminder_per_deadline_and_threshold")]


class OverstepStatus(models.TextChoices):
    OPEN = "open", "open: waiting for the arbiter"
    CONFIRMED = "confirmed", "confirmed: the game is lost on time"
    DISMISSED = "dismissed", "dismissed by the arbiter"


class OverstepCase(models.Model):
    """A control exceeded (50.4.3), opened for the arbiters once per player and control."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="overstep_cases")
    player = models.CharField(max_length=5, choices=Colour.choices)
    control_number = models.PositiveIntegerField()
    through_move = models.PositiveIntegerField()
    allowed_days = models.IntegerField()
    used_days = models.IntegerField()
    deadline = models.DateField(null=True, blank=True)
    opened_on = models.DateField(db_index=True)
    status = models.CharField(max_length=10, choices=OverstepStatus.choices, default=OverstepStatus.OPEN)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="", validators=[MaxLengthValidator(NOTE_MAX)])
    run = models.ForeignKey(NightlyRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    claim = models.UUIDField(db_index=True, help_text="Token of the insert that created the row (STYLE 7).")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-opened_on", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "player", "control_number"],
                                               name="one_overstep_case_per_control")]


class NightlyReport(models.Model):
    """A tournament's deadline report for one date: deadlines soon, time trouble, new overstep cases."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="nightly_reports")
    date = models.DateField()
    data = models.JSONField()
    run = models.ForeignKey(NightlyRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    claim = models.UUIDField(db_index=True, help_text="Token of the insert that created the row (STYLE 7).")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date"]
        constraints = [models.UniqueConstraint(fields=["tournament", "date"],
                                               name="one_report_per_tournament_and_date")]


class EmailStatus(models.TextChoices):
    PENDING = "pending", "pending: not sent yet"
    SENDING = "sending", "being sent"
    SENT = "sent", "sent"
    FAILED = "failed", "failed: will be retried"


class OutboundEmail(models.Model):
    """An e-mail to send, stored with what caused it; only a successful send marks it sent.

    ``key`` names its cause (``time_trouble:<notice id>``) and is unique, so an
    e-mail is never queued twice for one cause.
    """

    key = models.CharField(max_length=120, unique=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+", null=True)
    recipients = models.JSONField()
    subject = models.CharField(max_length=200)
    body = models.TextField()
    status = models.CharField(max_length=10, choices=EmailStatus.choices, default=EmailStatus.PENDING,
                              db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    claimed_at = models.DateTimeField(null=True, blank=True)
    claim = models.UUIDField(null=True, blank=True, help_text="Token of the sender that claimed it last.")
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
