"""Unsubscribe links: a signed token per recipient and kinds, and the headers of RFC 2369 and RFC 8058.

The token is signed with the site's key (``django.core.signing``), so the link needs no sign-in and
cannot be forged for another player; it does not expire (an old e-mail's link still works, as RFC 8058
expects of a ``List-Unsubscribe`` that a mail client may use long after delivery).
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

from corr.links import absolute_url

from .kinds import Kind

SALT = "corr.notify.unsubscribe"


def unsubscribe_token(*, user_id: int, kinds) -> str:
    """The token of ``user_id`` and ``kinds`` (``Kind`` values)."""
    return signing.dumps([user_id, sorted({str(k) for k in kinds})], salt=SALT, compress=True)


def token_read(token: str) -> tuple[int, list[Kind]] | None:
    """The user id and kinds of a token; None for a forged, damaged or unknown one."""
    try:
        user_id, kinds = signing.loads(token, salt=SALT)
        return int(user_id), [Kind(k) for k in kinds]
    except (signing.BadSignature, ValueError, TypeError):
        return None


def unsubscribe_url(*, user_id: int, kinds) -> str:
    return absolute_url(reverse("notify-unsubscribe", args=[unsubscribe_token(user_id=user_id, kinds=kinds)]))


def preferences_url() -> str:
    return absolute_url(reverse("notify-preferences"))


def list_headers(*, user_id: int, kinds) -> dict[str, str]:
    """``List-Unsubscribe`` (the https link, and a mailto when ``NOTIFY_UNSUBSCRIBE_MAILTO`` is set) and
    ``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058: a POST to the link unsubscribes)."""
    links = [f"<{unsubscribe_url(user_id=user_id, kinds=kinds)}>"]
    if settings.NOTIFY_UNSUBSCRIBE_MAILTO:
        token = unsubscribe_token(user_id=user_id, kinds=kinds)
        links.append(f"<mailto:{settings.NOTIFY_UNSUBSCRIBE_MAILTO}?subject=unsubscribe%20{token}>")
    return {"List-Unsubscribe": ", ".join(links), "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
