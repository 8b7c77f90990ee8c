"""A real SMTP server (aiosmtpd on a free loopback port) and a real Celery worker sending to it."""

from __future__ import annotations

import email
import threading
import time
from email import policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from ..nightly.test_worker_integration import REDIS_URL, real_broker, redis_reachable, worker_start, worker_stop
from ..support.stack import free_port


class Inbox:
    """What the SMTP server received: each message parsed (``email.message.EmailMessage``), its envelope's
    recipients beside it."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], email.message.EmailMessage]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's handler hook
        message = email.message_from_bytes(envelope.original_content, policy=policy.default)
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        with self.lock:
            return [m for rcpt, m in self.messages if address in rcpt]

    def wait(self, address: str, count: int, seconds: float = 60) -> list[email.message.EmailMessage]:
        """The messages to ``address`` once there are ``count`` of them. :raises AssertionError: not in time."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            got = self.to(address)
            if len(got) >= count:
                return got
            time.sleep(0.2)
        raise AssertionError(f"{address} received {[m['Subject'] for m in self.to(address)]}, expected {count}")


def body(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield inbox, controller.port
    finally:
        controller.stop()


@pytest.fixture
def quiet_seconds() -> int:
    """The worker's quiet period: none (each notice at once) unless a test parametrizes it."""
    return 0


@pytest.fixture
def worker(transactional_db, smtp, settings, quiet_seconds):
    """A worker on the test database and Redis, e-mailing the SMTP server, with ``quiet_seconds``.

    The name ``worker`` keeps tasks off the eager path (tests/conftest.py ``eager_tasks``).
    """
    inbox, port = smtp
    redis_reachable()
    settings.SITE_URL = "https://corr.example.org"
    settings.NOTIFY_QUIET_SECONDS = quiet_seconds
    settings.CACHES = {**settings.CACHES, "presence": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "corr-presence"}}
    process = worker_start(
        Path("/nonexistent"), concurrency=2,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(port),
        SITE_URL="https://corr.example.org", SECRET_KEY=settings.SECRET_KEY,  # the links' tokens are read here
        NOTIFY_QUIET_SECONDS=str(quiet_seconds), NOTIFY_SWEEP_SECONDS="1")
    try:
        with real_broker():
            yield inbox
    finally:
        worker_stop(process)
