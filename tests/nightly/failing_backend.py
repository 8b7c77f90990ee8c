"""An e-mail backend that refuses every message, as an SMTP server that is down would."""

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise ConnectionRefusedError("SMTP server refused the connection")
