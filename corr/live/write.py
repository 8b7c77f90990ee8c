"""The writing of a live game's events, below every service that writes them (issue 27: one import direction).

The lock (``select_for_update``: PostgreSQL's row lock, SQLite's IMMEDIATE transaction), the instant read
under it, the append of an event, the settling of the flags and forfeits the clock shows, a verdict
applied, and the bookkeeping that ends every write: a new version, the next instant due, the engine's
snapshot (``LiveGame.snapshot``), and after commit the push and the announcement of the next check
(:mod:`corr.live.timers`, kept by the timers above). Imports only the state below it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.games.errors import TurnConflict
from corr.limits import TERMINATION_MAX
from corr.models import (
    LIVE_CLOCK_KINDS, LIVE_TEXT_MAX, Game, GameStatus, LiveEvent, LiveEventKind, LiveGame, Tournament,
)

from . import push, timers, timesource
from .decide import PLAY_ON, Verdict, flag_verdict, forfeit_verdict
from .state import clock_at, flags_of, keep_snapshot, payload_of
from .trips import lock_game, store

MS = 1000


def instant(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / MS, tz=UTC)


def live_rules(tournament: Tournament):
    """The tournament's live rules (``corr.clock.live.LiveRules``), or None when its clock is not in seconds."""
    control = tournament.ruleset.time_control
    return None if control is None else control.live


def live_lock(game_id: int) -> tuple[Game, LiveGame, list]:
    """Lock the game row for this transaction; its live row and events, in one round trip
    (:func:`corr.live.trips.lock_game`). In a press on the rows its process knows (``corr.live.trips.KnownPress``)
    no lock is taken here: the write's own statement locks the row and writes only if nothing changed since.
    :raises Game.DoesNotExist: also for a game without a live clock."""
    game, live, rows = lock_game(game_id)
    if live is None:
        raise Game.DoesNotExist(f"game {game_id} has no live clock")
    return game, live, rows


def at_lock(now_ms: int | None) -> int:
    """``now_ms``, or the server's instant read now: called once the game's lock is held (issue 23).

    A press stamped with an instant read before it waited on the lock is earlier than the event of
    the press that held it, which the engine refuses (``at_ms … is after now``); read after the lock,
    it comes after every recorded event and the loser is told what it lost to (409). In a press on the rows its
    process knows, read with no lock: it comes after every event known, and the write is refused (and the press made
    again under the lock) if any event was recorded since.
    """
    return timesource.now_ms() if now_ms is None else now_ms


def next_check(game: Game, clock, now_ms: int) -> int | None:
    """The next instant a flag or a late arrival falls due after ``now_ms``; None when nothing can."""
    if game.status != GameStatus.ONGOING or clock.paused:
        return None
    due = [at for at in (clock.next_flag_at_ms, clock.late_arrival_deadline_ms) if at is not None and at > now_ms]
    return min(due, default=None)


def after_commit(game: Game, live: LiveGame, payload: dict | None = None, *, pushed_by_caller: bool = False) -> None:
    """Once committed: the push (``payload``, the ``"live"`` object as written, or read again when None) and the
    check at the next instant due."""
    game_id, version, at = game.pk, live.version, live.next_check_at_ms
    if not pushed_by_caller:
        transaction.on_commit(lambda: push.game_changed(game_id, payload))
    if at is not None:
        transaction.on_commit(lambda: timers.announce(game_id=game_id, version=version, at_ms=at))


def append(game: Game, rows: list, kind: str, now_ms: int, *, by: User | None = None, **fields) -> LiveEvent:
    """Add one event after ``rows``: the next seq, the server's instant. Stored by :func:`finish_write`, with the
    write's bookkeeping in one statement (every write ends there; a write refused before it stores nothing)."""
    fields.setdefault("at_ms", now_ms)
    row = LiveEvent(game=game, seq=(rows[-1].seq if rows else 0) + 1, kind=kind, entered_by=by,
                    entered_at=instant(now_ms), **fields)
    rows.append(row)
    return row


def settle(game: Game, live: LiveGame, rows: list, clock, now_ms: int, before_press: bool = False) -> bool:
    """Record what the clock shows at ``now_ms`` and is not yet recorded: flags, forfeits, and their verdicts.

    A forfeit (third illegal move, late arrival) or the first new flag, whichever came first, decides:
    a result ends the game (the clocks stop at its instant), a case goes to the arbiter; both flags
    fallen with the order unknown are recorded and play goes on (002 6.11). Returns whether it wrote.
    ``before_press``: flags strictly before ``now_ms`` only (see :func:`live_check`).
    """
    if game.status != GameStatus.ONGOING:
        return False
    fresh = _fresh_flags(rows, clock, now_ms, before_press)
    forfeit = clock.forfeit
    forfeit_at = None
    if forfeit:
        forfeit_at = forfeit.get("at_ms") or clock.late_arrival_deadline_ms or now_ms
        forfeit_at = min(forfeit_at, now_ms)
    if not fresh and not forfeit:
        return False
    if forfeit and (not fresh or forfeit_at <= fresh[0].at_ms):
        decide(game, live, rows, forfeit_verdict(forfeit), forfeit_at, now_ms)
        return True
    if getattr(clock, "both_fallen_order_unknown", False) and len(flags_of(clock)) >= 2:
        for f in fresh:
            append(game, rows, LiveEventKind.FLAG, now_ms, player=f.player, at_ms=f.at_ms, reason=PLAY_ON)
        return True
    flag = fresh[0]
    verdict = flag_verdict(kind=game.kind_in_force, position=live.position if live.readable else "",
                           flagged=flag.player)
    append(game, rows, LiveEventKind.FLAG, now_ms, player=flag.player, at_ms=flag.at_ms, number=_move_of(flag),
           reason=verdict.text[:LIVE_TEXT_MAX])
    decide(game, live, rows, verdict, flag.at_ms, now_ms)
    return True


