"""Who may do what: arbiters act on their tournaments, players on their games."""

from __future__ import annotations


def can_arbitrate(user, tournament) -> bool:
    """A superuser arbitrates every tournament; an arbiter the tournaments they are named in."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return user.is_arbiter and tournament.arbiters.filter(pk=user.pk).exists()


def can_view(user, game) -> bool:
    return game.colour_of(user) is not None or can_arbitrate(user, game.tournament)
