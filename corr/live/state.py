"""Reads of a live game: its stored events as the engine's, its clock, and the ``"live"`` object of the API.

Compute once (STYLE 14): a request reads the rows once, computes one clock, and
hands that value to every step (the flag decision, the turn check, the payload).
"""

from __future__ import annotations

from dataclasses import dataclass

from corr.clock.live import (
    LiveAdjust, LiveExcuse, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart, SnapshotMismatch,
    live_clock,
)
from corr.models import LIVE_CLOCK_KINDS, Game, GameStatus, LiveEventKind, LiveGame

from . import timesource
from .stopstate import pending_stop
from .trips import events_of, read_game


def live_rows(game: Game) -> list:
    """Every stored live event of ``game`` in sequence, as read-only named tuples (one query): for the files
    and the replays that list them all."""
    return events_of(game.pk)


def live_window(game: Game, live: LiveGame) -> list:
    """The stored live events of ``game`` that its state needs from ``live`` (read before them) on
    (:class:`corr.live.trips.Window`, one query): what :func:`clock_at` and :func:`payload_of` read, bounded
    whatever the length of the game (issue 42)."""
    return events_of(game.pk, from_seq=live.snapshot_seq)


def live_state(game_id: int) -> tuple[Game, LiveGame | None, list]:
    """Game ``game_id`` (its tournament cached), its live row (None for a game without a live clock) and the
    window of its events, of one moment: one round trip on PostgreSQL (:func:`corr.live.trips.read_game`).
    :raises Game.DoesNotExist:"""
    return read_game(game_id)


def _every_event(game: Game, rows) -> list:
    """Every event of ``game``: ``rows`` when it has them all, else those stored and the new ones of ``rows``
    (appended by a write, not stored yet)."""
    if getattr(rows, "complete", True):
        return rows
    stored = live_rows(game)
    last = stored[-1].seq if stored else 0
    return [*stored, *(r for r in rows if r.seq > last)]


def engine_event(row):
    """The engine's event for a stored clock event (``LiveEventKind`` in ``LIVE_CLOCK_KINDS``)."""
    kind = row.kind
    if kind == LiveEventKind.START:
        return LiveStart(at_ms=row.at_ms, handicap_stones=row.number or 0)  # issue 40: free handicap stones
    if kind == LiveEventKind.MOVE:
        return LiveMove(player=row.player, number=row.number, at_ms=row.at_ms, lag_ms=row.lag_ms,
                        ends_game=row.ends_game)
    if kind == LiveEventKind.PAUSE:
        return LivePause(at_ms=row.at_ms)
    if kind in (LiveEventKind.STOP, LiveEventKind.CALL):  # a player stopped both clocks
        return LivePause(at_ms=row.at_ms, player=row.player)
    if kind == LiveEventKind.RESUME:
        return LiveResume(at_ms=row.at_ms)
    if kind == LiveEventKind.ADJUST:
        return LiveAdjust(player=row.player, delta_ms=row.delta_ms, at_ms=row.at_ms)
    if kind == LiveEventKind.ILLEGAL:
        return LiveIllegal(player=row.player, at_ms=row.at_ms)
    if kind == LiveEventKind.GAP:
        return LiveGap(from_ms=row.from_ms, to_ms=row.at_ms)
    if kind == LiveEventKind.EXCUSE:
        return LiveExcuse(player=row.player, at_ms=row.at_ms)
    raise ValueError(f"{kind} is a record, not a clock event")


def engine_events(rows) -> list:
    return [engine_event(r) for r in rows if r.kind in LIVE_CLOCK_KINDS]


@dataclass(frozen=True)
class Flag:
    """A flag fall as the engine reports it: who, when (ms), in which control, at which move."""

    player: str
    at_ms: int
    control: object = None
    move: object = None


def flags_of(clock) -> list[Flag]:
    """The engine's flags (tuples or objects) as ``Flag`` values, in order of fall."""
    out = []
    for f in clock.flags:
        if isinstance(f, tuple):
            out.append(Flag(*f))
        else:
            out.append(Flag(f.player, f.at_ms, getattr(f, "control", None), getattr(f, "move", None)))
    return out


def clock_at(game: Game, live: LiveGame, rows, now_ms: int, *, ledger: bool = False):
    """The engine's clock of ``game`` at ``now_ms``, or at the instant it ended if that is earlier.

    From ``live.snapshot`` (the engine's state after event ``live.snapshot_seq``) and the events after it
    when it is there (issue 27: constant time, whatever the length of the game); from every event when
    it is not, or no longer fits (another time control since, a newer format): the replay, which is what
    the snapshot is checked against (``tests/clock/test_live_snapshot.py``), reading every event again when
    ``rows`` is a window (:func:`live_window`).
    ``ledger``: replay every event, for a clock whose ``ledger`` has every line (a snapshot's has only
    the lines of the events after it).
    """
    at = now_ms if live.ended_at_ms is None else min(now_ms, live.ended_at_ms)
    at = max(at, live.starts_at_ms)
    ruleset = game.tournament.ruleset
    snapshot, seq = live.snapshot, live.snapshot_seq
    if snapshot is not None and not ledger and rows and seq <= rows[-1].seq:
        try:
            return live_clock(ruleset, engine_events(r for r in rows if r.seq > seq), at, snapshot=snapshot)
        except SnapshotMismatch:  # taken under another time control: replayed below
            pass
    return live_clock(ruleset, engine_events(_every_event(game, rows)), at)


