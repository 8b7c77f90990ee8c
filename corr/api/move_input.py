"""The move's input, read without building a serializer when the body is the plain one a server game sends.

A move is the API's most frequent request, and most bodies are
``{"number": 12, "notation": "Nf3"}``. Building ``MoveInput`` (DRF copies
every declared field per instance) costs about as much as the rest of the
view's own work; such a body is read here to exactly what ``MoveInput``
gives. Any other body (a date, a flag, a string number, an unknown key,
anything odd) goes through ``MoveInput``, whose errors are the API's.
"""

from __future__ import annotations

from corr import limits as lim

from . import serializers as s

_PLAIN_KEYS = frozenset({"number", "notation"})
_DEFAULTS = {"received_on": None, "sent_on": None, "void": False, "mail": "", "variant": "", "conditional": None,
             "claim_draw": False}


def plain_move(data) -> dict | None:
    """``MoveInput``'s validated data for a body of an integer ``number`` and an ASCII ``notation``; else None.

    ``notation`` is trimmed as DRF's ``CharField`` trims it; it may be absent
    (empty) as in ``MoveInput``. None: the body is not plain, ``MoveInput`` decides.
    """
    if type(data) is not dict or not data.keys() <= _PLAIN_KEYS:
        return None
    number = data.get("number")
    notation = data.get("notation", "")
    # bool is an int subclass: True is not a move number (type(), not isinstance()).
    if type(number) is not int or not 1 <= number <= lim.MOVES_MAX:
        return None
    # ASCII and no NUL: what DRF's CharField validators would refuse is left to it.
    if type(notation) is not str or not notation.isascii() or "\x00" in notation:
        return None
    notation = notation.strip()
    if len(notation) > lim.NOTATION_MAX:
        return None
    return {"number": number, "notation": notation, **_DEFAULTS}


def move_input(data) -> dict:
    """The validated move input. :raises ValidationError: as ``MoveInput`` raises it."""
    plain = plain_move(data)
    if plain is not None:
        return plain
    serializer = s.MoveInput(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def ledger_wanted(query_params) -> bool:
    """``?ledger=1``: the 201 answer carries the ledger. :raises ValidationError: as ``MoveQuery`` raises it."""
    if not query_params:
        return False
    query = s.MoveQuery(data=query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data["ledger"]
