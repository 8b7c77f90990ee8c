"""Leave: a player's days that do not count, booked by the player or granted by an arbiter (issue 14)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from corr import limits as lim

from .games import DATE_WINDOW, AllowancePer, Game, MoveOnLeave, Tournament  # noqa: F401


class Leave(models.Model):
    """Dates ``first``..``last`` (both included) on which a player's clocks stop.

    ``tournament`` None: every tournament that allows leave (a player's own booking);
    otherwise that tournament only (an arbiter's special leave). Special leave is beyond
    the allowance and carries the reason and the arbiter who granted it. ``game`` set: that
    game only (issue 37: the leave an imported game's file records, stored by the importing
    arbiter as the game's special leave, so that no other game of the player changes).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leaves")
    first = models.DateField(validators=DATE_WINDOW, help_text="The first day of the leave.")
    last = models.DateField(validators=DATE_WINDOW, help_text="The last day of the leave (included).")
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="leaves", help_text="Blank: every tournament that allows leave.")
    special = models.BooleanField(default=False, help_text="Granted by an arbiter beyond the allowance.")
    reason = models.TextField(blank=True, default="", validators=[MaxLengthValidator(lim.NOTE_MAX)])
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="own_leaves",
                             help_text="Set: this game only (the leave an imported game's file records).")
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["user", "first"]
        constraints = [models.CheckConstraint(condition=Q(first__lte=F("last")), name="leave_first_not_after_last")]
        indexes = [models.Index(fields=["user", "last"], name="leave_user_last")]

    def __str__(self) -> str:
        return f"{self.user} on leave {self.first}..{self.last}"

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1
