"""A PGN import run in the background (issue 37): the text as uploaded, its state, and what it made or refused.

The row is the job's one source of truth: it is stored with the upload, and its final state (``done`` with the
games' ids, or ``refused`` with a line per refused game) is written in the same transaction as the games, so
that an import runs once whatever happens to the worker (``corr.games.services.import_jobs``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Tournament


class ImportStatus(models.TextChoices):
    NAMES = "names", _("waiting for the players' names to be matched to accounts")
    QUEUED = "queued", _("waiting for a worker")
    RUNNING = "running", _("importing")
    DONE = "done", _("imported")
    REFUSED = "refused", _("refused: nothing imported")


class ImportJob(models.Model):
    """One upload of a server event's PGN into a tournament, imported all or nothing by a Celery worker."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="import_jobs")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    pgn = models.TextField(help_text="The PGN as uploaded (kept: a worker that died starts it again).")
    total = models.PositiveIntegerField(help_text="Games in the PGN, counted when it was uploaded.")
    status = models.CharField(max_length=10, choices=ImportStatus.choices, default=ImportStatus.QUEUED)
    claimed_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When a worker last began it (a stale claim is begun again).")
    attempts = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    game_ids = models.JSONField(default=list, blank=True, help_text="The games made (done).")
    refusals = models.JSONField(default=list, blank=True, help_text="One line per refused game (refused).")
    players = models.JSONField(default=dict, blank=True,
                               help_text="The PGN's names the arbiter matched to accounts: {name: username}.")

    class Meta:
        indexes = [models.Index(fields=["status", "claimed_at"], name="corr_import_due")]

    def __str__(self) -> str:
        return f"import #{self.pk} into {self.tournament_id}: {self.status}"
