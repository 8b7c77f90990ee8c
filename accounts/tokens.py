"""API tokens that expire, and the sign-in that issues them.

A token is valid for ``settings.TOKEN_TTL_DAYS`` days from its creation; an
expired token answers 401 and is deleted, and the next sign-in at
``/api/auth/token/`` issues a new one. A password change deletes the user's
token (see :meth:`accounts.models.User.save`), so a leaked token dies with the
password that was leaked with it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


def token_expired(token: Token, *, now: datetime) -> bool:
    """True when ``token`` is ``TOKEN_TTL_DAYS`` days old or older at ``now``."""
    return token.created <= now - timedelta(days=settings.TOKEN_TTL_DAYS)


def token_issue(*, user, now: datetime) -> Token:
    """The user's valid token: the current one, or a new one if there is none or it has expired."""
    token = Token.objects.filter(user=user).first()
    if token is not None and token_expired(token, now=now):
        token.delete()
        token = None
    if token is None:
        token, _ = Token.objects.get_or_create(user=user)  # a racing sign-in may have created it
    return token


def tokens_revoke(*, user) -> int:
    """Delete every token of ``user``; returns how many there were."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


def token_valid(token: Token, *, now: datetime) -> bool:
    """True when ``token`` (its ``user`` loaded) authenticates at ``now``: its user is active and it has not expired.

    The rules of :class:`ExpiringTokenAuthentication`, for a caller that read the token itself (the move's
    locking read, issue 42); an invalid token is then refused by that class, which says why.
    """
    return token.user.is_active and not token_expired(token, now=now)


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, refused (401) once the token is ``TOKEN_TTL_DAYS`` old."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if token_expired(token, now=timezone.now()):
            token.delete()
            raise exceptions.AuthenticationFailed("token expired: sign in again at /api/auth/token/")
        return user, token


class _KeyOnly(ExpiringTokenAuthentication):
    """Reads the header as :class:`ExpiringTokenAuthentication` does, and stops before the database."""

    def authenticate_credentials(self, key):
        return key, None


def token_key(request) -> str | None:
    """The key of ``request``'s ``Authorization: Token <key>`` header, parsed as DRF parses it; None without one.

    :raises AuthenticationFailed: a malformed header (no key, spaces in it, not UTF-8), with DRF's own message.
    """
    found = _KeyOnly().authenticate(request)
    return None if found is None else found[0]
