"""The outbox moved to ``corr.outbox``, below the nightly job; these names stay importable from here."""

from corr.outbox import EmailDraft, email_prepare, emails_store  # noqa: F401
