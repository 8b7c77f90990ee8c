"""Blocks of links the pages include: a game's downloads, and the user's calendar addresses."""

from __future__ import annotations

from django import template

from corr.exports import formats_of
from corr.feeds.tokens import calendar_feed_get, calendar_url
from corr.models import Tournament

register = template.Library()


@register.inclusion_tag("corr/downloads/game_exports.html")
def game_exports(game):
    """The game page's download links: the formats of the game's kind."""
    return {"game": game, "formats": formats_of(game)}


@register.inclusion_tag("corr/downloads/calendars.html", takes_context=True)
def calendar_links(context):
    """The user's calendar address and, for arbiters, one per tournament they arbitrate (made on first view)."""
    user = context["request"].user
    tournaments = Tournament.objects.all() if user.is_superuser else user.arbitrated_tournaments.all()
    return {
        "csrf_token": context.get("csrf_token"),
        "own_url": calendar_url(calendar_feed_get(user=user)),
        "tournaments": [(t, calendar_url(calendar_feed_get(user=user, tournament=t))) for t in tournaments],
    }
