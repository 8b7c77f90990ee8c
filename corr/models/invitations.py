"""An arbiter's invitation of an e-mail address to a tournament (issue 38).

corr's tournaments have no list of entrants: a player is in a tournament by their games. So an invitation
names the game the invitee will play, the opponent and the invitee's colour, and accepting it makes the
account and pairs that game. Only the SHA-256 of its link's secret is kept, like an XFCC password.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from .games import Colour, Game, Tournament


class Invitation(models.Model):
    """An e-mail address invited to play ``opponent`` in ``tournament`` with ``colour``; good until
    ``expires_at``, used once (``accepted_at``, then ``user`` and ``game`` say what it made)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(max_length=254)
    language = models.CharField(max_length=8, choices=settings.LANGUAGES,
                                help_text="The language of the e-mail, and the new account's until it chooses.")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    colour = models.CharField(max_length=5, choices=Colour.choices, help_text="The invitee's colour.")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the link's secret, hexadecimal.")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"invitation of {self.email} to {self.tournament}"
