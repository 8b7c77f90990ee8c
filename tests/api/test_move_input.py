"""The move's plain-body reading gives exactly what ``MoveInput`` gives, and leaves every other body to it."""

from __future__ import annotations

import pytest

from corr import limits as lim
from corr.api.move_input import ledger_wanted, move_input, plain_move
from corr.api.serializers import MoveInput
from rest_framework.exceptions import ValidationError

PLAIN = [
    {"number": 1, "notation": "e4"},
    {"number": 12},
    {"number": lim.MOVES_MAX, "notation": "Nf3"},
    {"number": 3, "notation": "  Nxe5+  "},
    {"number": 3, "notation": ""},
    {"number": 3, "notation": "   "},
    {"number": 3, "notation": "\tO-O-O\n"},
    {"number": 3, "notation": "x" * lim.NOTATION_MAX},
    {"notation": "e4", "number": 7},
]

NOT_PLAIN = [
    {"number": 0, "notation": "e4"},
    {"number": -1},
    {"number": lim.MOVES_MAX + 1},
    {"number": True, "notation": "e4"},
    {"number": "3", "notation": "e4"},
    {"number": 3.0, "notation": "e4"},
    {"number": None},
    {"notation": "e4"},
    {},
    {"number": 3, "notation": 5},
    {"number": 3, "notation": None},
    {"number": 3, "notation": "x" * (lim.NOTATION_MAX + 1)},
    {"number": 3, "notation": "Сf3"},
    {"number": 3, "notation": "e4\x00"},
    {"number": 3, "notation": "e4", "sent_on": "2026-03-01"},
    {"number": 3, "notation": "e4", "void": True},
    {"number": 3, "notation": "e4", "mail": "server"},
    {"number": 3, "notation": "e4", "colour": "white"},
    [1, 2],
    "number=3",
    None,
]


@pytest.mark.parametrize("body", PLAIN, ids=repr)
def test_a_plain_body_reads_as_move_input_reads_it(body):
    serializer = MoveInput(data=body)
    assert serializer.is_valid(), serializer.errors
    assert plain_move(body) == dict(serializer.validated_data)


@pytest.mark.parametrize("body", NOT_PLAIN, ids=repr)
def test_any_other_body_is_left_to_move_input(body):
    assert plain_move(body) is None
    serializer = MoveInput(data=body)
    if serializer.is_valid():
        assert move_input(body) == serializer.validated_data
    else:
        with pytest.raises(ValidationError) as raised:
            move_input(body)
        assert raised.value.detail == serializer.errors


def test_the_ledger_is_off_without_parameters_and_read_by_move_query_with_them():
    from django.http import QueryDict

    assert ledger_wanted(QueryDict("")) is False
    assert ledger_wanted(QueryDict("ledger=1")) is True
    assert ledger_wanted(QueryDict("ledger=0")) is False
    assert ledger_wanted(QueryDict("other=1")) is False
    with pytest.raises(ValidationError):
        ledger_wanted(QueryDict("ledger=maybe"))
