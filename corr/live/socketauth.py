"""Who opened a socket (its handshake's session cookie), read on the sockets' own threads (issue 42).

Channels' ``AuthMiddlewareStack`` reads the session and its user with ``database_sync_to_async``, whose calls are
thread-sensitive: every socket of the process waits in line for the one thread that runs them all. Under the
1,000-game bench, 2,000 sockets opening at once each waited there for two statements (the session, then the user)
and then for the admission's: connecting took 5-6 times the echo floor's. :func:`SocketAuthStack` is that stack
with the same reading (Channels' ``get_user``: the session's user, its session hash verified) run on the bounded
pool of :mod:`corr.dbthreads`, beside the sockets' other database work.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware

from corr.dbthreads import in_db_thread

_user_of = in_db_thread(get_user.func)
"""Channels' ``get_user`` itself (the function its decorator wraps), on the sockets' pool."""


class PooledAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware``, its user read on :mod:`corr.dbthreads`'s pool rather than the one sync thread."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await _user_of(scope)


def SocketAuthStack(inner):  # noqa: N802 - named as Channels' AuthMiddlewareStack, which it replaces
    """Channels' ``AuthMiddlewareStack`` with :class:`PooledAuthMiddleware`: cookies, the session, then the user."""
    return CookieMiddleware(SessionMiddleware(PooledAuthMiddleware(inner)))
