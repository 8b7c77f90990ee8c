"""A real SMTP server on loopback for the e-mail tests (aiosmtpd): what corr sends is what a mailbox receives.

``smtp`` (the fixture) starts one per test on a free port and points Django's SMTP backend at it; the
messages arrive parsed (``email.message.EmailMessage``, the body decoded as a mail client shows it).
"""

from __future__ import annotations

import re
import socket
import time
from email import message_from_bytes
from email.policy import default

import pytest

LINK = re.compile(r"https?://\S+")


class Inbox:
    """What the server received, in order; ``aiosmtpd`` calls ``handle_DATA`` on its own thread."""

    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        message = message_from_bytes(envelope.original_content, policy=default)
        message.envelope_to = list(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 OK"

    def wait(self, count: int = 1, seconds: float = 10):
        """The first ``count`` messages, once they are all in (polled)."""
        until = time.monotonic() + seconds
        while len(self.messages) < count:
            if time.monotonic() > until:
                raise AssertionError(f"{len(self.messages)} e-mails received, {count} awaited")
            time.sleep(0.05)
        return self.messages[:count]

    def to(self, address: str) -> list:
        return [m for m in self.messages if address in m.envelope_to]

    def last_to(self, address: str, seconds: float = 10):
        until = time.monotonic() + seconds
        while not self.to(address):
            if time.monotonic() > until:
                raise AssertionError(f"no e-mail to {address}: {[m['To'] for m in self.messages]}")
            time.sleep(0.05)
        return self.to(address)[-1]


def subject(message) -> str:
    """The subject as a mail client shows it (a long encoded subject is folded; unfolding leaves a space)."""
    return str(message["Subject"]).strip()


def body(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def link_in(message, base: str = "") -> str:
    """The one link of ``message``'s body, relative to ``base`` when it starts with it."""
    links = LINK.findall(body(message))
    assert len(links) == 1, links
    return links[0].removeprefix(base)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp(settings):
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    yield inbox
    controller.stop()
