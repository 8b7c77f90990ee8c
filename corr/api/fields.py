"""Input fields of the API: dates are written YYYY-MM-DD, as in the game file, and nothing else."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from corr.clock import ClockError, parse_date
from corr.limits import date_window_error


@extend_schema_field(OpenApiTypes.DATE)
class StrictDateField(serializers.Field):
    """A calendar date written exactly YYYY-MM-DD (no guessing between 01.02 and 02.01).

    Within the calendar window of :mod:`corr.limits` (1900-01-01..2199-12-31).
    """

    default_error_messages = {"invalid": _("must be a date written YYYY-MM-DD, got {value!r}")}

    def to_internal_value(self, data):
        try:
            value = parse_date(data, self.field_name)
        except ClockError:
            self.fail("invalid", value=data)
        error = date_window_error(value, self.field_name)
        if error is not None:
            raise serializers.ValidationError(error, code="out_of_window")
        return value

    def to_representation(self, value):
        return value.isoformat()
