"""Input fields of the API: dates are written YYYY-MM-DD, as in the game file, and nothing else; a ruleset
has the game file's keys."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from corr import limits as lim
from corr.clock import ClockError, Ruleset, parse_date
from corr.clock.calendar import WEEKDAYS, MoveOnLeave
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


def ruleset_schema() -> dict:
    """The OpenAPI schema of a ``ruleset`` object: the game file's keys and no other (else a 400 naming the key).

    Its numbers within :data:`corr.limits.RULESET_RANGES`; ``time_control`` is the
    game file's object (docs/time_controls.md), checked by the calculator.
    """
    date = {"type": "string", "format": "date"}
    numbers = {name: {"type": "integer", "minimum": low, "maximum": high}
               for name, (low, high) in lim.RULESET_RANGES.items()}
    other = {
        "time_control": {"type": "object", "nullable": True, "additionalProperties": {},
                         "description": "another system of time control (Fischer, byo-yomi ...), as in the game file"},
        "holidays": {"type": "array", "nullable": True, "maxItems": lim.TIME_CONTROL_ITEMS_MAX,
                     "items": {"type": "object", "properties": {"from": date, "to": date}, "required": ["from", "to"],
                               "additionalProperties": False},
                     "description": "dates that count for neither player, both ends included"},
        "weekend_days": {"type": "array", "nullable": True, "uniqueItems": True,
                         "items": {"type": "string", "enum": list(WEEKDAYS)},
                         "description": "weekdays that count for neither player"},
        "move_on_leave": {"type": "string", "enum": [m.value for m in MoveOnLeave],
                          "description": "what a move sent on one of the player's own leave days does"},
    }
    if set(numbers) != set(Ruleset.field_names()):  # a number of the calculator without its bounds here
        raise AssertionError(f"ruleset numbers {sorted(numbers)} differ from {sorted(Ruleset.field_names())}")
    return {"type": "object", "properties": {**numbers, **other}, "additionalProperties": False}


@extend_schema_field(ruleset_schema())
class RulesetField(serializers.DictField):
    """A ``ruleset`` object as the game file writes it; its keys and values are checked where it is read."""
