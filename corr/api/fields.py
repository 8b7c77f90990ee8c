"""Input fields of the API: dates are written YYYY-MM-DD, as in the game file, and nothing else."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from corr.clock import ClockError, parse_date


@extend_schema_field(OpenApiTypes.DATE)
class StrictDateField(serializers.Field):
    """A calendar date written exactly YYYY-MM-DD (no guessing between 01.02 and 02.01)."""

    default_error_messages = {"invalid": "must be a date written YYYY-MM-DD, got {value!r}"}

    def to_internal_value(self, data):
        try:
            return parse_date(data, self.field_name)
        except ClockError:
            self.fail("invalid", value=data)

    def to_representation(self, value):
        return value.isoformat()
