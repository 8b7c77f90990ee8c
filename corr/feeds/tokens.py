"""The secret of a calendar address: issue, rotate (the old address is gone at once) and find in constant time."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.urls import reverse

from corr.models import CalendarFeed, Tournament
from corr.models.feeds import TOKEN_LOOKUP_LENGTH
from corr.links import absolute_url

TOKEN_PATTERN = r"[A-Za-z0-9_-]{43}"
"""What ``secrets.token_urlsafe(32)`` gives (256 random bits): the only tokens the URLs accept."""


def _new_token() -> str:
    return secrets.token_urlsafe(32)


def calendar_feed_get(*, user, tournament: Tournament | None = None) -> CalendarFeed:
    """The user's feed (or their feed of ``tournament``), created with a new token the first time it is asked for.

    Checking that the user may see the tournament is the caller's.
    """
    feed = CalendarFeed.objects.filter(user=user, tournament=tournament).first()
    if feed is not None:
        return feed
    try:
        with transaction.atomic():
            token = _new_token()
            return CalendarFeed.objects.create(user=user, tournament=tournament, token=token,
                                               lookup=token[:TOKEN_LOOKUP_LENGTH])
    except IntegrityError:  # a concurrent first request created it
        return CalendarFeed.objects.get(user=user, tournament=tournament)


@transaction.atomic
def calendar_feed_rotate(*, user, tournament: Tournament | None = None) -> CalendarFeed:
    """Give the feed a new token: the old address answers 404 from the commit on."""
    feed = calendar_feed_get(user=user, tournament=tournament)
    feed = CalendarFeed.objects.select_for_update().get(pk=feed.pk)
    feed.token = _new_token()
    feed.lookup = feed.token[:TOKEN_LOOKUP_LENGTH]
    feed.save(update_fields=["token", "lookup"])
    return feed


def calendar_feed_find(*, token: str, of_tournament: bool) -> CalendarFeed | None:
    """The feed whose token is ``token`` (a user's own, or a tournament's), else None.

    The row is found by the token's first characters and the whole token
    compared with ``secrets.compare_digest``: how long a wrong guess takes does
    not tell how much of it was right.
    """
    feed = (CalendarFeed.objects.select_related("user", "tournament")
            .filter(lookup=token[:TOKEN_LOOKUP_LENGTH], tournament__isnull=not of_tournament).first())
    if feed is None or not secrets.compare_digest(feed.token.encode(), token.encode()):
        return None
    return feed


def calendar_url(feed: CalendarFeed) -> str:
    """The feed's absolute address (``SITE_URL``): calendar programs fetch it from outside the site."""
    name = "calendar-tournament-feed" if feed.tournament_id else "calendar-feed"
    return absolute_url(reverse(name, kwargs={"token": feed.token}))
