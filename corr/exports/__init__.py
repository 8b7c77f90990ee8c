"""Exports of a game: PGN (chess), PDN (draughts), SGF (Go) and the ledger as CSV.

One entry point, :func:`game_export`, for the API and the pages alike. The
game's clock as of the date asked (the game page's: today in the
tournament's zone) is computed once and every format reads its ledger. A live
game (issue 16) is written from its live events with the clock after each move
(:mod:`corr.exports.live`).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from datetime import date

from django.utils.translation import gettext as _

from corr.rulebooks import cited_in_english
from corr.clock.charging import LEDGER_FIELDS
from corr.games.clockstate import clock_start, counts_instants, game_time, midnight
from corr.games.errors import ServiceError
from corr.games.reply_notes import KIND_VARIANT_MOVE, reply_notes
from corr.models import Game, GameKind, Mode

from .moves import exported_moves, exported_preface
from .pdn import game_pdn
from .pgn import game_pgn
from .sgf import game_sgf
from .stamps import ccrd, ccsnt

FORMATS: dict[str, tuple[str, str]] = {
    "pgn": ("application/x-chess-pgn", "utf-8"),
    "pdn": ("application/x-draughts-pdn", "utf-8"),
    "sgf": ("application/x-go-sgf", "utf-8"),
    "csv": ("text/csv", "utf-8"),
}
"""Every format: its media type and character set."""

FORMATS_BY_KIND: dict[str, tuple[str, ...]] = {
    GameKind.CHESS: ("pgn", "csv"),
    GameKind.DRAUGHTS: ("pdn", "csv"),
    GameKind.GO: ("sgf", "csv"),
}
"""The formats each kind of game is exported in (the ledger as CSV for every kind)."""


class ExportUnavailable(ServiceError):
    """A format corr does not write, or one that does not fit the game's kind (404: no such file)."""

    status = 404


@dataclass(frozen=True, slots=True)
class Export:
    content: bytes
    media_type: str
    """With its charset, for ``Content-Type``."""
    filename: str


def formats_of(game: Game) -> tuple[str, ...]:
    return FORMATS_BY_KIND[game.kind_in_force]


def game_export(*, game: Game, rows, as_of: date, format: str, site: str) -> Export:
    """The file of ``game`` (with its stored ``rows``) in ``format``, its clock as of ``as_of``.

    ``site`` is the game page's absolute address (PGN ``Site``, SGF ``PC``).
    :raises ExportUnavailable: naming the format and the game's kind.
    """
    kind = game.kind_in_force
    if format not in FORMATS:
        raise ExportUnavailable(_("no export format %(format)r: formats are %(formats)s")
                                % {"format": format, "formats": ", ".join(FORMATS)}, field="format")
    if format not in FORMATS_BY_KIND[kind]:
        raise ExportUnavailable(_("no %(format)s export of a %(kind)s game: its formats are %(formats)s")
                                % {"format": format, "kind": kind, "formats": ", ".join(FORMATS_BY_KIND[kind])},
                                field="format")
    media_type, charset = FORMATS[format]
    filename = f"game-{game.pk}.{format}"
    if game.mode == Mode.LIVE:
        content = live_export(game, format, site)
        return Export(content if isinstance(content, bytes) else content.encode(charset),
                      f"{media_type}; charset={charset}", filename)
    time = game_time(game, rows, as_of)
    if format == "csv":
        # A server's conditional reply is named by its line (issue 28, 50.4.8), as the API's ledger says it.
        ledger = ledger_csv(time.clock.ledger, reply_notes(game, time, rows))
        return Export(ledger.encode(charset), f"{media_type}; charset={charset}", filename)
    moves, pending = exported_moves(time, rows)
    # Every format carries the correspondence stamps (PGN's [%ccsnt], issue 26; PDN's and SGF's comments the
    # same, issue 37) and corr's commands of the clock's other facts, so that manage.py clock and the import
    # read the game's own clocks back from any of its files.
    instants, zone = counts_instants(game), game.tournament.time_zone
    # By post or e-mail a move is received days after it was sent: [%ccrd] keeps the receipt, without
    # which manage.py clock and the import would charge the transit as thinking (issue 37).
    postal = game.mode == Mode.POSTAL
    moves = replies_stamped(moves) if game.mode == Mode.SERVER else moves
    moves = [m if m.void else replace(m, stamp=" ".join(filter(None, [
        ccrd(m.received_on) if postal else None,
        ccsnt(sent_on=m.sent_on, sent_at=m.sent_at, zone=zone, instants=instants)])) or None)
        for m in moves]
    if postal and pending is not None and not pending.presumed:  # a presumption is no fact to write
        pending = replace(pending, stamp=ccrd(pending.received_on))
    facts = {
        "event": game.tournament.name, "site": site, "date": game.tournament.official_start,
        "white": game.white.username, "black": game.black.username, "result": game.result or "*",
        "first": game.first, "mode": game.mode, "ruleset": game.tournament.ruleset.as_dict(),
        "notes": [cited_in_english(f"termination: {game.termination}")] if game.termination else [],
        "termination": game.termination,
        # A postal tournament that presumes no transit plays by e-mail (docs/service.md, "Modes"): PGN's EM, else PM.
        "email": game.mode == Mode.POSTAL and game.tournament.presumed_transit_days == 0,
        "preface": exported_preface(time),
        "tags": start_tags(game) if instants else [],
    }
    if format == "pgn":
        content = game_pgn(facts=facts, moves=moves, pending=pending).encode(charset)
    elif format == "pdn":
        content = game_pdn(facts=facts, moves=moves, pending=pending).encode(charset)
    else:
        content = game_sgf(facts=facts, moves=moves, pending=pending)
    return Export(content, f"{media_type}; charset={charset}", filename)


