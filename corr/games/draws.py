"""A server game's standing draw offer, read from its history lines (issue 26; FIDE 9.1).

Facts in, state out: an offer is a ``draw_offer`` line of the history and is never stored as a
state. It stands until something answers or ends it, whichever comes first:

- the partner accepts it (a result line) or declines it (a ``draw_decline`` line);
- a move is recorded after it: the partner's reply rejects it (FIDE 9.1.2.2, "by touching a piece
  with the intention of moving"), and the offerer's next move comes after that reply, so an offer
  never outlives the offerer's next move; an arbiter's correction or withdrawal of a move changes
  the position it was made in and lapses it too;
- the game ends or is reopened (a result or reopen line).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

DRAW_OFFER, DRAW_DECLINE = "draw_offer", "draw_decline"
_ENDS_OFFER = frozenset({"move", "withdrawal", "result", "reopen", DRAW_DECLINE})
"""Kinds of history lines after which an earlier offer no longer stands."""


class DrawOffer(NamedTuple):
    """The standing offer: who made it (``white``/``black``) and its line of the history (``seq``)."""

    by: str
    seq: int

    def as_json(self) -> dict:
        return {"by": self.by, "seq": self.seq}


def draw_offer_of(rows: Iterable) -> DrawOffer | None:
    """The draw offer standing after ``rows`` (a game's stored events in sequence, any row type), or None.

    ``rows``: model instances or named tuples with ``seq``, ``kind`` and ``player`` (``event_rows``,
    the clock's ``ClockRow``s), or the clock's plain tuples (``seq``, ``kind``, ``player`` at 1, 2, 3).
    """
    offer: DrawOffer | None = None
    for row in rows:
        seq, kind, player = (row[1], row[2], row[3]) if type(row) is tuple else (row.seq, row.kind, row.player)
        if kind == DRAW_OFFER:
            offer = DrawOffer(by=player, seq=seq)
        elif offer is not None and kind in _ENDS_OFFER:
            offer = None
    return offer


def draw_offer_json(rows: Iterable) -> dict | None:
    """``draw_offer_of`` as the API writes it: ``{"by", "seq"}`` or null."""
    offer = draw_offer_of(rows)
    return None if offer is None else offer.as_json()
