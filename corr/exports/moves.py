"""The moves of a game as the exports write them: notation as entered, dates, and the days the ledger charged.

Every format writes the same facts per move, in the same words, in a comment:
``received 2026-01-16; sent 2026-01-20; days 4`` (``-`` for a date the move
has not got: a first move is received by nobody). The words are fixed, not
translated, so that programs can read them back (see ``COMMENT_PATTERN``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime

from corr.games.clockstate import GameTime

from .stamps import clock_fact, long_move_facts, player_facts

MOVE_LINE_KINDS = frozenset({"move", "void_move", "variant_move"})
"""Ledger kinds charged by a move event itself (notices, penalties and delays have lines of their own)."""

COMMENT_PATTERN = re.compile(
    r"received (?P<received>\d{4}-\d{2}-\d{2}|-); sent (?P<sent>\d{4}-\d{2}-\d{2}|-); days (?P<days>-?\d+)")
"""What reads a move's dates and days back from its comment."""


@dataclass(frozen=True, slots=True)
class ExportedMove:
    """One move event in force (corrections applied, withdrawals dropped), in the game's order."""

    seq: int
    player: str
    number: int
    notation: str
    received_on: date | None
    sent_on: date | None
    days: int
    """Days the ledger charged to this event (its thinking time; a conditional variant's 0)."""
    void: bool
    variant: str
    sent_at: datetime | None = None
    """A server game's instant of sending (issue 22), None elsewhere."""
    stamp: str | None = None
    """The PGN ``[%ccsnt]`` of the move (:mod:`corr.exports.stamps`), when the format writes one."""
    charged: str = ""
    """The penalty and delay days charged to the move (``; penalty 5``; see ``charged_text``), else ""."""
    events: tuple[str, ...] = ()
    """corr's commands of the clock's facts that follow this move (its own ``[%ccvoid]`` when void, then the
    notices, penalties and delays before the next move: :func:`corr.exports.stamps.clock_fact`)."""

    @property
    def facts(self) -> str:
        """``received …; sent …; days N`` (the comment every format writes), and what else is charged to it."""
        received = self.received_on.isoformat() if self.received_on else "-"
        sent = self.sent_on.isoformat() if self.sent_on else "-"
        return f"received {received}; sent {sent}; days {self.days}{self.charged}"

    @property
    def sgf_times(self) -> dict:
        """SGF's time left after the move (``BL``/``WL``...): none for days (see :mod:`corr.exports.live`)."""
        return {}

    @property
    def comment(self) -> str:
        """corr's words of the move (no stamp: a move the movetext cannot carry is no move of the game)."""
        return self.comment_with([], stamped=False)

    def comment_with(self, more: list[str], *, stamped: bool = True) -> str:
        """The move's comment: its stamp, then ``more`` (``typed e2-e4``), then corr's words."""
        prefix = "void; " if self.void else f"variant {self.variant}; " if self.variant else ""
        stamp = [self.stamp] if self.stamp and stamped else []
        events = list(self.events) if stamped else []
        return " ".join([*stamp, *(f"{m};" for m in more), prefix + self.facts, *events])

    @property
    def void_line(self) -> str:
        """The comment of a void move (never on the board), with its facts' commands: ``void move 2 Ke3:
        received …; sent …; days 3 [%ccvoid white 2 2026.01.22 2026.01.25]``."""
        return " ".join([f"void move {self.number} {self.notation or '(no notation)'}: {self.facts}", *self.events])


@dataclass(frozen=True, slots=True)
class PendingLine:
    """The move the player to move is thinking on: its days so far."""

    player: str
    number: int
    received_on: date | None
    days: int
    charged: str = ""
    """The penalty and delay days charged to the pending move (``; penalty 5``), else ""."""
    presumed: bool = False
    """True while no receipt is recorded: ``received_on`` is the dispatch plus the presumed transit days."""
    stamp: str | None = None
    """PGN's ``[%ccrd]`` of a recorded receipt (:mod:`corr.exports.stamps`), when the format writes one."""

    @property
    def comment(self) -> str:
        received = self.received_on.isoformat() if self.received_on else "-"
        stamp = f"{self.stamp} " if self.stamp else ""
        return (f"{self.player}'s move {self.number} pending: {stamp}received {received}; days so far {self.days}"
                f"{self.charged}")


def exported_moves(time: GameTime, rows) -> tuple[list[ExportedMove], PendingLine | None]:
    """The moves of ``time`` (the game's clock) with their stored rows ``rows``, and the pending move.

    The calculator's events and the stored rows meet through
    ``Assembled.sources`` (the seq behind each event), the ledger's lines
    through their ``event`` index: one computation gives both.
    """
    by_seq = {row.seq: row for row in rows}
    sources = time.assembled.sources
    days: dict[int, int] = {}
    extra: dict[tuple[str, int], dict[str, int]] = {}
    for line in time.clock.ledger:
        if line.kind in MOVE_LINE_KINDS:
            days[line.event] = days.get(line.event, 0) + line.days
        elif line.kind in ("penalty", "delay"):  # charged to a move of its own (50.4.9-50.4.11)
            kinds = extra.setdefault((line.player, line.move), {})
            kinds[line.kind] = kinds.get(line.kind, 0) + line.days
    moves = []
    events, zone = time.assembled.game.events, time.assembled.game.time_zone
    for index, seq in enumerate(sources):
        row = by_seq.get(seq) if seq is not None else None
        if row is None:
            continue
        fact = clock_fact(events[index], zone)
        if row.kind != "move":  # a notice, penalty or delay: its command follows the move before it
            if fact is not None and moves:
                moves[-1] = replace(moves[-1], events=(*moves[-1].events, fact))
            continue
        charged = charged_text(extra.pop((row.player, row.number), {})) if not row.void else ""
        moves.append(ExportedMove(seq=seq, player=row.player, number=row.number, notation=row.notation.strip(),
                                  received_on=row.received_on, sent_on=row.sent_on, days=days.get(index, 0),
                                  void=row.void, variant=row.variant, sent_at=getattr(row, "sent_at", None),
                                  charged=charged, events=(fact,) if fact else ()))
    pending = None
    if sources and sources[-1] is None and time.assembled.pending is not None:
        p = time.assembled.pending
        running = sum(line.days for line in time.clock.ledger if line.event == len(sources) - 1)
        pending = PendingLine(player=p.player, number=p.number, received_on=p.received_on, days=running,
                              charged=charged_text(extra.pop((p.player, p.number), {})), presumed=p.presumed)
    return moves, pending


def exported_preface(time: GameTime) -> list[str]:
    """corr's commands for the comment before the first move: the players' late start notices and leave, the
    "Use 40+ days" notices, and
    the notices, penalties and delays entered before any move (:mod:`corr.exports.stamps`)."""
    game = time.assembled.game
    out = player_facts(game.players) + long_move_facts(game.long_moves)
    for event in game.events:
        if event.type == "move":
            break
        if (fact := clock_fact(event, game.time_zone)) is not None:
            out.append(fact)
    return out


def charged_text(kinds: dict[str, int]) -> str:
    """``; penalty 5; delay 2``: the days a move is charged beside its own thinking, in the fixed words."""
    return "".join(f"; {kind} {kinds[kind]}" for kind in ("penalty", "delay") if kinds.get(kind))


def comment_safe(text: str) -> str:
    """Text fit for a ``{comment}`` of PGN, PDN (no braces) and one line of it."""
    return " ".join(text.replace("{", "(").replace("}", ")").split())
