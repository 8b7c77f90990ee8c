"""JSON rendering with orjson: a game's clock carries a ledger line per event, so rendering is a hot path."""

from rest_framework.renderers import JSONRenderer

from corr.jsonbytes import json_bytes


class OrjsonRenderer(JSONRenderer):
    """Same media type and output as DRF's JSON renderer, about ten times faster on large bodies."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        return json_bytes(data)
