"""The live page's WebSocket: the current live payload on connecting, then every push.

Who may connect is who may read the game (``GET /api/games/{id}/`` and the game page): its players
and the arbiters of its tournament. Everyone else gets the socket accepted and closed at once with a
code that says why, so the page stops reconnecting and can say it:

- 4401: not signed in (or the session expired); also sent later, to a socket whose session ended since it
  was opened (a logout, a password change or reset: :mod:`corr.live.sessions`);
- 4403: signed in, but neither a player of the game nor an arbiter of its tournament;
- 4404: no such game, a game without a live clock (correspondence: no socket to watch), or a path
  that is no socket of the site.

Every payload sent carries ``termination_text`` beside the API's fields: how the game ended in the language
of the page that opened the socket (its language cookie, else its ``Accept-Language``, as Django's
``LocaleMiddleware`` chooses for the page itself), worded for each socket (``corr.web.records.with_termination_text``).

The browser may send ``{"type": "refresh"}`` to get the current payload again (after its local countdown
reached zero, or to re-measure the clock offset); at most one a second is answered. Other messages are
for subclasses (:meth:`LiveGameConsumer.receive_message`): moves are taken by the API's socket
(:mod:`corr.api.live_socket`), which :mod:`corr.routing` serves on this path. The database work runs on
the bounded pool of :mod:`corr.dbthreads`.
"""

from __future__ import annotations

import time

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from corr.dbthreads import in_db_thread
from corr.limits import ID_MAX

from .push import group_name
from .sessions import session_signs_in, user_group

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NO_GAME = 4404
REFRESH_INTERVAL_S = 1.0


def _game(game_id: int):
    from corr.games.selectors import game_get
    from corr.models import Game

    try:
        return game_get(game_id=game_id)
    except Game.DoesNotExist:
        return None


@in_db_thread
def admission(user, game_id: int) -> int | None:
    """None when ``user`` may watch game ``game_id``, else the close code that says why not."""
    from corr.games.permissions import can_view

    from corr.models import Mode

    if user is None or not user.is_authenticated:
        return CLOSE_UNAUTHENTICATED
    game = _game(game_id)
    if game is None:
        return CLOSE_NO_GAME
    if not can_view(user, game):
        return CLOSE_FORBIDDEN
    # Told after the permission, so a stranger learns nothing of a game's mode; a correspondence
    # game has no live payload to send (it was close 1011, an error of the consumer).
    return None if game.mode == Mode.LIVE else CLOSE_NO_GAME


def socket_language(scope) -> str:
    """The language of the page that opened the socket, chosen as Django's ``LocaleMiddleware`` chose the
    page's (``get_language_from_request``: its language cookie, else its ``Accept-Language``, else
    ``LANGUAGE_CODE``), from the handshake's cookies and headers."""
    from types import SimpleNamespace

    from django.utils.translation import get_language_from_request

    accept = next((value.decode("latin-1") for name, value in scope.get("headers", ())
                   if name == b"accept-language"), "")
    handshake = SimpleNamespace(COOKIES=scope.get("cookies", {}), META={"HTTP_ACCEPT_LANGUAGE": accept})
    return get_language_from_request(handshake)


def worded(payload: dict, language: str) -> dict:
    """``payload`` with its ``termination_text`` in ``language`` (pure: no database)."""
    from django.utils import translation

    from corr.web.records import with_termination_text

    with translation.override(language):
        return with_termination_text(payload)


def session_key_of(scope) -> str | None:
    """The key of the session that signed the socket in (its handshake's cookie), or None."""
    session = scope.get("session")
    return None if session is None else session.session_key


@in_db_thread
def current_payload(game_id: int) -> dict | None:
    from .state import live_payload_of

    return live_payload_of(game_id)  # the game, its live row and events in one round trip (issue 42)


class LiveGameConsumer(AsyncJsonWebsocketConsumer):
    """One browser watching one live game (group ``live-game-<id>``)."""

    group: str | None = None
    sessions_group: str | None = None
    session_gone = False
    """Set when this socket is told its session ended: every later message is refused without a read."""
    last_refresh = 0.0

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.language = socket_language(self.scope)
        # A path's integer may exceed any primary key (a bigint): no such game, asked of no database.
        refused = CLOSE_NO_GAME if self.game_id > ID_MAX else await admission(self.scope.get("user"), self.game_id)
        await self.accept()
        if refused is not None:
            await self.close(code=refused)
            return
        # Join before reading the state: a push committed in between is then received, not lost
        # (the page keeps the payload with the highest version).
        self.group = group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # The user's group: told when a session of theirs ends (corr.live.sessions).
        self.user_id = self.scope["user"].pk
        self.session_key = session_key_of(self.scope)
        self.sessions_group = user_group(self.user_id)
        await self.channel_layer.group_add(self.sessions_group, self.channel_name)
        await self.send_current()

    async def disconnect(self, code):
        for group in (self.group, self.sessions_group):
            if group is not None:
                await self.channel_layer.group_discard(group, self.channel_name)

    @classmethod
    async def decode_json(cls, text_data):
        """The browser's message, or None when it is not JSON (ignored rather than closing the socket)."""
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None

    async def receive_json(self, content, **kwargs):
        if self.group is None or not isinstance(content, dict):
            return
        if content.get("type") != "refresh":
            await self.receive_message(content)
            return
        now = time.monotonic()
        if now - self.last_refresh < REFRESH_INTERVAL_S:
            return
        self.last_refresh = now
        if not await self.session_current():
            self.session_gone = True
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        await self.send_current()

    async def receive_message(self, content: dict) -> None:
        """A message other than ``refresh`` from a socket that was admitted: ignored here."""

    async def session_current(self) -> bool:
        """True while the session that opened this socket still signs its user in (checked in the database)."""
        return await in_db_thread(session_signs_in)(session_key=self.session_key, user_id=self.user_id)

    async def session_ended(self, message):
        """A session of this socket's user ended (:func:`corr.live.sessions.sessions_ended`): closed with 4401
        when it is this socket's, or, for a password change (no key), when its own session no longer signs in."""
        ended = message.get("session_key")
        if ended is None:
            if await self.session_current():
                return
        elif ended != self.session_key:
            return
        self.session_gone = True
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def send_current(self):
        payload = await current_payload(self.game_id)
        if payload is None:  # deleted since
            await self.close(code=CLOSE_NO_GAME)
            return
        await self.send_json(worded(payload, self.language))

    async def live_update(self, message):
        """A push of :func:`corr.live.push.game_changed`: forwarded with its termination in this page's words."""
        await self.send_json(worded(message["payload"], self.language))


class NoSuchSocketConsumer(AsyncJsonWebsocketConsumer):
    """Any path that is no socket of the site: accepted and closed at once with 4404, as no such game."""

    async def connect(self):
        await self.accept()
        await self.close(code=CLOSE_NO_GAME)
