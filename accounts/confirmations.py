"""Signed links that confirm an e-mail address: a new address of an account, an open sign-up.

A link carries ``django.core.signing``'s signature (the ``SECRET_KEY``, a salt of its own per kind) and its
time; it is good for ``EMAIL_CONFIRM_HOURS``. Nothing is stored: a link is single-use because what it
changes is part of what it says. An address change names the address it replaces, and is refused once the
account's address is no longer that one; a sign-up opens only an account that is still closed and has never
signed in (so an account an administrator closed later is not reopened by an old link).
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db import transaction

from .models import User

EMAIL_CHANGE_SALT = "corr.accounts.email-change"
SIGN_UP_SALT = "corr.accounts.sign-up"


class LinkRefused(Exception):
    """The link is not corr's, was altered, is older than ``EMAIL_CONFIRM_HOURS``, or was used already."""


def _max_age() -> int:
    return settings.EMAIL_CONFIRM_HOURS * 3600


def email_change_token(*, user: User, new_email: str) -> str:
    """The token of a link that moves ``user`` from their current address to ``new_email``."""
    return signing.dumps({"u": user.pk, "old": user.email, "new": new_email}, salt=EMAIL_CHANGE_SALT)


def email_change_read(token: str) -> tuple[User, str, str]:
    """The account, its old and its new address that ``token`` names. :raises LinkRefused: see the class."""
    try:
        data = signing.loads(token, salt=EMAIL_CHANGE_SALT, max_age=_max_age())
        user = User.objects.get(pk=data["u"], is_active=True)
    except (signing.BadSignature, User.DoesNotExist, KeyError, TypeError):
        raise LinkRefused from None
    if user.email != data["old"]:
        raise LinkRefused  # used already, or another change came first
    return user, data["old"], data["new"]


@transaction.atomic
def email_change_apply(token: str) -> tuple[User, str]:
    """Give the account its new address; returns the account and its old address.

    The conditional UPDATE (the address is still the old one) makes two concurrent uses one change.
    :raises LinkRefused: see the class.
    """
    user, old, new = email_change_read(token)
    if not User.objects.filter(pk=user.pk, email=old).update(email=new):
        raise LinkRefused
    user.email = new
    return user, old


def sign_up_token(*, user: User) -> str:
    """The token of the link that opens ``user``'s new account."""
    return signing.dumps({"u": user.pk}, salt=SIGN_UP_SALT)


@transaction.atomic
def sign_up_confirm(token: str) -> User:
    """Open the account ``token`` names. :raises LinkRefused: see the class."""
    try:
        data = signing.loads(token, salt=SIGN_UP_SALT, max_age=_max_age())
        pk = data["u"]
    except (signing.BadSignature, KeyError, TypeError):
        raise LinkRefused from None
    if not User.objects.filter(pk=pk, is_active=False, last_login__isnull=True).update(is_active=True):
        raise LinkRefused
    return User.objects.get(pk=pk)
