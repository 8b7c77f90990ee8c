"""The e-mails of one's own account (a new address, a sign-up), in the recipient's language.

They are sent at once, not through corr's outbox: each carries a link that acts for the account, and the
outbox keeps bodies in the database; the person who asked is waiting for it and can ask again.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import translation


def site_link(path: str) -> str:
    """``SITE_URL`` + ``path``: never the request's Host header, which a client may forge."""
    return settings.SITE_URL.rstrip("/") + path


def account_mail_send(*, to: str, language: str, template: str, context: dict) -> None:
    """Render ``<template>_subject.txt`` and ``<template>_email.txt`` in ``language`` and send them to ``to``.

    :raises OSError, smtplib.SMTPException: when the mail server refuses or cannot be reached.
    """
    with translation.override(language):
        subject = "".join(render_to_string(f"{template}_subject.txt", context).splitlines())
        body = render_to_string(f"{template}_email.txt", context)
    EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to]).send()
