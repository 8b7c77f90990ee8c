"""Writes of live games: creation, moves, arbiter actions, results, and the flag check (STYLE 5).

Every write locks the game row (:func:`corr.live.write.live_lock`), reads the events, computes one
clock at one server instant, and re-checks the move number, the side to move and the game's status
under that lock: a flag and a move that race produce exactly one result. Flags due before a press
are settled first, in their own transaction, so a refused move never takes a recorded flag down
with it. After commit (:func:`corr.live.write.finish_write`): the page is told and the next check is
announced to the timers (:mod:`corr.live.timers`), which sit above this module.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.games.errors import InvalidInput, NotAllowed, TurnConflict, colour_word
from corr.games.legal import go_reason
from corr.games.permissions import can_arbitrate
from corr.limits import LIVE_START_AHEAD_DAYS_MAX
from corr.games.records import record_text
from corr.games.services.arbiters import colour_checked, ensure_arbiter
from corr.models import (
    LIVE_CLOCK_KINDS, LIVE_TEXT_MAX, Colour, Game, GameKind, GameResult, GameStatus, LiveEvent, LiveEventKind,
    LiveGame, Mode, Tournament,
)

from . import position as pos
from . import timers, timesource
from .decide import Verdict, move_end_verdict
from .gaps import BEAT_EVERY_MS, beat, seen_up_to_ms
from .state import clock_at, fold_rows, keep_snapshot, live_rows, live_state
from .stopstate import RESIGNED, pending_stop
from .trips import known_press, press_transaction
from .write import (
    MS, after_commit, append, at_lock, decide, due_now, ensure_running, finish_write, instant, live_lock, live_rules,
    next_check, settle,
)

LAG_MS_MAX = 10_000


def ensure_live_tournament(tournament: Tournament) -> None:
    """A live game's clock counts in seconds (``time_control.unit``)."""
    if live_rules(tournament) is None:
        raise InvalidInput(_("a live game needs a tournament whose time control is in seconds"
                             " (ruleset.time_control.unit)"), field="tournament")


# --- creation -----------------------------------------------------------------------------------

@transaction.atomic
def live_game_create(*, by: User, tournament: Tournament, white: User, black: User, kind: str = "",
                     starts_at_ms: int, now_ms: int, handicap_stones: int = 0) -> Game:
    """Pair two players for a live game starting at ``starts_at_ms``; the first mover's clock runs from then.

    The first mover is the time control's ``first`` (white; black in Go, 003 12.5). A start more than a
    minute in the past is refused: the clock would have run before anyone could see the game; so is one more than
    ``LIVE_START_AHEAD_DAYS_MAX`` days ahead (its flag timer must be one the server can schedule).
    ``handicap_stones``: Go's free handicap (issue 40, OGS): black places that many stones first, one move each,
    on a clock that does not run (:mod:`corr.clock.live.handicap`); stored as the start's ``number``.
    :raises InvalidInput: naming ``starts_at``, ``tournament``, ``black`` or ``handicap_stones``.
    """
    if not can_arbitrate(by, tournament):
        raise NotAllowed(_("only the tournament's arbiters create its games"))
    ensure_live_tournament(tournament)
    if white.pk == black.pk:
        raise InvalidInput(_("white and black must be two different participants"), field="black")
    if starts_at_ms < now_ms - 60 * MS:
        raise InvalidInput(_("starts_at %(start)s is in the past: a live game's clock cannot start before it is"
                             " created"), field="starts_at", start=instant(starts_at_ms).isoformat())
    if starts_at_ms > now_ms + LIVE_START_AHEAD_DAYS_MAX * 86_400 * MS:
        # Not the instant itself: one past 9999-12-31 in UTC (an offset west of it) has no datetime to write it.
        raise InvalidInput(_("starts_at is more than %(days)s days ahead: a live game is created at most that long"
                             " before it starts"), field="starts_at", days=LIVE_START_AHEAD_DAYS_MAX)
    first = live_rules(tournament).first
    if handicap_stones and (kind or tournament.kind) != GameKind.GO:
        raise InvalidInput(_("handicap_stones is Go's free handicap: this game is not a Go game"),
                           field="handicap_stones")
    if handicap_stones == 1 or handicap_stones and first != Colour.BLACK:
        raise InvalidInput(_("handicap_stones must be 0 or 2 to 9 in a Go game where black moves first: black places"
                             " them one move each before white's first move"), field="handicap_stones")
    game = Game.objects.create(tournament=tournament, white=white, black=black, first=first, mode=Mode.LIVE,
                               kind=kind)
    game.tournament = tournament
    start = pos.position_start(game.kind_in_force, first)
    live = LiveGame.objects.create(game=game, starts_at_ms=starts_at_ms, version=1, position=start,
                                   readable=bool(start))
    LiveEvent.objects.create(game=game, seq=1, kind=LiveEventKind.START, at_ms=starts_at_ms, entered_by=by,
                             entered_at=instant(now_ms), number=handicap_stones or None)
    rows = live_rows(game)
    clock = clock_at(game, live, rows, max(now_ms, starts_at_ms))
    live.next_check_at_ms = next_check(game, clock, max(now_ms, starts_at_ms) - 1)
    keep_snapshot(live, rows, clock)
    live.save(update_fields=["next_check_at_ms", "snapshot", "snapshot_seq"])
    after_commit(game, live)
    return game


