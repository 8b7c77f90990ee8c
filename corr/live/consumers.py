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

import asyncio
import logging
import time
from collections.abc import Callable

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from corr.dbthreads import in_db_thread
from corr.limits import ID_MAX

from .frames import FrameRefused, frame_message
from .push import MESSAGE_TYPE, group_name
from .pushtext import payload_text, worded
from .sessions import session_signs_in, user_group

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NO_GAME = 4404
REFRESH_INTERVAL_S = 1.0
FIELD_ECHO_MAX_CHARS = 64
"""The most characters of a client's own text (a field's name, a move's ``id``) an answer echoes."""
logger = logging.getLogger(__name__)


def message_shape(types: tuple[str, ...]) -> str:
    """What a message on the live socket is (the error of a message that is not one), in the active language."""
    return _("a message on this socket is a JSON object whose type is one of: %(types)s") % {
        "types": ", ".join(types)}


def id_rule() -> str:
    """The rule of a message's ``id`` (echoed in its answer), in the active language."""
    return _("id is echoed in the answer: a string of at most %(max)s characters, a whole number or null") % {
        "max": FIELD_ECHO_MAX_CHARS}


def echoable_id(value) -> bool:
    """True when a message's ``id`` may be echoed: null, a whole number of JSON's safe range, or a short string."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) <= 2**53
    return value is None or (isinstance(value, str) and len(value) <= FIELD_ECHO_MAX_CHARS)


def unknown_field(key: str, fields: tuple[str, ...]) -> str:
    """The error of an unknown field, worded as the API's (``StrictInput``), the name cut to its echo bound."""
    return _("%(key)s is not a field of this request (fields: %(fields)s)") % {
        "key": repr(key[:FIELD_ECHO_MAX_CHARS]), "fields": ", ".join(fields)}


@in_db_thread
def admitted_payload(user, game_id: int) -> tuple[int | None, dict | None]:
    """``(None, the game's live payload)`` when ``user`` (signed in) may watch game ``game_id``, else ``(the close
    code that says why not, None)``: the game, its live row and its window read in one round trip
    (:func:`corr.live.state.live_state`), who may watch asked of that game, the payload computed from that read."""
    from corr.games.permissions import can_view
    from corr.models import Game, Mode

    from .state import live_payload_read, live_state

    try:
        game, live, rows = live_state(game_id)
    except Game.DoesNotExist:
        return CLOSE_NO_GAME, None
    if not can_view(user, game):
        return CLOSE_FORBIDDEN, None
    # Told after the permission, so a stranger learns nothing of a game's mode; a correspondence
    # game has no live payload to send (it was close 1011, an error of the consumer).
    if game.mode != Mode.LIVE or live is None:
        return CLOSE_NO_GAME, None
    return None, live_payload_read(game, live, rows)


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


def session_key_of(scope) -> str | None:
    """The key of the session that signed the socket in (its handshake's cookie), or None."""
    session = scope.get("session")
    return None if session is None else session.session_key


@in_db_thread
def current_payload(game_id: int) -> dict | None:
    from .state import live_payload_of

    return live_payload_of(game_id)  # the game, its live row and events in one round trip (issue 42)


