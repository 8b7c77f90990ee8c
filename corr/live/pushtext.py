"""A live payload as the sockets receive it: worded in a language and encoded as JSON text once per push.

Issue 42: under the 1,000-game bench, every socket worded (``termination_text``) and JSON-encoded every push for
itself, though every socket of one language is sent the same text: a press was worded and encoded three times in
the process that took it (the sender's answer, then the push to each of the game's two sockets). The channel layer
hands one push's payload to every socket of this process as the same object (:mod:`corr.live.layer`: a shallow
copy of the message per socket, the message read from Redis once per process), so the text is kept by the
payload's identity and language: the first socket of a language encodes it, the others send that text.

The text is byte for byte what the consumer's ``send_json`` sent (``json.dumps`` with its default separators), so
the pages receive exactly what they did.
"""

from __future__ import annotations

import json
from collections import OrderedDict

TEXTS_KEPT = 256
"""The most (payload, language) texts kept: a push reaches every socket of the process within a few loop turns,
so a few hundred outlive it at thousands of presses a second; a socket later than that encodes it again."""

_texts: OrderedDict[tuple[int, str], tuple[dict, str]] = OrderedDict()
"""(id of the payload, language) -> (the payload itself, its text). The payload is kept with its text, so its id
cannot be reused by another object while the entry lives."""


def worded(payload: dict, language: str) -> dict:
    """``payload`` with its ``termination_text`` in ``language`` (pure: no database)."""
    from django.utils import translation

    from corr.web.records import with_termination_text

    with translation.override(language):
        return with_termination_text(payload)


def encoded(value: dict) -> str:
    """``value`` as JSON text, as Channels' ``AsyncJsonWebsocketConsumer.encode_json`` encodes it."""
    return json.dumps(value)


def payload_text(payload: dict, language: str) -> str:
    """The JSON text of ``payload`` worded in ``language``: computed once per payload object and language.

    ``payload`` must not be changed after it is first given (a push's payload never is: every push carries a
    payload of its own, made by the write that pushed it)."""
    key = (id(payload), language)
    kept = _texts.get(key)
    if kept is not None and kept[0] is payload:
        return kept[1]
    text = encoded(worded(payload, language))
    _texts[key] = (payload, text)
    if len(_texts) > TEXTS_KEPT:
        _texts.popitem(last=False)
    return text


def with_text(head: dict, name: str, text: str) -> str:
    """The JSON text of ``{**head, name: <the value whose JSON text is text>}``, ``name`` last: byte for byte
    ``json.dumps`` of that dictionary, without decoding and encoding ``text`` again."""
    if not head:
        return "{" + json.dumps(name) + ": " + text + "}"
    return encoded(head)[:-1] + ", " + json.dumps(name) + ": " + text + "}"
