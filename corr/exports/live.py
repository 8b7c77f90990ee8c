"""Exports of a live game (issue 16): its moves as the server stamped them, with the clock after each press.

A live game's moves are ``LiveEvent`` rows, not ``GameEvent`` ones, and its clock counts milliseconds: the
files say what the formats say for play at the board.

- PGN and PDN: each move's comment opens with the PGN supplement's ``[%clk H:MM:SS]`` (2001, section 4:
  the time on the player's clock after the move, which lichess and chess.com write and python-chess reads
  with ``node.clock()``), then the server's instant ``at 2026-03-01T12:00:10.000Z``.
- SGF (FF[4]): each move node has ``BL``/``WL``, the time left after the move in seconds, and in overtime
  ``OB``/``OW``: the byo-yomi periods left (Japanese, the KGS convention) or the moves left in the block
  (Canadian, FF[4]'s own meaning); in byo-yomi ``BL``/``WL`` is the time of the current period.
- The arbiter's actions, the flags and the service's gaps are comments after the move before them, in
  fixed English words, so that the file loses no fact of the history.
- Every event the clock is computed from is also a command of corr's (:mod:`corr.formats.live_stamps`,
  issue 37) at the head of its comment: ``[%ccbegin]`` before the first move, ``[%ccpress]`` (and
  ``[%cclag]``) after each ``[%clk]``, ``[%ccpause]``, ``[%ccresume]``, ``[%ccadjust]`` ... before their words,
  and ``[%ccnow]`` (the instant of the file's clocks) after the last move: ``manage.py clock FILE.pgn --preset
  NAME_live`` reads them back to the live game file's clock, the page's.

The clock after each press is the engine's (:func:`corr.clock.live.live_clock`) replayed on the events up
to that press: the same figures the game page showed at that instant.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from corr.rulebooks import cited_in_english
from corr.clock.live import live_clock
from corr.live import timesource
from corr.formats.live_stamps import live_command, now_command
from corr.live.state import clock_at, engine_event, file_now_ms, live_rows
from corr.models import LIVE_CLOCK_KINDS, Game, GameStatus, LiveEventKind, LiveGame

from .timecontrol import clock_text

LIVE_LEDGER_FIELDS = ("index", "kind", "at_ms", "at", "player", "charged_ms", "remaining_ms", "note")
"""The header of a live game's ledger as CSV: the engine's ledger lines, with each instant in ISO 8601."""


def instant(ms: int) -> str:
    """An instant in ms since the epoch as ISO 8601 UTC to the millisecond: ``2026-03-01T12:00:10.250Z``."""
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


@dataclass(slots=True)
class LiveExportedMove:
    """One press of a live game, with the player's clock just after it (what the formats write)."""

    seq: int
    player: str
    number: int
    notation: str
    at_ms: int
    clock_ms: int
    """The player's clock after the press (increment or delay applied): ``[%clk]``, ``BL``/``WL``."""
    state: dict
    """The system's state after the press (byo-yomi periods left, the Canadian block...)."""
    notes: list[str] = field(default_factory=list)
    """What happened after this move and before the next one (arbiter, flags, gaps)."""
    command: str = ""
    """corr's command of the press (``[%ccpress white 1 2026-03-01T12:00:10.000Z]``, its lag after it)."""
    void: bool = False
    variant: str = ""
    clock_command: str = "clk"
    """``clk`` (PGN's supplement, to the ms); ``clock`` for PDN (its extension: ``[%clock w1:59:48]``, the
    mover's clock in whole seconds, lowercase: stopped after the press)."""

    @property
    def facts(self) -> str:
        if self.clock_command == "clock":
            reading = clock_text(self.clock_ms // 1000 * 1000)
            return f"[%clock {self.player[0]}{reading}] {self.command} at {instant(self.at_ms)}"
        return f"[%clk {clock_text(self.clock_ms)}] {self.command} at {instant(self.at_ms)}"

    @property
    def comment(self) -> str:
        return "; ".join([self.facts, *self.notes])

    def comment_with(self, more: list[str], *, stamped: bool = True) -> str:
        """The comment with ``more`` (``typed e2-e4``) after the clock, which programs read first."""
        return "; ".join([self.facts, *more, *self.notes])

    @property
    def sgf_times(self) -> dict[str, float | int]:
        """SGF's time left (``L``: ``BL``/``WL`` in seconds) and overtime count (``O``: ``OB``/``OW``)."""
        s = self.state
        if s.get("in_byoyomi"):  # Japanese: the period in hand (reset by the move) and the periods left
            return {"L": s.get("period_left_ms", 0) / 1000, "O": s.get("periods_left", 0)}
        if s.get("in_overtime"):  # Canadian: the block's time and its moves left
            return {"L": s.get("block_ms_left", 0) / 1000, "O": s.get("block_moves_left", 0)}
        if "main_ms" in s:  # a byo-yomi system still in its main time
            return {"L": s["main_ms"] / 1000}
        return {"L": self.clock_ms / 1000}


@dataclass(frozen=True, slots=True)
class LiveHistory:
    """A live game as the exports write it."""

    moves: list[LiveExportedMove]
    preface: list[str]
    """What happened before the first move (the start, a pause...)."""
    closing: list[str]
    """The clocks as of the export (or the end), after the last move."""
    ledger: tuple
    """The engine's ledger lines (:class:`corr.clock.live.LiveLedgerLine`) as of the export."""
    started_at_ms: int


def _event_text(row) -> str:
    """A history line that is not a move, in fixed words with its instant and reason."""
    at = instant(row.at_ms)
    reason = f": {row.reason}" if row.reason else ""
    kind = row.kind
    if kind == LiveEventKind.START:
        return f"clocks started at {at}"
    if kind == LiveEventKind.PAUSE:
        return f"clocks paused by the arbiter at {at} (002 6.12){reason}"
    if kind == LiveEventKind.RESUME:
        return f"clocks resumed by the arbiter at {at} (002 6.13){reason}"
    if kind == LiveEventKind.ADJUST:
        sign = "+" if row.delta_ms > 0 else "-"
        return f"{row.player}'s clock {sign}{clock_text(abs(row.delta_ms))} by the arbiter at {at}{reason}"
    if kind == LiveEventKind.ILLEGAL:
        return f"illegal move by {row.player} declared at {at} (003 13.4){reason}"
    if kind == LiveEventKind.GAP:
        return f"service down from {instant(row.from_ms)} to {at}: not counted"
    if kind == LiveEventKind.FLAG:
        return f"{row.player}'s flag fell at {at}{reason}"
    if kind == LiveEventKind.CASE:
        return f"arbiter case opened at {at}{reason}"
    if kind == LiveEventKind.RESULT:
        return f"result recorded at {at}{reason}"
    if kind == LiveEventKind.STOP:
        return f"{row.player} stopped the clocks at {at} (000 12.11, 001 1.7.11){reason}"
    if kind == LiveEventKind.CALL:
        return f"{row.player} stopped the clocks to call the arbiter at {at} (002 6.12 b, 003 12.13){reason}"
    if kind == LiveEventKind.WARNING:
        return f"warning to {row.player} by the arbiter at {at}{reason}"
    if kind == LiveEventKind.RULING:
        return f"the arbiter's ruling at {at}{reason}"
    return f"{kind} at {at}{reason}"


def live_history(game: Game, now_ms: int | None = None) -> LiveHistory:
    """The moves of live ``game`` with the clock after each, the other events as notes, the clocks now.

    ``now_ms`` defaults to the server's clock (``corr.live.timesource``).
    """
    now = timesource.now_ms() if now_ms is None else now_ms
    live = LiveGame.objects.get(game=game)
    rows = live_rows(game)
    ruleset = game.tournament.ruleset
    events: list = []
    moves: list[LiveExportedMove] = []
    preface: list[str] = []
    snapshot = None
    for row in rows:
        if row.kind in LIVE_CLOCK_KINDS:
            events.append(engine_event(row))
        if row.kind == LiveEventKind.MOVE:
            # The engine on the events up to this press, at its instant: the clock it showed then (folded
            # onto the previous press's snapshot: one pass over the game, not one replay per move).
            pressed = live_clock(ruleset, events, row.at_ms, snapshot=snapshot)
            snapshot, events = pressed.snapshot, []
            player = pressed.players[row.player]
            moves.append(LiveExportedMove(seq=row.seq, player=row.player, number=row.number,
                                          notation=row.notation.strip(), at_ms=row.at_ms,
                                          clock_ms=player.remaining_ms, state=player.state,
                                          command=live_command(engine_event(row))))
        else:
            # The command first (programs read it; viewers hide it), then the words a person reads.
            words = cited_in_english(_event_text(row))
            if row.kind in LIVE_CLOCK_KINDS:
                words = f"{live_command(engine_event(row))} {words}"
            (moves[-1].notes if moves else preface).append(words)
    clock = clock_at(game, live, rows, now, ledger=True)
    as_of = now_command(file_now_ms(live, now))  # the live game file's now: manage.py clock computes there
    sides = ", ".join(f"{side} {clock_text(p.remaining_ms)}" + (" (flag fallen)" if p.flag_fallen else "")
                      for side, p in clock.players.items())
    if game.status != GameStatus.ONGOING:
        closing = [f"{as_of} clocks at the end ({instant(clock.now_ms)}): {sides}"]
    elif now < live.starts_at_ms:
        closing = [f"{as_of} not started: {clock.to_move}'s clock starts at {instant(live.starts_at_ms)}"]
    else:
        state = "paused" if clock.paused else f"{clock.to_move} to move, clock running"
        closing = [f"{as_of} clocks at {instant(now)}: {sides}; {state}"]
    return LiveHistory(moves=moves, preface=preface, closing=closing, ledger=clock.ledger,
                       started_at_ms=live.starts_at_ms)


def live_facts(game: Game, history: LiveHistory, site: str) -> dict:
    """The ``facts`` of :func:`corr.exports.pgn.game_pgn` for a live game: dated by its start."""
    start = datetime.fromtimestamp(history.started_at_ms / 1000, tz=timezone.utc)
    return {
        "event": game.tournament.name, "site": site,
        "date": start.astimezone(ZoneInfo(game.tournament.time_zone)).date(),
        "white": game.white.username, "black": game.black.username, "result": game.result or "*",
        "first": game.first, "mode": game.mode, "ruleset": game.tournament.ruleset.as_dict(),
        "tags": [("UTCDate", start.strftime("%Y.%m.%d")), ("UTCTime", start.strftime("%H:%M:%S"))],
        "preface": history.preface,
        "notes": history.closing + ([cited_in_english(f"termination: {game.termination}")] if game.termination
                                    else []),
        "termination": game.termination,
    }


def live_ledger_csv(ledger) -> str:
    """The live ledger, one line per event (and per flag or forfeit the engine derived)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(LIVE_LEDGER_FIELDS)
    for line in ledger:
        writer.writerow([line.index, line.kind, line.at_ms, instant(line.at_ms), line.player or "",
                         line.charged_ms, "" if line.remaining_ms is None else line.remaining_ms, line.note])
    return out.getvalue()
