"""Writes of a user's own settings (STYLE 5)."""

from __future__ import annotations

from django.db import transaction

from .models import User, Vision


@transaction.atomic
def user_settings_change(*, user: User, vision: str | None = None) -> User:
    """Change ``user``'s own settings: ``vision`` (``""``, ``"low"``, ``"blind"``: the warnings a live game's
    page speaks to them and its arbiter owes them, 001 1.7.9). :raises ValueError: for an unknown vision."""
    fields = []
    if vision is not None:
        if vision not in Vision.values:
            raise ValueError(f"vision must be one of {Vision.values}, got {vision!r}")
        user.vision = vision
        fields.append("vision")
    if fields:
        user.save(update_fields=fields)
    return user
