"""The OpenAPI schema's error answers, added to every operation in one place.

Every error body of the API is ``{"detail", "field"?, "errors"?}`` (see
:mod:`corr.api.errors`); each operation documents the statuses it can give:

- 400 when it reads a body or query parameters (the field at fault named);
- 401 and 403 unless anyone may call it;
- 404 when its path names an object;
- 409 for a POST on an object (a move out of turn, a decided case);
- 429 when it is throttled (the sign-in);
- 503 everywhere: the database is unreachable (with ``Retry-After``).

A request body that refuses the keys it does not declare (``StrictInput``) says
so: ``additionalProperties: false``.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from .serializers import StrictInput


class ErrorOut(serializers.Serializer):
    detail = serializers.CharField(help_text="one sentence a person can act on")
    field = serializers.CharField(required=False, allow_null=True,
                                  help_text="the input at fault, when one is (null: the body as a whole)")
    errors = serializers.DictField(required=False, help_text="DRF's per-field messages, for invalid input")


ERROR_DESCRIPTIONS = {
    "400": "invalid input: `field` names it, nothing was stored",
    "401": "not signed in, or the token is unknown or expired",
    "403": "signed in but not allowed",
    "404": "no such object",
    "409": "the game or case moved on (a move out of turn or with the wrong number)",
    "429": "too many requests or failed sign-ins; see `Retry-After`",
    "503": "the database is unavailable; see `Retry-After`",
}


class AutoSchema(BaseAutoSchema):
    """drf-spectacular's schema with the error answers each operation can give."""

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, StrictInput):
            schema["additionalProperties"] = False  # an undeclared key is a 400 naming it
        return schema

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code in self._error_codes():
            if code not in responses:
                responses[code] = self._get_response_for_code(ErrorOut, code, direction=direction)
                responses[code]["description"] = ERROR_DESCRIPTIONS[code]
        return responses

    def _error_codes(self) -> list[str]:
        codes = []
        has_path_object = "{" in self.path
        query = [p for p in self._get_parameters() if p["in"] == "query"]
        if self.method in ("POST", "PUT", "PATCH") or query:
            codes.append("400")
        if not any(issubclass(p, AllowAny) for p in self.view.permission_classes):
            codes += ["401", "403"]
        if has_path_object:
            codes.append("404")
        if self.method == "POST" and has_path_object:
            codes.append("409")
        if self.view.throttle_classes:
            codes.append("429")
        codes.append("503")
        return codes
