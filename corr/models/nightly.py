"""What the nightly work records, each under a unique constraint so that a rerun creates nothing new.

Healthchecks-style (STYLE 7): a row is claimed by inserting it; whoever's
insert won (``run`` is theirs) sends its e-mail. Rows are never deleted, so
the history of warnings and cases stays.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.db.models import Q
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
    OPEN = "open", _("open: waiting for the arbiter")
    CONFIRMED = "confirmed", _("confirmed by the arbiter")
    DISMISSED = "dismissed", _("dismissed by the arbiter")
    WITHDRAWN = "withdrawn", _("withdrawn: the recorded facts no longer show it")


class CaseKind(models.TextChoices):
    OVERSTEP = "overstep", _("control exceeded (50.4.3)")
    REGISTERED_MAIL = "registered_mail", _("registered mail not used in time trouble (50.4.12, 50.4.9.3)")


class OverstepCase(models.Model):
    """A case for the arbiters, following the game's recorded facts until an arbiter decides it.

    ``overstep``: a control exceeded (50.4.3), at most one undecided-or-decided
    case per player and control; ``registered_mail``: a move sent by ordinary
    mail or e-mail while in time trouble (50.4.12), one per move. A case whose
    facts are gone is *withdrawn* (never deleted), which frees the place for a
    later real one. ``through_move`` is the move of the case (the move sent by
    ordinary mail for ``registered_mail``).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="overstep_cases")
    kind = models.CharField(max_length=16, choices=CaseKind.choices, default=CaseKind.OVERSTEP)
    player = models.CharField(max_length=5, choices=Colour.choices)
    control_number = models.PositiveIntegerField()
    through_move = models.PositiveIntegerField()
    allowed_days = models.IntegerField()
    used_days = models.IntegerField()
    deadline = models.DateField(null=True, blank=True)
    event_seq = models.PositiveIntegerField(null=True, blank=True,
                                            help_text="registered_mail: the seq of the move event it is about.")
    opened_on = models.DateField(db_index=True)
    status = models.CharField(max_length=10, choices=OverstepStatus.choices, default=OverstepStatus.OPEN)
    checked_on = models.DateField(null=True, blank=True, help_text="The date its figures were last re-checked.")
    announced_on = models.DateField(null=True, blank=True,
                                    help_text="The nightly run that e-mailed the arbiters about it (once).")
    withdrawn_reason = models.TextField(blank=True, default="")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="", validators=[MaxLengthValidator(NOTE_MAX)])
    run = models.ForeignKey(NightlyRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    claim = models.UUIDField(db_index=True, help_text="Token of the insert that created the row (STYLE 7).")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-opened_on", "id"]
        constraints = [
            # A withdrawn case does not count: a later real overstep of the same control opens a new case.
            models.UniqueConstraint(fields=["game", "player", "control_number"],
                                    condition=Q(kind="overstep") & ~Q(status="withdrawn"),
                                    name="one_live_overstep_case_per_control"),
            models.UniqueConstraint(fields=["game", "player", "through_move"],
                                    condition=Q(kind="registered_mail") & ~Q(status="withdrawn"),
                                    name="one_live_mail_case_per_move"),
        ]
        indexes = [models.Index(fields=["game"], condition=Q(status="open"), name="overstepcase_open")]

    @property
    def kind_name(self) -> str:
        """``"overstep"`` or ``"registered mail"``: the case's kind in a sentence."""
        return self.kind.replace("_", " ")


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
    PENDING = "pending", _("pending: not sent yet")
    SENDING = "sending", _("being sent")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed: will be retried")


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
    headers = models.JSONField(default=dict, blank=True, help_text="Extra headers sent with it (a notification's"
                               " List-Unsubscribe and List-Unsubscribe-Post, RFC 8058).")

    class Meta:
        ordering = ["-created_at"]
