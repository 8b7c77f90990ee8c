"""Request body parsers: JSON whose nesting is bounded (``corr.limits.JSON_DEPTH_MAX``)."""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from corr.limits import JSON_DEPTH_MAX

TOO_DEEP = f"JSON body nested deeper than {JSON_DEPTH_MAX} levels"


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser refusing bodies nested deeper than ``JSON_DEPTH_MAX`` (400, not a 500).

    A body nested thousands deep exhausts the decoder's recursion before any
    view runs, and anonymous clients can send one to ``/api/auth/token/``.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
        if json_depth(data) > JSON_DEPTH_MAX:
            raise ParseError(TOO_DEEP)
        return data


def json_depth(data) -> int:
    """How deeply arrays and objects nest in ``data`` (a scalar is 0, ``[]`` is 1); iterative, no recursion."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > JSON_DEPTH_MAX:
            return deepest  # deep enough to refuse: no need to walk the rest
        stack.extend((child, depth + 1) for child in children)
    return deepest
