"""The set-based SQL helpers, now ``corr.sql`` (below both the nightly job and the outbox); kept for old imports."""

from corr.sql import BATCH_ROWS, PG_BATCH_ROWS, bound_cursor, ids_in, insert_new  # noqa: F401
