"""What serves this process's requests, told before the settings load (they depend on it).

``ASGI`` is set by ``corr/asgi.py`` (daphne, uvicorn) and by ``manage.py runserver`` (daphne's, which
loads the settings before it imports ``corr.asgi``); WSGI servers, workers and commands leave it False.
``WEB`` is set by those and by ``corr/wsgi.py`` (gunicorn): workers and commands leave it False.
A module rather than an environment variable, so that a process started by this one does not inherit it.
"""

ASGI = False
"""True when an ASGI server runs this process: each request's sync code then runs in a thread of its own."""

WEB = False
"""True when this process answers web requests (WSGI or ASGI): its statements and lock waits are bounded
(``DB_STATEMENT_TIMEOUT_MS``, ``DB_LOCK_TIMEOUT_MS``), a batch's are not."""
