"""Who has a game page open: the page's heartbeat, kept in the ``presence`` cache (Redis) a short while.

A player viewing the game when the partner moves sees the move there (the page's refresh), so they are
not e-mailed about it. The page posts a heartbeat every third of ``NOTIFY_PRESENCE_SECONDS`` while it is
visible; the mark lapses ``NOTIFY_PRESENCE_SECONDS`` after the last one (a closed tab, a sleeping phone).
A cache that cannot be reached says "not present": an e-mail too many rather than one missed.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import caches

log = logging.getLogger(__name__)


def _key(user_id: int, game_id: int) -> str:
    return f"{user_id}:{game_id}"


def presence_mark(*, user_id: int, game_id: int) -> None:
    """Record that ``user_id`` has game ``game_id``'s page open now."""
    try:
        caches["presence"].set(_key(user_id, game_id), 1, timeout=settings.NOTIFY_PRESENCE_SECONDS)
    except Exception:  # noqa: BLE001 - a heartbeat lost costs at most an e-mail
        log.warning("presence of user %s on game %s not recorded", user_id, game_id, exc_info=True)


def presence_clear(*, user_id: int, game_id: int) -> None:
    """The page was left (``pagehide``): the player is e-mailed again at once."""
    try:
        caches["presence"].delete(_key(user_id, game_id))
    except Exception:  # noqa: BLE001
        log.warning("presence of user %s on game %s not cleared", user_id, game_id, exc_info=True)


def is_present(*, user_id: int, game_id: int) -> bool:
    """Whether ``user_id`` has game ``game_id``'s page open (a heartbeat within ``NOTIFY_PRESENCE_SECONDS``)."""
    try:
        return caches["presence"].get(_key(user_id, game_id)) is not None
    except Exception:  # noqa: BLE001
        log.warning("presence of user %s on game %s unknown: e-mailed", user_id, game_id, exc_info=True)
        return False
