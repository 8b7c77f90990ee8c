"""XFCC passwords (issue 26): made by corr, shown once, stored as a digest; signed in like a password.

Desktop correspondence clients (Scid, ChessBase, Arena) send a username and a password in the body
of every XFCC request. They get an XFCC password, never the sign-in one, so a client's saved
settings cannot open the site. It signs in through ``authenticate`` and
:class:`XfccPasswordBackend`, which django-axes counts and locks out with the pages and the API
token (one username from one address, ``AXES_FAILURE_LIMIT`` failures). The sign-in throttle of the
pages and the token does not count XFCC: its calls have their own (``corr.xfcc.throttles``, issue 37).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import authenticate

from .models import User, XfccPassword
from .signin import LockedOut

PASSWORD_BYTES = 24
"""The secret's randomness: 24 bytes (192 bits), written as 32 URL-safe characters."""


def _digest(password: str) -> str:
    return hashlib.sha256(password.encode("utf-8", "surrogatepass")).hexdigest()


def xfcc_password_issue(*, user: User, now: datetime) -> str:
    """A new XFCC password for ``user``, replacing any earlier one; the only time it is seen in clear."""
    password = secrets.token_urlsafe(PASSWORD_BYTES)
    XfccPassword.objects.update_or_create(user=user, defaults={"digest": _digest(password), "created_at": now})
    return password


def xfcc_password_revoke(*, user: User) -> bool:
    """Delete ``user``'s XFCC password; False when they had none."""
    deleted, _ = XfccPassword.objects.filter(user=user).delete()
    return bool(deleted)


class XfccPasswordBackend:
    """``authenticate(request, username=..., xfcc_password=...)``: the user whose XFCC password this is.

    Only XFCC credentials reach it (Django skips a backend whose signature does not take the keywords
    given, so the sign-in forms' ``password`` never does), and only active users pass. The digest is
    computed whether or not the user exists, and compared in constant time.
    """

    def authenticate(self, request, username: str | None = None, xfcc_password: str | None = None):
        if username is None or xfcc_password is None:
            return None
        given = _digest(xfcc_password)
        row = XfccPassword.objects.select_related("user").filter(user__username=username).first()
        stored = row.digest if row is not None else "0" * 64
        if not hmac.compare_digest(given, stored) or row is None or not row.user.is_active:
            return None
        return row.user

    def get_user(self, user_id):
        return User.objects.filter(pk=user_id, is_active=True).first()


def xfcc_sign_in(*, request, username: str, password: str) -> User | None:
    """The user with this username and XFCC password, or None when either is wrong (nothing tells which).

    :raises LockedOut: the username is locked out for this client address (the sign-in's lockout); the
        caller answers it in its own protocol (axes' middleware would replace the answer with its page).
    """
    user = authenticate(request, username=username, xfcc_password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            request.axes_locked_out = False
            raise LockedOut(int(settings.AXES_COOLOFF_TIME.total_seconds()))
        return None
    ip_address = getattr(request, "axes_ip_address", None)
    if ip_address:
        axes_reset(ip=ip_address, username=username)
    return user