# --- the check: scheduled, on every request, and by the sweep -------------------------------------

def live_check(*, game_id: int, now_ms: int | None = None, version: int | None = None,
               taking_moves: bool = False, before_press: bool = False) -> bool:
    """Record any flag or forfeit due at ``now_ms`` in game ``game_id``; returns whether it recorded one.

    ``before_press``: the check a press makes first records only the flags that fell *before* its instant:
    one at the very instant is judged with the move (an overstep, 000 12.9, unless the move ends the game,
    002 6.7 a).

    ``version``: the game's version the scheduled check was made for; a check of an older version
    does nothing (the change that raised it scheduled its own), and one that finds nothing due yet
    (an early timer) is scheduled again at the instant. Without ``version`` (a request, the sweep) the
    game is read without a lock first: a request pays for the lock only when there is something to record.
    ``taking_moves``: called by a process that takes moves (a request, the beat thread), which beats and
    records the gaps of an outage first (:mod:`corr.live.gaps`); any other caller (Celery's checks and
    sweep) judges the game only up to the last beat, and leaves a flag after it to the next beat.
    """
    seen_ms = None
    if taking_moves:
        beat(now_ms=at_lock(now_ms), every_ms=BEAT_EVERY_MS)
    else:
        seen_ms = seen_up_to_ms()
    if version is not None:
        # A check of an older version does nothing, whatever it would find under the lock: told by one read of
        # the key's row (versions only grow), not by the lock and every event. Issue 27: the stale checks of a
        # game's presses fall due together near its flag, and each took the lock and read 100+ events, so the
        # one current check waited seconds behind them.
        if LiveGame.objects.filter(pk=game_id).values_list("version", flat=True).first() != version:
            return False
    else:
        try:
            game, live, rows = live_state(game_id)  # one round trip, no lock (issue 42)
        except Game.DoesNotExist:
            return False
        if game.mode != Mode.LIVE or live is None or game.status != GameStatus.ONGOING:
            return False
        judged_ms = _judged(rows, seen_ms, at_lock(now_ms))  # after the rows, as after a lock: none is later
        overdue = live.next_check_at_ms is not None and live.next_check_at_ms <= judged_ms
        if not overdue and not due_now(rows, clock_at(game, live, rows, judged_ms), judged_ms, before_press):
            return False
    with transaction.atomic():
        try:
            game, live, rows = live_lock(game_id)
        except Game.DoesNotExist:
            return False
        now_ms = at_lock(now_ms)
        if game.mode != Mode.LIVE or game.status != GameStatus.ONGOING:
            return False
        if version is not None and live.version != version:
            return False
        judged_ms = _judged(rows, seen_ms, now_ms)
        clock = clock_at(game, live, rows, judged_ms)
        if settle(game, live, rows, clock, now_ms, before_press):
            finish_write(game, live, rows, now_ms)
            return True
        if judged_ms < now_ms:
            return False  # not seen up to now: the next beat checks it (next_check_at_ms stays as it is)
        # Nothing due yet (an early timer): the instant it is due, checked again; never swept in a loop.
        live.next_check_at_ms = next_check(game, clock, now_ms)
        live.save(update_fields=["next_check_at_ms"])
        if version is not None and live.next_check_at_ms is not None:
            at = live.next_check_at_ms
            transaction.on_commit(lambda: timers.announce(game_id=game_id, version=version, at_ms=at))
        return False


