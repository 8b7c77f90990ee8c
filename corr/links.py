"""Absolute links for what is read outside the site (e-mails, feeds, exports)."""

from __future__ import annotations

from django.conf import settings


def absolute_url(path: str) -> str:
    """``SITE_URL`` + path: e-mails are read outside the site, where a relative link means nothing."""
    return settings.SITE_URL.rstrip("/") + path