def start_tags(game) -> list[tuple[str, str]]:
    """``UTCDate``/``UTCTime`` of a server game whose clock starts after its tournament's official start (created
    later, or started by the arbiter: ``Game.clock_start``, issue 39), the start ``manage.py clock`` and the
    import read back (``corr.formats.pgn_stamps``); none when the official start is the game's."""
    start = clock_start(game)
    if start == midnight(game.tournament, game.tournament.official_start):
        return []
    return [("UTCDate", start.strftime("%Y.%m.%d")), ("UTCTime", start.strftime("%H:%M:%S"))]


def replies_stamped(moves: list) -> list:
    """A server game's moves with each conditional reply sent when the server played it (issue 37): the instant
    of the partner's move it answers (50.4.8: it costs its owner nothing). The reply is stored without dates;
    stamped so, a reader (``manage.py clock``, the import) charges it nothing, as the game does."""
    out, previous = [], None
    for move in moves:
        if move.variant == "conditional" and move.sent_on is None and previous is not None:
            move = replace(move, sent_on=previous.sent_on, sent_at=previous.sent_at)
        out.append(move)
        if not move.void:
            previous = move
    return out


def live_export(game: Game, format: str, site: str):
    """The file of a live game (its moves are ``LiveEvent`` rows, its clock in ms): see :mod:`.live`.

    Text for PGN, PDN and CSV; bytes for SGF (as the writers give them).
    """
    from .live import live_facts, live_history, live_ledger_csv

    history = live_history(game)
    if format == "csv":
        return live_ledger_csv(history.ledger)
    facts = live_facts(game, history, site)
    if format == "pgn":
        return game_pgn(facts=facts, moves=history.moves, pending=None)
    if format == "pdn":  # PDN's own clock command (pdn.fmjd.org, extensions): [%clock w1:59:48]
        moves = [replace(m, clock_command="clock") for m in history.moves]
        return game_pdn(facts=facts, moves=moves, pending=None)
    return game_sgf(facts=facts, moves=history.moves, pending=None)


LEDGER_CSV_FIELDS = (*LEDGER_FIELDS, "player_code", "kind_code")
"""The CSV's columns: the calculator's fields, then the codes of ``player`` and ``kind`` for programs."""


def ledger_csv(ledger, notes: dict[int, str] | None = None) -> str:
    """The ledger, one row per line, for people (issue 39): the calculator's fields with its text columns in the
    active language as the game page words them (``player``, ``kind``, ``rule``, ``note``: a server's conditional
    reply named by its line, ``notes`` by event), then ``player_code`` and ``kind_code``, the values the JSON
    ledger has, for a program that reads the file."""
    from corr.web.ledger_words import ledger_line_words

    notes = notes or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(LEDGER_CSV_FIELDS)
    for line in ledger:
        player, move, kind, days, excluded, rule, event, note = line
        words = ledger_line_words(kind=kind, note=note, rule=rule, reply=notes.get(event) if kind == KIND_VARIANT_MOVE
                                  else None)
        writer.writerow((words.player(player), move, words.kind, days, excluded, words.rule, event, words.note,
                         player, kind))
    return out.getvalue()