def _judged(rows, seen_ms: int | None, now_ms: int) -> int:
    """The instant a check may judge a game at: ``now_ms``, or the last instant moves were seen possible.

    Moves were possible at the last beat and at the game's last event (a move is its own proof).
    """
    if seen_ms is None:
        return now_ms
    last = max((r.at_ms for r in rows if r.kind in LIVE_CLOCK_KINDS), default=seen_ms)
    return min(now_ms, max(seen_ms, last))


# --- moves ----------------------------------------------------------------------------------------

class _FlagAtPress(Exception):
    """The mover's flag fell before the press or at its instant, and the move does not end the game."""


class _DueFirst(Exception):
    """Under the lock, a flag or a forfeit fell before the press and is not recorded yet."""


def live_move(*, game_id: int, by: User, number: int, notation: str = "", lag_ms: int = 0,
              now_ms: int | None = None, pushed_by_caller: bool = False) -> Game:
    """The player to move makes move ``number`` and presses the clock at the server's ``now_ms``
    (None: the server's instant once the game is locked, :func:`at_lock`).

    The notation is checked where corr reads it (chess SAN, Russian draughts); blank is allowed (the
    "move made" button) and makes the position unread from then on. ``lag_ms`` (client-reported
    network lag) is compensated by the engine within each player's quota. A move that ends the game (a
    mate or a stalemate, a draughts move that leaves the partner no legal move) ends it at its instant
    with its result and needs no press: a flag at that very instant does not overstep it (002 6.7 a;
    000 12.10, 001 1.7.12).
    :raises TurnConflict: the game is over, the clocks are stopped, the player's flag fell, it is not
        their move or not this number (409: the game moved on).
    :raises InvalidInput: an illegal move (``notation``), a lag out of bounds (``lag_ms``).
    ``pushed_by_caller``: the caller pushes ``game.live.payload`` itself when it is not None
    (:func:`corr.live.write.finish_write`).
    """
    beat(now_ms=timesource.now_ms() if now_ms is None else now_ms, every_ms=BEAT_EVERY_MS)  # an outage's gaps first
    try:
        try:
            return _live_move(game_id=game_id, by=by, number=number, notation=notation, lag_ms=lag_ms, now_ms=now_ms,
                              pushed_by_caller=pushed_by_caller)
        except _DueFirst:
            # A flag or a forfeit fell before the press: recorded in its own transaction, then the press is judged
            # on the game as it stands (over, or a case, or a flag the press cannot undo).
            live_check(game_id=game_id, now_ms=now_ms, taking_moves=True, before_press=True)
            return _live_move(game_id=game_id, by=by, number=number, notation=notation, lag_ms=lag_ms, now_ms=now_ms,
                              settled=True, pushed_by_caller=pushed_by_caller)
    except _FlagAtPress as flagged:
        # 000 12.9: the press came after the flag or at its instant ("Если в момент переключения часов флажок
        # упал, то фиксируется просрочка времени"): the flag is recorded, and decides, and the move is not counted.
        live_check(game_id=game_id, now_ms=flagged.args[0], taking_moves=True)
        raise TurnConflict(_("your flag fell before this move: the move is not counted (000 12.9)"),
                           field="number") from None


def _live_move(*, game_id: int, by: User, number: int, notation: str, lag_ms: int, now_ms: int | None,
               settled: bool = False, pushed_by_caller: bool = False) -> Game:
    """The press: one clock before it, the move folded onto that clock's snapshot, one transaction of one or two
    round trips on PostgreSQL (:func:`corr.live.trips.press_transaction`, issues 27 and 42).
    ``settled``: what fell before the press was recorded (do not ask again).

    First, when this process knows the game's rows (:mod:`corr.live.known`, issue 42), the press is computed on them
    and stored in one round trip if they are still the rows; if they changed, or the press was refused on them, it is
    made again here under the lock, so every answer is judged on the rows as they are."""
    attempt = known_press(game_id)
    if attempt is not None:
        try:
            with press_transaction(known=attempt):
                return _press(game_id=game_id, by=by, number=number, notation=notation, lag_ms=lag_ms, now_ms=now_ms,
                              settled=settled, pushed_by_caller=pushed_by_caller)
        except BaseException as error:
            if not attempt.again(error):
                raise
    with press_transaction():
        return _press(game_id=game_id, by=by, number=number, notation=notation, lag_ms=lag_ms, now_ms=now_ms,
                      settled=settled, pushed_by_caller=pushed_by_caller)


