"""Live sockets follow the session (issue 38): a logout, a password change or a reset closes them.

A socket is signed in by the session cookie of its handshake (``corr.live.socketauth``), and that session can
end while the socket stays open. Two guards, the second enough alone:

- **Told**: each admitted socket joins the Channels group of its user, ``user-<id>``. On Django's
  ``user_logged_out`` the sockets of the session that signed out close; on
  :data:`accounts.signals.password_changed` every socket of the user checks its own session and closes
  when it no longer signs anyone in. Sent after the commit (``transaction.on_commit``), as the pushes are.
- **Checked**: each message a socket acts on first checks its session as Django's ``get_user`` checks a
  request's (:func:`session_signs_in`): the session still exists, is unexpired, names this user, and its
  auth hash still matches the user's password. A message on a session that fails is refused
  (a move gets the HTTP endpoint's 401 body) and the socket closed with 4401, as at the handshake.

A lost message (Redis down) thus costs nothing but the close's promptness: the next move is refused anyway.
"""

from __future__ import annotations

import logging
from importlib import import_module
from types import SimpleNamespace

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

from accounts.signals import password_changed
from corr.handoff import handoff, run_async

logger = logging.getLogger(__name__)

GROUP_PREFIX = "user-"
MESSAGE_TYPE = "session.ended"


def user_group(user_id: int) -> str:
    """The Channels group of user ``user_id``'s open live sockets: ``user-<id>``."""
    return f"{GROUP_PREFIX}{int(user_id)}"


def ended_message(session_key: str | None) -> dict:
    """The group message: the session ``session_key`` ended; None: every session must be checked again."""
    return {"type": MESSAGE_TYPE, "session_key": session_key}


def session_signs_in(*, session_key: str | None, user_id: int) -> bool:
    """True when session ``session_key`` still signs in user ``user_id``, checked as Django's ``get_user``
    checks a request's: it exists and is unexpired, names the user through a backend still configured, and
    its auth hash matches the user's current password (``SECRET_KEY_FALLBACKS`` included). A session whose
    hash no longer matches is flushed, as Django flushes it on the next request."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(SimpleNamespace(session=store))
    return user.is_authenticated and user.pk == user_id


def sessions_ended(*, user_id: int, session_key: str | None = None) -> None:
    """Tell user ``user_id``'s open sockets that session ``session_key`` ended (None: check yours); never raises.

    Through channels-redis the send goes on the handoff thread (:mod:`corr.handoff`), so no logout waits on
    Redis; the embedded run's in-memory layer is sent to inline, as :func:`corr.live.push.game_changed` does.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    group, message = user_group(user_id), ended_message(session_key)
    if isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # noqa: BLE001 - the session has ended anyway; each socket's next message is refused
            logger.exception("session end of user %s not sent to its sockets", user_id)
        return
    handoff(f"session end of user {user_id}", lambda: run_async(lambda: layer.group_send(group, message)))


@receiver(user_logged_out, dispatch_uid="corr.live.sessions.logged_out")
def _logged_out(sender, request, user, **kwargs) -> None:
    # Sent by django.contrib.auth.logout before it flushes the session: the key is read now, and the
    # sockets close on the key rather than by checking a session that is not yet gone.
    if user is None or request is None:
        return
    key = request.session.session_key
    transaction.on_commit(lambda: sessions_ended(user_id=user.pk, session_key=key))


@receiver(password_changed, dispatch_uid="corr.live.sessions.password_changed")
def _password_changed(sender, user, **kwargs) -> None:
    # Every session of the user now fails the hash check, but the one Django's update_session_auth_hash
    # re-signs (with a new key: the sockets of the old key close too).
    transaction.on_commit(lambda: sessions_ended(user_id=user.pk))
