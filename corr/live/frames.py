"""What a frame from a browser may be on the live socket, checked before anything reads it (issue 42).

A frame that cannot be a message closes the socket with the code of RFC 6455 7.4.1 that says why; nothing of it is
echoed and nothing is logged beyond a line (a binary frame and a frame nested 100,000 deep closed it with 1011 and
a traceback):

- a binary frame: 1003 (:data:`CLOSE_UNSUPPORTED`, "a type of data it cannot accept"), the socket speaks JSON text;
- a text frame longer than ``LIVE_SOCKET_MESSAGE_MAX_BYTES`` in UTF-8 (4096: a move is under 100): 1009
  (:data:`CLOSE_TOO_BIG`);
- text that is no JSON, JSON with ``NaN`` or ``Infinity`` (which no JSON parser of a browser writes, and which the
  answers would have echoed as invalid JSON), or arrays and objects nested deeper than
  ``corr.limits.JSON_DEPTH_MAX`` (the API's bound): 1007 (:data:`CLOSE_INVALID`, "data not consistent with the
  type of the message"). Text that is not UTF-8 never reaches the consumer: the server closes it with 1007.

Pure: no Django model, no database; the bound is read from the settings by the caller.
"""

from __future__ import annotations

import json

from corr.limits import JSON_DEPTH_MAX

CLOSE_UNSUPPORTED = 1003
CLOSE_INVALID = 1007
CLOSE_TOO_BIG = 1009


class FrameRefused(Exception):
    """The frame cannot be a message; ``code`` is the close code that says why."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code = code


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _too_deep(text: str) -> bool:
    """True when arrays and objects nest deeper than ``JSON_DEPTH_MAX`` in ``text`` (brackets in strings skipped).

    Counted on the text, before the parser recurses into it (Python's would raise RecursionError at about 1000).
    """
    if text.count("[") + text.count("{") <= JSON_DEPTH_MAX:
        return False  # the common case, counted in C: not enough brackets to nest that deep
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > JSON_DEPTH_MAX:
                return True
        elif char in "]}":
            depth -= 1
    return False


def frame_message(text_data: str | None, bytes_data: bytes | None, *, max_bytes: int):
    """The JSON value a frame carries.

    :raises FrameRefused: binary (1003), longer than ``max_bytes`` in UTF-8 (1009), not JSON, ``NaN`` or
        ``Infinity``, or nested deeper than ``JSON_DEPTH_MAX`` (1007).
    """
    if text_data is None:
        raise FrameRefused(CLOSE_UNSUPPORTED, f"a binary frame of {len(bytes_data or b'')} bytes")
    # Characters first: a frame of more characters than bytes allowed is too big whatever it holds.
    if len(text_data) > max_bytes or len(text_data.encode("utf-8", "surrogatepass")) > max_bytes:
        raise FrameRefused(CLOSE_TOO_BIG, f"a text frame of more than {max_bytes} bytes")
    if _too_deep(text_data):
        raise FrameRefused(CLOSE_INVALID, f"JSON nested deeper than {JSON_DEPTH_MAX}")
    try:
        return json.loads(text_data, parse_constant=_no_constant)
    except ValueError as error:
        raise FrameRefused(CLOSE_INVALID, f"not JSON: {str(error)[:80]}") from None