def _press(*, game_id: int, by: User, number: int, notation: str, lag_ms: int, now_ms: int | None, settled: bool,
           pushed_by_caller: bool) -> Game:
    """:func:`_live_move`'s press in the transaction its caller opened."""
    game, live, rows = live_lock(game_id)
    now_ms = at_lock(now_ms)
    colour = game.colour_of(by)
    if colour is None:
        raise NotAllowed(_("only the players of this game make its moves"))
    ensure_running(game, live, now_ms)
    clock = clock_at(game, live, rows, now_ms)
    if not settled and due_now(rows, clock, now_ms, before_press=True):
        raise _DueFirst()
    mover = clock.players[colour]
    if mover.flag_fallen and mover.flag_at_ms < now_ms:
        raise _FlagAtPress(now_ms)
    if clock.paused:
        raise TurnConflict(_("the clocks are stopped (002 6.12)"), field="number")
    placing = colour == Colour.BLACK and clock.handicap_stones_left > 0  # issue 40: no clock runs meanwhile
    if clock.running != colour and not placing:
        raise TurnConflict(_("it is %(colour)s's move"), field="number", colour=colour_word(clock.running))
    made = mover.moves_made
    if number != made + 1:
        raise TurnConflict(_("expected move %(expected)s, got %(number)s"), field="number",
                           expected=made + 1, number=number)
    if not 0 <= lag_ms <= LAG_MS_MAX:
        raise InvalidInput(_("lag_ms must be 0..%(max)s"), field="lag_ms", max=LAG_MS_MAX)
    notation = notation.strip()
    if live.readable and notation:
        try:
            live.position = pos.position_after(game.kind_in_force, live.position, notation,
                                               black_again=placing and clock.handicap_stones_left > 1)
        except pos.IllegalNotation as error:
            # Named by the move the player made, short enough for a phone: never the position's FEN.
            if error.unreadable and game.kind_in_force == GameKind.GO:
                raise InvalidInput(_("%(notation)s is not a Go move (%(colour)s's move %(number)s): write a point"
                                     " such as D4 (a letter A-T without I and a number 1-19), or pass"),
                                   field="notation", notation=repr(notation), colour=colour_word(colour),
                                   number=number) from None
            if error.unreadable:
                raise InvalidInput(_("%(notation)s is not a Russian draughts move (%(colour)s's move %(number)s):"
                                     " write c3-d4, or c3:e5 for a capture"), field="notation",
                                   notation=repr(notation), colour=colour_word(colour), number=number) from None
            if error.why:  # Go: the point is taken, a suicide, or the ko (issue 36)
                raise InvalidInput(_("%(notation)s is not a legal move for %(colour)s's move %(number)s:"
                                     " %(reason)s"), field="notation", notation=repr(notation),
                                   colour=colour_word(colour), number=number,
                                   reason=go_reason(error.why)) from None
            if error.ways:
                raise InvalidInput(_("%(notation)s fits several captures for %(colour)s's move %(number)s: name"
                                     " the squares between (%(ways)s)"), field="notation",
                                   notation=repr(notation), colour=colour_word(colour), number=number,
                                   ways=error.ways) from None
            raise InvalidInput(_("%(notation)s is not a legal move for %(colour)s's move %(number)s"),
                               field="notation", notation=repr(notation), colour=colour_word(colour),
                               number=number) from None
    else:
        live.readable, live.position = False, ""
    end = pos.game_end(game.kind_in_force, live.position) if live.readable else None
    if mover.flag_fallen and end is None:  # a flag at the press's very instant: an overstep (000 12.9)
        raise _FlagAtPress(now_ms)
    append(game, rows, LiveEventKind.MOVE, now_ms, by=by, player=colour, number=number, notation=notation,
           lag_ms=lag_ms, ends_game=end is not None)
    pressed = fold_rows(game, clock, rows[-1:], now_ms)
    if end is not None:  # 002 6.7 a: the game ends with the move, at its instant, whatever the press
        decide(game, live, rows, move_end_verdict(end=end, mover=colour), now_ms, now_ms)
    else:
        settle(game, live, rows, pressed, now_ms)
    finish_write(game, live, rows, now_ms, pressed, pushed_by_caller=pushed_by_caller)
    return game


