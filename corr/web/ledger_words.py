"""A ledger line in the reader's language: the one wording the game page's ledger and the ledger's CSV read
(STYLE 17, issue 39). The calculator's codes (``void_move``, ``impossible_move``) stay in the API's JSON."""

from __future__ import annotations

from dataclasses import dataclass

from corr.rulebooks import cited
from corr.templatetags.corr_i18n import word

from .describe import ledger_kind, ledger_note
from .records import record_words


@dataclass(frozen=True, slots=True)
class LedgerWords:
    kind: str
    note: str
    rule: str

    @staticmethod
    def player(colour: str) -> str:
        return str(word(colour))


def ledger_line_words(*, kind: str, note: str, rule: str, reply: str | None = None) -> LedgerWords:
    """A line's kind, note and rule in words; ``reply``: the stored history line of the server's conditional reply
    the line charges (``corr.games.reply_notes``), said instead of the calculator's note."""
    return LedgerWords(kind=ledger_kind(kind), note=record_words(reply) if reply else ledger_note(note),
                       rule=cited(rule) if rule else "")