def fold_rows(game: Game, clock, rows, now_ms: int):
    """``clock`` (at ``now_ms``, with its snapshot) and the events of ``rows`` after it: the clock at ``now_ms``
    with them, folding only them (a press folds its one move)."""
    return live_clock(game.tournament.ruleset, engine_events(rows), now_ms, snapshot=clock.snapshot)


def keep_snapshot(live: LiveGame, rows, clock) -> None:
    """Keep ``clock``'s snapshot on ``live`` (saved with it) as the state after the last of ``rows``."""
    if rows and clock.snapshot is not None:
        live.snapshot, live.snapshot_seq = clock.snapshot, rows[-1].seq


def payload_of(game: Game, live: LiveGame, clock, now_ms: int, rows) -> dict:
    """The ``"live"`` object of ``GET /api/games/{id}/`` from one computed clock and the game's events."""
    players = {side: p.as_json() for side, p in clock.players.items()}
    over = game.status != GameStatus.ONGOING
    stop = pending_stop(game, live, rows)
    return {
        "running": None if over else clock.running,
        "paused": bool(clock.paused),
        "players": players,
        "server_ms": now_ms,
        "next_flag_at_ms": None if over else clock.next_flag_at_ms,
        "version": live.version,
        "starts_at_ms": live.starts_at_ms,
        "ended_at_ms": live.ended_at_ms,
        "illegal_counts": dict(clock.illegal_counts),
        "late_arrival_deadline_ms": None if over else clock.late_arrival_deadline_ms,
        "handicap_stones_left": clock.handicap_stones_left,  # issue 40: black places them on no running clock
        "case": live.case or None,
        "player_stop": None if stop is None else stop.as_json(),
        "status": game.status, "result": game.result or None, "termination": game.termination or None,
    }


def live_payload(game: Game, now_ms: int | None = None) -> dict:
    """Exactly the ``"live"`` object of ``GET /api/games/{id}/`` (the live page's push sends the same).

    ``{"running": "white"|"black"|null, "paused", "players": {side: {"remaining_ms", "flag_fallen",
    "flag_at_ms", ...the system's state}}, "server_ms", "next_flag_at_ms", "version", ...}``; ``now_ms``
    defaults to the server's clock. Reads only: the flags it shows are recorded by ``live_check``.
    """
    payload = live_payload_of(game.pk, now_ms)
    if payload is None:
        raise LiveGame.DoesNotExist(f"game {game.pk} has no live clock")
    return payload


def live_payload_of(game_id: int, now_ms: int | None = None) -> dict | None:
    """:func:`live_payload` of game ``game_id`` read in one round trip (:func:`live_state`), or None when there
    is no such game or it has no live clock (the socket's state on connecting, issue 42)."""
    try:
        game, live, rows = live_state(game_id)
    except Game.DoesNotExist:
        return None
    if live is None:
        return None
    return live_payload_read(game, live, rows, now_ms)


def live_payload_read(game: Game, live: LiveGame, rows, now_ms: int | None = None) -> dict:
    """:func:`live_payload` of what :func:`live_state` read (``rows``: its window), at ``now_ms`` (None: the
    server's instant, taken after the read)."""
    # The instant after the events (as live_body's, issue 23): read before them, a press committed in between was
    # later than "now" and the clock refused it (a socket connecting while the other player pressed: 1011).
    now = timesource.now_ms() if now_ms is None else now_ms
    return payload_of(game, live, clock_at(game, live, rows, now), now, rows)


def file_now_ms(live: LiveGame, now_ms: int) -> int:
    """The instant a live game's files are computed at: ``now_ms``, or the end of a game over if earlier.

    A game over is computed at the instant its clocks stopped, as the API shows it (:func:`clock_at`): at a
    later now the file would run the clock of the side to move past the end. The live game file's ``now`` and
    the exports' ``[%ccnow]`` are this instant.
    """
    return now_ms if live.ended_at_ms is None else min(now_ms, live.ended_at_ms)


def live_game_file(game: Game, now_ms: int | None = None) -> dict:
    """A live game as ``manage.py clock`` reads it (:mod:`corr.clock.live.gamefile`): its ruleset, its clock
    events at ISO 8601 instants and ``now`` (the server's; ``now_ms`` when given), with ``meta`` naming it.

    The game page's download and ``GET /api/games/{id}/events/`` answer this same file.
    """
    from corr.clock.live.gamefile import write_live_game

    live = LiveGame.objects.get(game=game)
    rows = live_rows(game)
    # Read after the rows: no event of them is after this instant (a press committed meanwhile is later).
    now = timesource.now_ms() if now_ms is None else now_ms
    data = write_live_game(game.tournament.ruleset, engine_events(rows), file_now_ms(live, now))
    data["meta"] = {"game": game.pk, "tournament": game.tournament_id, "mode": game.mode}
    return data