# --- arbiter actions ------------------------------------------------------------------------------

def _arbiter_action(game_id: int, by: User, now_ms: int | None):
    """The game locked for an arbiter's action, and the instant it happens at (:func:`at_lock`)."""
    live_check(game_id=game_id, now_ms=now_ms, taking_moves=True)
    game, live, rows = live_lock(game_id)
    now_ms = at_lock(now_ms)
    ensure_arbiter(game, by)
    ensure_running(game, live, now_ms)
    return game, live, rows, now_ms


def live_pause(*, game_id: int, by: User, reason: str = "", now_ms: int | None = None) -> Game:
    """The arbiter stops both clocks (002 6.12). :raises TurnConflict: when they are stopped already (409:
    another arbiter's pause came first)."""
    with transaction.atomic():
        game, live, rows, now_ms = _arbiter_action(game_id, by, now_ms)
        if clock_at(game, live, rows, now_ms).paused:
            raise TurnConflict(_("the clocks are stopped already"), field=None)
        append(game, rows, LiveEventKind.PAUSE, now_ms, by=by, reason=reason)
        clock_at(game, live, rows, now_ms)  # the engine's own check of the new event
        finish_write(game, live, rows, now_ms)
        return game


def live_resume(*, game_id: int, by: User, reason: str = "", now_ms: int | None = None) -> Game:
    """The arbiter restarts the clocks (002 6.13). :raises TurnConflict: when they are not stopped (409:
    another arbiter's resume came first)."""
    with transaction.atomic():
        game, live, rows, now_ms = _arbiter_action(game_id, by, now_ms)
        if not clock_at(game, live, rows, now_ms).paused:
            raise TurnConflict(_("the clocks are not stopped"), field=None)
        pending = pending_stop(game, live, rows)
        if pending is not None:  # the player's stop is ruled on, and the ruling restarts the clocks
            raise TurnConflict(_("%(colour)s stopped the clocks: rule on it first (the ruling restarts them)"),
                               field=None, colour=colour_word(pending.player))
        append(game, rows, LiveEventKind.RESUME, now_ms, by=by, reason=reason)
        clock_at(game, live, rows, now_ms)
        finish_write(game, live, rows, now_ms)
        return game


def live_adjust(*, game_id: int, by: User, player: str, seconds, reason: str, now_ms: int | None = None) -> Game:
    """Add (+) or take (-) time on ``player``'s clock: a sanction (003 17.4) or a correction (000 12.5, 001 1.7.8).

    A shortening may never leave less than the time control's ``min_after_correction_seconds`` to the
    control (draughts' 15 minutes, 000 12.5 and 001 1.7.8, in its presets; 0 by default), nor take all the
    time left. In byo-yomi the time goes to or from the current period (Canadian: block), in main time
    to or from the main time (003 12.14, 17.4 b and c; :meth:`corr.clock.live.clock._Walk.give`).
    :raises InvalidInput: naming ``seconds`` (the floor, or not a number) or ``player``.
    """
    with transaction.atomic():
        game, live, rows, now_ms = _arbiter_action(game_id, by, now_ms)
        colour = colour_checked(player)
        live_adjust_in(game, live, rows, colour=colour, delta_ms=round(float(seconds) * MS), now_ms=now_ms, by=by,
                       reason=reason)
        finish_write(game, live, rows, now_ms)
        return game


def live_adjust_in(game: Game, live: LiveGame, rows: list, *, colour: str, delta_ms: int, now_ms: int, by: User,
                   reason: str) -> None:
    """Store an adjustment of ``delta_ms`` on ``colour``'s clock in a locked game, refused as :func:`live_adjust`
    says (the floor, never all the time left). :raises InvalidInput: naming ``seconds``."""
    clock = clock_at(game, live, rows, now_ms)
    floor_ms = live_rules(game.tournament).min_after_correction_ms
    remaining = clock.players[colour].remaining_ms
    if delta_ms < 0 and remaining + delta_ms < floor_ms:
        raise InvalidInput(_("taking %(taken)s s would leave %(colour)s %(left)s s, under the %(floor)s s that"
                             " must remain to the control after a correction (000 12.5, 001 1.7.8)"),
                           field="seconds", taken=-delta_ms / MS, colour=colour_word(colour),
                           left=(remaining + delta_ms) / MS, floor=floor_ms / MS)
    if delta_ms < 0 and remaining + delta_ms <= 0:
        raise InvalidInput(_("taking %(taken)s s would leave %(colour)s no time: a sanction may not take all the"
                             " time left; declaring the game lost is a sanction of its own (003 17.4 d)"),
                           field="seconds", taken=-delta_ms / MS, colour=colour_word(colour))
    append(game, rows, LiveEventKind.ADJUST, now_ms, by=by, player=colour, delta_ms=delta_ms,
           reason=reason[:LIVE_TEXT_MAX])
    clock_at(game, live, rows, now_ms)  # the engine's own check of the new event