class PooledSocket(AsyncJsonWebsocketConsumer):
    """A socket consumer whose database work all runs on :mod:`corr.dbthreads`'s pool, which closes the connections
    too old before and after each call: Channels' dispatch without its ``aclose_old_connections``.

    Channels (4.2 on) awaits ``aclose_old_connections()`` before handling every message of every consumer: a call
    on the process's one thread-sensitive sync thread, to close that thread's connections. This socket holds no
    connection there (its reads, the session's included, are on the pool: :mod:`corr.live.socketauth`), so the call
    closed nothing, yet every push to every socket and every frame received waited in line for that one thread:
    under the 300-game bench it was a fifth of the event loop's busy samples (py-spy; issue 42)."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class LiveGameConsumer(PooledSocket):
    """One browser watching one live game (group ``live-game-<id>``)."""

    message_types: tuple[str, ...] = ("refresh",)
    """The ``type`` of every message this socket takes; any other is answered with an error naming ``type``."""
    game_id: int | None = None
    group: str | None = None
    sessions_group: str | None = None
    admitted = False
    """Set once this socket may watch its game and was sent its state: it takes messages and forwards pushes."""
    session_gone = False
    """Set when this socket is told its session ended: every later message is refused without a read."""
    last_refresh = 0.0

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.language = socket_language(self.scope)
        user = self.scope.get("user")
        await self.accept()
        # A path's integer may exceed any primary key (a bigint): no such game, asked of no database.
        if self.game_id > ID_MAX:
            await self.close(code=CLOSE_NO_GAME)
            return
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        # Join before reading the state: a push committed in between is then received, not lost (the page keeps
        # the payload with the highest version). Joined before the admission too, so that who may watch and the
        # state are one read (issue 42: connecting waited for two); a socket refused leaves before it is sent any
        # push (this socket's messages are handled after connect returns, and only an admitted one forwards them).
        # The user's group: told when a session of theirs ends (corr.live.sessions).
        self.user_id = user.pk
        self.session_key = session_key_of(self.scope)
        self.group, self.sessions_group = group_name(self.game_id), user_group(self.user_id)
        await asyncio.gather(self.channel_layer.group_add(self.group, self.channel_name),
                             self.channel_layer.group_add(self.sessions_group, self.channel_name))
        try:
            refused, payload = await admitted_payload(user, self.game_id)
        except BaseException:  # the database is down (closed with 1013 by corr.live.unavailable): not a member
            await self.leave_groups()
            raise
        if refused is not None:
            await self.leave_groups()
            await self.close(code=refused)
            return
        self.admitted = True
        await self.send_json(worded(payload, self.language))
        if hasattr(self.channel_layer, "direct_add"):
            # From now on a push made in this process is sent to this socket by its sender, not queued for this
            # consumer's dispatch (issue 42); the pushes queued while connecting are dispatched after, as before, so
            # none is lost (an older one arriving after a newer is ignored by the page: it keeps the highest version).
            self.channel_layer.direct_add(self.channel_name, {MESSAGE_TYPE: self.live_update})

    async def disconnect(self, code):
        await self.leave_groups()

    async def leave_groups(self) -> None:
        """Leave the game's and the user's groups, if joined."""
        groups, self.group, self.sessions_group = (self.group, self.sessions_group), None, None
        if hasattr(self.channel_layer, "direct_discard"):
            self.channel_layer.direct_discard(self.channel_name)
        for group in groups:
            if group is not None:
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """A frame from the browser: refused with its close code when it cannot be a message
        (:func:`corr.live.frames.frame_message`: binary 1003, too big 1009, not JSON 1007), else read."""
        try:
            content = frame_message(text_data, bytes_data, max_bytes=settings.LIVE_SOCKET_MESSAGE_MAX_BYTES)
        except FrameRefused as refused:
            logger.info("live socket of game %s closed with %s: %s", self.game_id, refused.code, refused)
            await self.close(code=refused.code)
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        if not self.admitted:
            return
        if not isinstance(content, dict) or content.get("type") not in self.message_types:
            await self.send_json(self.refusal("type", lambda: message_shape(self.message_types)))
            return
        if content["type"] != "refresh":
            await self.receive_message(content)
            return
        unknown = next((key for key in content if key != "type"), None)
        if unknown is not None:
            await self.send_json(self.refusal(unknown, lambda: unknown_field(unknown, ("type",))))
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
        """A message of a type of :attr:`message_types` other than ``refresh``, from a socket that was admitted."""

    def refusal(self, field: str, wording: Callable[[], str]) -> dict:
        """The answer to a message this socket does not take: ``{"type": "error", "status": 400, "detail",
        "field"}``, ``detail`` worded in the socket's language (``field`` cut to ``FIELD_ECHO_MAX_CHARS``)."""
        with translation.override(self.language):
            return {"type": "error", "status": 400, "detail": wording(), "field": field[:FIELD_ECHO_MAX_CHARS]}

    async def layer_restored(self, message):
        """The channel layer is back after an outage (:mod:`corr.live.layer`): the pushes this socket may have
        missed are replaced by the current state, after the session is checked as a refresh checks it."""
        if not self.admitted or self.session_gone:
            return
        if not await self.session_current():
            self.session_gone = True
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        await self.send_current()

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
        """A push of :func:`corr.live.push.game_changed`: forwarded with its termination in this page's words, the
        text encoded once for every socket of this process and language (:mod:`corr.live.pushtext`)."""
        if self.admitted:
            await self.send(text_data=payload_text(message["payload"], self.language))


class NoSuchSocketConsumer(PooledSocket):
    """Any path that is no socket of the site: accepted and closed at once with 4404, as no such game."""

    async def connect(self):
        await self.accept()
        await self.close(code=CLOSE_NO_GAME)
