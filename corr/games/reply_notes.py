"""The ledger's words for a server's conditional reply (issue 28, 004 50.4.8): the line it came from.

The calculator charges a reply played from a conditional tree as any ``variant: conditional`` move and
says so in its own words ("played from the player's own conditional variant: costs nothing"). A reply
the server played is stored with its history line, ``conditional reply from the line sent with move 12
(50.4.8)`` (``corr.games.records``); the API's ledger and the ledger's CSV say that line instead, as the
game page does. Nothing else of the ledger changes: its days, rules and events are the calculator's.

Postal and e-mail games have no such replies (a variant there is typed move by move): they are left as
they are, with no query. A server game's ledger costs one query only when it holds a variant move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from corr.clock.charging import KIND_VARIANT_MOVE
from corr.models import EventKind, Game, GameEvent, Mode

from .clockstate import GameTime
from .records import TEMPLATES

REPLY_PREFIX = TEMPLATES["conditional_reply"].split("%")[0]
"""How a server's conditional reply's stored history line begins."""

_KIND, _EVENT, _NOTE = 2, 6, 7  # a ledger row's fields (``corr.clock.charging.LEDGER_FIELDS``)


def reply_notes(game: Game, time: GameTime, rows: Iterable | None = None) -> dict[int, str]:
    """The history line of each conditional reply the server played, by the index of its calculator event.

    Only events the ledger charges as variant moves are looked at, through ``Assembled.sources`` (the
    stored seq behind each event): a reply an arbiter corrected into another move is no longer one.
    ``rows``: the game's stored events with their notes, when the caller has them (else one query).
    """
    if game.mode != Mode.SERVER:
        return {}
    sources = time.assembled.sources
    by_seq: dict[int, int] = {}
    for line in time.clock.ledger_rows:
        if line[_KIND] == KIND_VARIANT_MOVE and (seq := sources[line[_EVENT]]) is not None:
            by_seq[seq] = line[_EVENT]
    if not by_seq:
        return {}
    if rows is None:
        found = GameEvent.objects.filter(game=game, seq__in=list(by_seq), kind=EventKind.MOVE,
                                         variant="conditional").values_list("seq", "note")
    else:
        found = [(r.seq, r.note) for r in rows if r.seq in by_seq and r.kind == EventKind.MOVE
                 and r.variant == "conditional"]
    return {by_seq[seq]: note for seq, note in found if note.startswith(REPLY_PREFIX)}


def ledger_named(ledger: Sequence[tuple], notes: dict[int, str]) -> list[tuple]:
    """``ledger`` (rows or ``LedgerLine``s in ``LEDGER_FIELDS`` order) with each reply's note said as its line.

    :returns: plain tuples (the lines of other events as they were).
    """
    if not notes:
        return list(ledger)
    return [(*line[:_NOTE], notes[line[_EVENT]]) if line[_KIND] == KIND_VARIANT_MOVE and line[_EVENT] in notes
            else line for line in ledger]