def live_illegal(*, game_id: int, by: User, player: str, reason: str = "", now_ms: int | None = None) -> Game:
    """The arbiter declares an illegal move of ``player`` (003 13.4): time to the opponent, or a loss.

    The time and the count are the time control's ``illegal_move_seconds`` and ``illegal_move_limit``.
    """
    with transaction.atomic():
        game, live, rows, now_ms = _arbiter_action(game_id, by, now_ms)
        colour = colour_checked(player)
        append(game, rows, LiveEventKind.ILLEGAL, now_ms, by=by, player=colour, reason=reason)
        settle(game, live, rows, clock_at(game, live, rows, now_ms), now_ms)
        finish_write(game, live, rows, now_ms)
        return game


def live_result(*, game_id: int, by: User, result: str, termination: str = "", now_ms: int | None = None) -> Game:
    """The arbiter records the result (a case decided, an agreed draw, a late arrival ruled on): the clocks stop."""
    with transaction.atomic():
        game, live, rows = live_lock(game_id)
        now_ms = at_lock(now_ms)
        ensure_arbiter(game, by)
        if game.status != GameStatus.ONGOING:
            raise TurnConflict(_("the game is over: %(termination)s"), field="result",
                               termination=game.termination or game.result)
        text = termination or f"result {result} recorded by the arbiter"
        ended = max(now_ms, live.starts_at_ms)
        if live.case and any(r.kind == LiveEventKind.FLAG for r in rows):
            ended = min(ended, max(r.at_ms for r in rows if r.kind == LiveEventKind.FLAG))
        decide(game, live, rows, Verdict(text, result=result), ended, now_ms, by=by)
        finish_write(game, live, rows, now_ms)
        return game


def live_reopen(*, game_id: int, by: User, note: str, now_ms: int | None = None) -> Game:
    """The arbiter sets a finished live game back to ongoing (``POST /api/games/{id}/reopen/``: a result recorded
    by mistake), as a correspondence game is reopened.

    The clocks stand from the instant the game ended (a ``pause`` clock event at that instant, unless they stood
    already) until the arbiter restarts them (002 6.13): the time the game stood finished is no one's. The
    result stays in the history, a ``reopen`` line after it says what it was and why. A flag that ended the
    game stays fallen (the arbiter may give time, 003 17.4 b). A forfeit the clock counts (late arrival, the
    third illegal move) would end the game again at once, and a stop that resigned is ruled on: those are
    refused, the late arrival and the stop having their own reopenings (:func:`live_excuse`,
    ``corr.live.stops.live_ruling``).
    :raises TurnConflict: the game is not finished, was ended by a forfeit or by a player's stop (409).
    :raises InvalidInput: a blank ``note``.
    :raises NotAllowed: not an arbiter of the tournament (or a player of the game).
    """
    with transaction.atomic():
        game, live, rows = live_lock(game_id)
        now_ms = at_lock(now_ms)
        ensure_arbiter(game, by)
        if game.status == GameStatus.ONGOING:
            raise TurnConflict(_("the game is not finished: nothing to reopen"), field="game")
        note = (note or "").strip()
        if not note:
            raise InvalidInput(_("note is required: say why the game is reopened"), field="note")
        stop = pending_stop(game, live, rows)
        if stop is not None and stop.kind == RESIGNED:  # its ruling reopens it, restarting the clocks
            raise TurnConflict(_("%(colour)s stopped the clocks: rule on it first (the ruling restarts them)"),
                               field="game", colour=colour_word(stop.player))
        ended_ms = now_ms if live.ended_at_ms is None else min(live.ended_at_ms, now_ms)
        at_end = clock_at(game, live, rows, ended_ms)
        if at_end.forfeit:  # counted by every replay: the game would end again at once
            raise TurnConflict(_("the game was ended by a forfeit (%(rule)s) that its clock counts: reopened, it would"
                                 " end again at once; the arbiter excuses a late arrival instead (002 6.6, 003 12.7)"),
                               field="game", rule=at_end.forfeit.get("rule") or at_end.forfeit.get("reason"))
        if not at_end.paused:
            append(game, rows, LiveEventKind.PAUSE, now_ms, by=by, at_ms=ended_ms,
                   reason="the clocks stand from the end of the game until the arbiter restarts them (002 6.13)")
        was = f"{game.result}, {game.termination}" if game.termination else game.result
        game.status, game.result, game.termination = GameStatus.ONGOING, GameResult.NONE, ""
        live.ended_at_ms, live.case = None, ""
        append(game, rows, LiveEventKind.REOPEN, now_ms, by=by, reason=f"reopened (was {was}): {note}"[:LIVE_TEXT_MAX])
        clock_at(game, live, rows, now_ms)  # the engine's own check of the new events
        finish_write(game, live, rows, now_ms)
        return game


