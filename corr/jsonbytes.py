"""The API's JSON as bytes: one writer for the renderer and for answers kept rendered (a cached clock)."""

from __future__ import annotations

import orjson
from rest_framework.utils.encoders import JSONEncoder

_fallback = JSONEncoder()


def json_bytes(data) -> bytes:
    """``data`` as the API writes it: compact, keys in insertion order, non-string keys as strings.

    Values orjson does not know (lazy translations, Decimals, ...) are written
    as DRF's encoder writes them. ``corr.api.renderers.OrjsonRenderer`` renders
    with this very function: bytes kept from it are the renderer's to the byte.
    """
    return orjson.dumps(data, default=_fallback.default, option=orjson.OPT_NON_STR_KEYS)


def json_object_join(first: bytes, second: bytes) -> bytes:
    """Two JSON objects of ``json_bytes`` as one: ``first``'s members, then ``second``'s.

    ``json_bytes(a | b)`` to the byte when ``a`` and ``b`` share no key (the
    caller's to ensure: a key in both would be written twice, not overridden).
    Neither is parsed: joining costs a copy, whatever ``second``'s size.
    """
    if first == b"{}":
        return second
    if second == b"{}":
        return first
    return b"".join((first[:-1], b",", second[1:]))
