"""Moves sent over the live game's WebSocket (issue 27; lichess's clients send theirs so): the checks and the
answers of ``POST /api/games/{id}/moves/``.

A player's client sends, on the socket of ``ws/games/<id>/live/``::

    {"type": "move", "id": "m12", "number": 12, "notation": "Nf3", "lag_ms": 40}

``number``, ``notation`` and ``lag_ms`` are the HTTP body's fields, checked by the same serializer (no other
field); ``id`` (null, a whole number or a text of at most 64 characters:
:func:`corr.live.consumers.echoable_id`) is the client's, echoed so it can pair the answer with its message. ``move_id``
(optional, a text of 1 to 200 characters the client chooses once per move, a UUID: issue 42) is the socket's
``Idempotency-Key``: a message with a ``move_id`` already answered gets that first answer again, with
``"replayed": true``, and makes nothing, so a client that lost an answer (a reconnect, a 503) sends the same
move again safely; the same ``move_id`` with other fields (another move) is refused with 422, ``field``
``move_id``, and makes nothing. The answer comes on the same socket, only to the sender:

- ``{"type": "move", "id", "status": 201, "live": {...}}``: the move was recorded; ``live`` is the object of
  ``GET /api/games/{id}/`` as the move left it (what every watcher's push carries, computed once by the write);
- ``{"type": "move", "id", "status": 400 | 403 | 404 | 409, "detail", "field", ...}``: the error body the HTTP
  endpoint answers, in the socket's language (a 409 when the game moved on, as over HTTP);
- ``{"type": "move", "id", "status": 401, "detail"}``: the session that opened the socket has ended since (a
  logout, a password change or reset, told to the socket: :mod:`corr.live.sessions`); the body of the HTTP
  endpoint asked without credentials. Nothing is stored, and the socket is closed with 4401. The press itself
  reads no session (it stays two round trips, issue 27): the socket is told, and a refresh checks;
- ``{"type": "move", "id", "status": 503, "detail", "retry_after"}``: the database is down or unreachable; nothing
  was stored, try again (with the same ``move_id``) after ``retry_after`` seconds or sooner.

Every watcher, the sender too, then gets the push, as for a move made over HTTP; sent, once the move is committed
and answered, from this socket's own event loop rather than the process's handoff thread (issue 27: the push
as fast as the socket layer's). The database work runs on the socket's bounded thread pool
(:mod:`corr.dbthreads`), never on the event loop.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from corr.dbthreads import in_db_thread
from corr.games.selectors import game_get
from corr.live import services as live
from corr.live.consumers import CLOSE_UNAUTHENTICATED, LiveGameConsumer, echoable_id, id_rule
from corr.live.push import group_name, update_message
from corr.live.pushtext import payload_text, with_text, worded
from corr.live.state import live_payload
from corr.models import Game

from .errors import error_body
from .http_errors import DATABASE_RETRY_AFTER, unavailable_detail
from .idempotency import fingerprint, record, recorded
from .live_serializers import LiveMoveInput
from .serializers import validated

MESSAGE_TYPE = "move"
logger = logging.getLogger(__name__)


MOVE_ID_MAX = 200
"""The longest ``move_id``, in characters (the bound of an ``Idempotency-Key``: the same records keep both)."""


def socket_move(user, game_id: int, message: dict[str, Any], language: str) -> dict[str, Any]:
    """Make the move ``message`` asks for in game ``game_id`` as ``user``; the answer for the sender's socket.

    With a ``move_id``, the first answer to it is kept in the transaction of the move and a message with the
    same ``move_id`` gets that answer again (``"replayed": true``) and makes nothing: a move that committed
    while its answer was lost is never refused as a second one. With the database gone: 503 with
    ``retry_after`` (seconds), nothing stored.
    """
    answer: dict[str, Any] = {"type": MESSAGE_TYPE, "id": message.get("id")}
    move_id = message.get("move_id")
    fields = {name: value for name, value in message.items() if name not in ("type", "id", "move_id")}
    with translation.override(language):
        try:
            if move_id is None:
                return {**answer, **_move(user, game_id, fields)}
            if not isinstance(move_id, str) or not 0 < len(move_id) <= MOVE_ID_MAX:
                return {**answer, "status": 400, "field": "move_id",
                        "detail": _("move_id must be a text of 1 to %(max)s characters") % {"max": MOVE_ID_MAX}}
            return {**answer, **_move_once(user, game_id, fields, move_id)}
        except (OperationalError, InterfaceError):
            # The database is down or unreachable (DB_POOL_TIMEOUT, DB_CONNECT_TIMEOUT): the HTTP endpoint's 503.
            return {**answer, "status": 503, "detail": unavailable_detail(), "retry_after": DATABASE_RETRY_AFTER}


def _move_once(user, game_id: int, fields: dict[str, Any], move_id: str) -> dict[str, Any]:
    """:func:`_move` kept under ``move_id`` (:mod:`corr.api.idempotency`'s records, method ``WS``)."""
    where = {"user": user, "key": move_id, "method": "WS", "path": f"/ws/games/{game_id}/live/",
             "digest": fingerprint(fields)}  # the same move_id with another move: refused, 422
    try:
        with transaction.atomic():
            found = recorded(**where, name="move_id")
            if found is None:
                result = _move(user, game_id, fields)
                kept = {name: value for name, value in result.items() if name not in ("status", "push")}
                record(**where, status=result["status"], body=kept)
                return result
    except IntegrityError:  # the same move_id on two sockets at once: the other committed first
        found = recorded(**where, name="move_id")
        if found is None:
            raise
    status, body, replayed = found
    return {"status": status, **body, **({"replayed": True} if replayed else {})}


def _move(user, game_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """The move's status and body (``live``, or the error body of the HTTP endpoint), ``push`` when the caller
    pushes ``live``."""
    try:
        game = live.live_move(game_id=game_id, by=user, pushed_by_caller=True, **validated(LiveMoveInput, fields))
    except Game.DoesNotExist:
        from rest_framework.exceptions import NotFound

        status, body = error_body(NotFound(_("no game %(id)s") % {"id": game_id}))
        return {"status": status, **body}
    except Exception as refused:  # noqa: BLE001 - answered as the API answers it, or raised again
        known = error_body(refused)
        if known is None:
            raise
        status, body = known
        return {"status": status, **body}
    payload = getattr(game.live, "payload", None)
    if payload is None:  # the game ended before the press's instant: read as it stopped (and pushed by the service)
        return {"status": 201, "live": live_payload(game_get(game_id=game_id))}
    return {"status": 201, "live": payload, "push": True}


class LiveGameSocket(LiveGameConsumer):
    """The live page's socket (:class:`corr.live.consumers.LiveGameConsumer`) that also takes moves."""

    message_types = ("refresh", MESSAGE_TYPE)

    async def receive_message(self, content: dict) -> None:
        if not echoable_id(content.get("id")):  # never echoed whole (issue 42: a 1 MB id came back)
            await self.send_json({**self.refusal("id", id_rule), "type": MESSAGE_TYPE, "id": None})
            return
        if self.session_gone:  # told that its session ended (a logout, a new password): refused, nothing read
            from rest_framework.exceptions import NotAuthenticated

            with translation.override(self.language):
                status, body = error_body(NotAuthenticated())
            await self.send_json({"type": MESSAGE_TYPE, "id": content.get("id"), "status": status, **body})
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        answer = await in_db_thread(socket_move)(self.scope.get("user"), self.game_id, content, self.language)
        to_push = answer.pop("push", False) and answer["live"]
        if to_push and next(reversed(answer)) == "live":
            # The answer carries the push's own payload: worded and encoded once, for this answer and then for every
            # socket of this process and language the push reaches (corr.live.pushtext; issue 42).
            head = {name: value for name, value in answer.items() if name != "live"}
            await self.send(text_data=with_text(head, "live", payload_text(to_push, self.language)))
        else:
            if answer.get("status") == 201:
                answer["live"] = worded(answer["live"], self.language)
            await self.send_json(answer)
        if to_push:
            # The push of the committed move, from this socket's own event loop (what a bare Channels echo does):
            # not queued behind every other send of the process's handoff thread. A failure is logged; the
            # watchers' pages get the state on their next push or reconnection, as after any lost push.
            try:
                await self.channel_layer.group_send(group_name(self.game_id), update_message(to_push))
            except Exception:  # noqa: BLE001 - the move is stored and answered; only this push is lost
                logger.exception("live push of game %s not sent", self.game_id)
