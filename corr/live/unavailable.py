"""A WebSocket opened while the database is gone is closed with 1013, "try again later" (issue 42).

Opening the live socket reads the database twice before anything is sent: the session that signs the user in
(Channels' ``AuthMiddleware`` on the sockets' pool, :mod:`corr.live.socketauth`, before any consumer runs), then who
may watch the game with the game's state (one read: :func:`corr.live.consumers.admitted_payload`). With
PostgreSQL down each of these raises after ``DB_POOL_TIMEOUT`` (1 s); uncaught, daphne answered the handshake with
HTTP 500 and a traceback (or, past the accept, closed with 1011, "internal error"), which a client reads as a bug of
the server. :class:`ClosedWhileDatabaseDown` wraps the whole socket application instead: a database error that
escapes it accepts the socket if it was not yet and closes it with :data:`CLOSE_TRY_AGAIN_LATER`, with a warning in
the log and no traceback (daphne sends 1013: :mod:`corr.closecodes`). The live page then reconnects with its
backoff (``corr/static/corr/live.js``) and gets
the state once the database is back. A move sent on an open socket is answered 503 by the socket itself
(:mod:`corr.api.live_socket`) and the socket stays open.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError

CLOSE_TRY_AGAIN_LATER = 1013
"""RFC 6455's registry: "the server is terminating the connection due to a temporary condition"."""

logger = logging.getLogger(__name__)


class ClosedWhileDatabaseDown:
    """ASGI middleware for ``websocket`` scopes: a database error from ``inner`` closes the socket with 1013."""

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        sent = {"accepted": False, "closed": False}

        async def send_seen(message):
            if message["type"] == "websocket.accept":
                sent["accepted"] = True
            elif message["type"] == "websocket.close":
                sent["closed"] = True
            await send(message)

        try:
            return await self.inner(scope, receive, send_seen)
        except (OperationalError, InterfaceError) as error:
            # Not a bug of the server: the database is down or unreachable (a 503 over HTTP).
            first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
            logger.warning("socket %s closed with %s: the database is unavailable (%s)", scope.get("path"),
                           CLOSE_TRY_AGAIN_LATER, first_line)
            if sent["closed"]:
                return None
            if not sent["accepted"]:
                # Accepted first: a handshake refused is HTTP 403 to a browser, with no code to read.
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
            return None

