"""A test-only e-mail backend: one file per message, each after a short sleep; deliveries counted by Message-ID.

Given to a real worker through ``EMAIL_BACKEND=tests.support.slow_mail.EmailBackend`` (and
``EMAIL_FILE_PATH``), so that a test can kill it in the middle of a batch and then count the
deliveries of each outbox row (``deliveries``). The sleep (``SLOW_MAIL_SECONDS``, default 0.1) stands
for an SMTP round trip: before the message is delivered, or after it (``SLOW_MAIL_AFTER=1``: the
server has the message and its answer is slow, the window in which a kill makes a duplicate). A
file is written under a temporary name and renamed, so a kill never leaves half a message to count.
"""

from __future__ import annotations

import os
import time
import uuid
from collections import Counter
from email import message_from_bytes
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend

SLEEP_SECONDS = float(os.environ.get("SLOW_MAIL_SECONDS", "0.1"))
SLEEP_AFTER = os.environ.get("SLOW_MAIL_AFTER") == "1"


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        directory = Path(settings.EMAIL_FILE_PATH)
        directory.mkdir(parents=True, exist_ok=True)
        for message in email_messages:
            if not SLEEP_AFTER:
                time.sleep(SLEEP_SECONDS)
            name = uuid.uuid4().hex
            partial = directory / f".{name}.part"
            partial.write_bytes(message.message().as_bytes())
            os.replace(partial, directory / f"{name}.eml")  # delivered whole, or not at all
            if SLEEP_AFTER:
                time.sleep(SLEEP_SECONDS)
        return len(email_messages)


def deliveries(directory: Path) -> Counter:
    """How many times each Message-ID was delivered into ``directory``."""
    return Counter(message_from_bytes(path.read_bytes())["Message-ID"] for path in directory.glob("*.eml"))