def live_excuse(*, game_id: int, by: User, player: str, reason: str, now_ms: int | None = None) -> Game:
    """The arbiter decides otherwise on ``player``'s late arrival (002 6.6, 003 12.7): the forfeit is lifted.

    Only a game that the late-arrival forfeit of ``player`` ended can be excused: the excuse is stored
    as a clock event with its reason (``LiveExcuse``: the engine no longer counts the forfeit, in this
    computation and every replay), the game is reopened (the result stays in the history, a ``reopen``
    line after it says what it was), and the clocks are recomputed at ``now_ms``: the player's clock
    ran on all along, as it does for a player who is there but does not move. A flag that fell
    meanwhile is then recorded as any other.
    :raises InvalidInput: a blank ``reason``, a ``player`` that is not a colour.
    :raises TurnConflict: the game was not ended by ``player``'s late arrival (naming 002 6.6 / 003 12.7).
    :raises NotAllowed: not an arbiter of the tournament (or a player of the game).
    """
    live_check(game_id=game_id, now_ms=now_ms, taking_moves=True)  # a forfeit due now is recorded first, then excused
    with transaction.atomic():
        game, live, rows = live_lock(game_id)
        now_ms = at_lock(now_ms)
        ensure_arbiter(game, by)
        colour = colour_checked(player)
        reason = (reason or "").strip()
        if not reason:
            raise InvalidInput(_("reason is required: say why the arbiter decides otherwise on the late arrival"
                                 " (002 6.6, 003 12.7)"), field="reason")
        rule = _late_rule(game)
        clock = clock_at(game, live, rows, now_ms)  # at the instant the game ended, if it did
        forfeit = clock.forfeit or {}
        ended_by_it = (game.status == GameStatus.FINISHED and live.ended_at_ms is not None
                       and forfeit.get("reason") == "late_arrival" and forfeit.get("player") == colour
                       and forfeit.get("at_ms") == live.ended_at_ms)
        if not ended_by_it:
            raise TurnConflict(_("there is no late-arrival forfeit of %(colour)s to excuse: only a game that %(rule)s"
                                 " ended (no move within the default time) is reopened by the arbiter's"
                                 " decision"), field="player", colour=colour_word(colour), rule=rule)
        was = f"{game.result}, {game.termination}" if game.termination else game.result
        game.status, game.result, game.termination = GameStatus.ONGOING, GameResult.NONE, ""
        live.ended_at_ms, live.case = None, ""
        append(game, rows, LiveEventKind.EXCUSE, now_ms, by=by, player=colour,
               reason=f"{rule}: {reason}"[:LIVE_TEXT_MAX])
        append(game, rows, LiveEventKind.REOPEN, now_ms, by=by, player=colour,
               reason=record_text("livelog_reopened_late", was=was, rule=rule)[:LIVE_TEXT_MAX])
        settle(game, live, rows, clock_at(game, live, rows, now_ms), now_ms)
        finish_write(game, live, rows, now_ms)
        return game


def _late_rule(game: Game) -> str:
    """The late-arrival rule of the game's clock: Go's (black first, 003 12.7) or chess's (002 6.6)."""
    return "003 12.7" if live_rules(game.tournament).first == "black" else "002 6.6"