def _fresh_flags(rows, clock, now_ms: int, before_press: bool = False) -> list:
    """The engine's flags fallen by ``now_ms`` (before it, ``before_press``) that no row records yet."""
    recorded = {(r.player, r.at_ms) for r in rows if r.kind == LiveEventKind.FLAG}
    return [f for f in flags_of(clock) if (f.player, f.at_ms) not in recorded
            and (f.at_ms < now_ms if before_press else f.at_ms <= now_ms)]


def _move_of(flag) -> int | None:
    return flag.move if isinstance(flag.move, int) and not isinstance(flag.move, bool) else None


def decide(game: Game, live: LiveGame, rows: list, verdict: Verdict, at_ms: int, now_ms: int,
           by: User | None = None) -> None:
    """Apply a verdict: a result ends the game with the clocks stopped at ``at_ms``; a case awaits the arbiter."""
    if verdict.result:
        # A flag that fell while a forfeit stood is recorded when the forfeit is excused: the clocks
        # cannot stop before the excuse that reopened the game (the last clock event).
        at_ms = max([at_ms, *(r.at_ms for r in rows if r.kind in LIVE_CLOCK_KINDS and r.kind != LiveEventKind.GAP)])
        game.status, game.result = GameStatus.FINISHED, verdict.result
        game.termination = verdict.text[:TERMINATION_MAX]
        live.ended_at_ms, live.case = at_ms, ""
        append(game, rows, LiveEventKind.RESULT, now_ms, by=by, reason=verdict.text[:LIVE_TEXT_MAX])
    elif verdict.case:
        live.case = verdict.case[:LIVE_TEXT_MAX]
        append(game, rows, LiveEventKind.CASE, now_ms, by=by, reason=verdict.case[:LIVE_TEXT_MAX])


def finish_write(game: Game, live: LiveGame, rows: list, now_ms: int, clock=None, *,
                 pushed_by_caller: bool = False) -> None:
    """After events were appended: a new version, the next instant due, the engine's snapshot, all stored with
    the new events in one statement (:func:`corr.live.trips.store`), and the after-commit work (the push
    carries the payload computed here, from this one clock).

    ``clock``: the clock at ``now_ms`` after every event of ``rows`` when the caller has it (a press); it
    is computed otherwise. Records (flags, results, cases) are not clock events: appending them leaves
    the clock as it was. The payload is left on ``live.payload`` (not a field: this write's, for its
    answer) and its clock on ``live.written_clock``, both None when read again at the end's instant.
    ``pushed_by_caller``: the caller sends ``live.payload`` to the game's group itself once committed (a move
    taken on the socket, from the socket's own event loop), so none is sent here when there is one."""
    live.version += 1
    if clock is None:
        clock = clock_at(game, live, rows, now_ms)
    live.next_check_at_ms = next_check(game, clock, now_ms)
    keep_snapshot(live, rows, clock)
    game.events_version += 1
    new = [row for row in rows if isinstance(row, LiveEvent) and row._state.adding]
    store(new, live, ["version", "next_check_at_ms", "snapshot", "snapshot_seq", "ended_at_ms", "case", "position",
                      "readable"], game, ["events_version", "status", "result", "termination"])
    if live.ended_at_ms is not None and live.ended_at_ms < now_ms:
        clock = None  # the payload shows the clocks as they stopped: read again at the end's instant
    live.payload = None if clock is None else payload_of(game, live, clock, now_ms, rows)
    live.written_clock = clock
    after_commit(game, live, live.payload, pushed_by_caller=pushed_by_caller and live.payload is not None)


def ensure_running(game: Game, live: LiveGame, now_ms: int) -> None:
    if game.status != GameStatus.ONGOING:
        raise TurnConflict(_("the game is over: %(termination)s"), field="number",
                           termination=game.termination or game.result)
    if now_ms < live.starts_at_ms:
        raise TurnConflict(_("the game starts at %(start)s"), field="number",
                           start=instant(live.starts_at_ms).isoformat())


def due_now(rows, clock, now_ms, before_press: bool = False) -> bool:
    """Whether ``clock`` shows a forfeit, or a flag by ``now_ms`` (before it, ``before_press``) not recorded yet."""
    return bool(clock.forfeit) or bool(_fresh_flags(rows, clock, now_ms, before_press))
