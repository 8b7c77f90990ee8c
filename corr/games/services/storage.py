"""The common path of every event: lock, validate with the calculator, store, update the clocks."""

from __future__ import annotations

from datetime import date
from functools import cache

import orjson
from django.db import IntegrityError, connection
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock import ClockError, EventError
from corr.models import CaseKind, Game, GameEvent, GameStatus, Mode, OverstepCase, PlayerClock

from ..cases import CaseChanges, cases_follow
from ..clock_messages import ClockRefusal
from ..clockstate import GameTime, assemble_game, clock_day, counts_instants, game_time
from ..records import record_text
from ..errors import GameOver, InvalidInput, NotAllowed, TurnConflict
from ..flagclock import flag_schedule_on_commit
from ..selectors import game_rows
from .prepared import Prepared
from .trips import Trip


def game_lock(game: Game) -> tuple[Game, list[GameEvent]]:
    """Lock the game row for this transaction and read its events (PostgreSQL: SELECT ... FOR UPDATE)."""
    # of=("self",): lock the game row only; a join would lock the tournament too and deadlock
    # with a rule change, which locks the tournament and then its games.
    locked = Game.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game.pk)
    rows = game_rows(game=locked)
    return locked, rows


def events_store(game: Game, rows: list[GameEvent], new: list[GameEvent], today: date, *,
                 cause: str | None = None, by: User | None = None,
                 cases: list[OverstepCase] | None = None) -> GameTime:
    """Validate ``rows + new`` with the calculator, then save ``new``, the clocks and the cases; or store nothing.

    The game's cases follow the new facts at once (``cases_follow``): ``cause``
    (default: a description of ``new``) is the reason a withdrawn case quotes.
    ``cases``: the game's live cases if the caller read them (``game_lock_read``).
    Nothing is e-mailed here: the nightly run announces what its re-check finds.
    """
    return events_store_changes(game, rows, new, today, cause=cause, by=by, cases=cases)[0]


def _clock_start_follow(game: Game, new: list[GameEvent]) -> None:
    """A move recorded at an instant before the game's own clock start (``Game.clock_start``: its creation) was
    played before corr recorded the game, as an import's: the clock starts at the official start again. A move
    made on the server is never before its game, so this costs a server move no statement."""
    start = game.clock_start
    if start is not None and any(row.sent_at is not None and row.sent_at < start for row in new):
        game.clock_start = None
        Game.objects.filter(pk=game.pk).update(clock_start=None)


def events_store_changes(game: Game, rows: list, new: list[GameEvent], today: date, *,
                         cause: str | None = None, by: User | None = None,
                         cases: list[OverstepCase] | None = None,
                         trip: Trip | None = None, as_of: date | None = None,
                         keep_open: bool = False, position: dict | None = None) -> tuple[GameTime, CaseChanges]:
    """``events_store``, with what the cases did (a registered-mail case opened by ``new``, say).

    The game's time is computed once: the clocks stored and the cases follow it
    (a second computation only for a move still in transit, stored as of its arrival).
    ``trip``: the transaction ``game_lock_read`` began (PostgreSQL, outside
    ``atomic``); when no case changes, the store's statement also commits it.
    ``as_of``: what the clock is computed as of, when not ``today`` (a server
    move's instant under an instant count, ``clock_as_of``).
    ``keep_open``: more statements follow in ``trip`` (a conditional tree's, issue 28): the store never commits it.
    ``position``: the board after a server move (``corr.games.position.position_after``), kept with the new
    version in the same statement; None: none is kept (whatever was kept is cleared).
    """
    as_of = today if as_of is None else as_of
    _clock_start_follow(game, new)
    next_seq = seq_next(rows)
    for offset, row in enumerate(new):
        row.game = game
        row.seq = next_seq + offset
    candidate = rows + new
    try:
        time = game_time(game, candidate, as_of)
    except ClockError as error:
        raise error_explained(error, game, candidate, as_of, {row.seq for row in new}) from None
    stored = time_for_storage(game, candidate, today, time)
    # The cases are worked out before anything is written and written after the events (their
    # history lines follow them): an ordinary move, which changes no case, stores in one statement.
    changes = cases_follow(game=game, time=time, rows=candidate, on=today, cause=cause or cause_of(new, game),
                           by=by if by is not None else (new[0].entered_by if new else None), new_rows=new,
                           cases=cases, write=False)
    if connection.vendor == "postgresql":
        events_version_clocks_write(game, new, stored, trip=trip, last=not changes.writes and not keep_open,
                                    position=position)
    else:
        try:
            # No savepoint: on an IntegrityError the caller's transaction is rolled back whole.
            for row in new:
                row.save()
        except IntegrityError:
            raise _changed_meanwhile() from None
        version_raise(game, position=position)
        clocks_write([(game.pk, colour, fields) for colour, fields in clock_fields(game, stored).items()])
    if counts_instants(game):
        late = any(c.kind == CaseKind.OVERSTEP for c in changes.opened)
        flag_schedule_on_commit(game_id=game.pk, fields=clock_fields(game, stored),
                                now=time.clock.as_of if late else None)
    return time, changes.apply()


def _changed_meanwhile() -> TurnConflict:
    # Only reachable if the row lock was bypassed: the unique (game, seq) still keeps one.
    return TurnConflict(_("the game changed while this request was handled; reload it and retry"), field="number")


_EVENT_COLUMNS = ("game_id", "seq", "kind", "player", "number", "notation", "received_on", "sent_on", "received_at",
                  "sent_at", "void",
                  "variant", "mail", "reason", "days", "note", "supersedes_id", "entered_by_id", "entered_at")


def seq_next(rows) -> int:
    """The ``seq`` the next event of a game whose events are ``rows`` (in sequence) is stored with."""
    return (rows[-1].seq if rows else 0) + 1


def events_version_clocks_write(game: Game, new: list[GameEvent], time: GameTime, *, trip: Trip | None = None,
                                last: bool = False, position: dict | None = None) -> None:
    """PostgreSQL: insert ``new``, raise the game's version and write both clocks, in one statement.

    Data-modifying CTEs run together in one statement and one snapshot; the
    caller holds the game's row lock, so the version written with the clocks
    is ``game.events_version + 1``. The clocks are upserted with
    ``clocks_write``'s rule (never older over newer), so a game whose clock
    rows do not exist yet (created before clocks were stored) gets them here.
    ``trip``: the statement runs in that transaction, and commits it if ``last``. ``position``: kept on the
    game with the new version (``Game.position``); None clears it.
    """
    version = game.events_version + 1
    fields = clock_fields(game, time, version)
    kept = position_versioned(position, version)
    params = [None if kept is None else orjson.dumps(kept).decode(), game.pk,
              *(v for colour, f in fields.items() for v in (game.pk, colour, *(f[c] for c in CLOCK_FIELDS))),
              *(v for row in new for v in (game.pk, *(getattr(row, c) for c in _EVENT_COLUMNS[1:])))]
    statement = _store_statement(len(new), len(fields))
    try:
        with connection.cursor() as cursor:
            text = statement.text(cursor)
            if trip is None:
                cursor.execute(text, params)
            else:
                trip.execute(cursor, text, params, last=last)
            ids = dict(cursor.fetchall())
    except IntegrityError:
        raise _changed_meanwhile() from None
    for row in new:
        row.id = ids[row.seq]
        row._state.adding = False
    game.events_version = version
    game.position = kept


def position_versioned(position: dict | None, version: int) -> dict | None:
    """``position`` as the game keeps it at events version ``version`` (``corr.games.position``)."""
    return None if position is None else {**position, "version": version}


@cache
def _store_statement(events: int, clocks: int) -> Prepared:
    """The store's statement for ``events`` new rows and ``clocks`` clocks (written once per shape).

    Parameters: the position kept (JSON text or None), the game's id; per clock the game's id, the colour and
    ``CLOCK_FIELDS``; per event ``_EVENT_COLUMNS``. It returns each new event's (seq, id).
    """
    columns = ", ".join(CLOCK_FIELDS)
    clock_row = "(%s, %s::varchar, " + ", ".join(f"%s::{_CLOCK_TYPES[c]}" for c in CLOCK_FIELDS) + ", now())"
    event_row = "(" + ", ".join(["%s"] * len(_EVENT_COLUMNS)) + ")"
    sql = ("WITH gv AS (UPDATE corr_game SET events_version = events_version + 1, position = %s::jsonb"
           " WHERE id = %s)"
           f", ck AS (INSERT INTO corr_playerclock AS c (game_id, player, {columns}, updated_at)"
           f" VALUES {', '.join([clock_row] * clocks)} ON CONFLICT (game_id, player) DO UPDATE SET"
           f" {', '.join(f'{c} = EXCLUDED.{c}' for c in CLOCK_FIELDS)}, updated_at = EXCLUDED.updated_at"
           " WHERE (c.events_version, c.computed_on) <= (EXCLUDED.events_version, EXCLUDED.computed_on))")
    if events:
        sql += (f", ev AS (INSERT INTO corr_gameevent ({', '.join(_EVENT_COLUMNS)})"
                f" VALUES {', '.join([event_row] * events)} RETURNING id, seq) SELECT seq, id FROM ev")
    else:
        sql += " SELECT -1, -1"  # the CTEs run all the same: a statement's data changes always complete
    return Prepared(f"corr_events_store_{events}_{clocks}", sql)


def cause_of(new: list[GameEvent], game: Game) -> str:
    """What a list of new rows is, in words, for the reason of a withdrawn case."""
    if not new:
        return record_text("cause_recomputed", game=game.pk)
    row = new[-1]
    if row.supersedes_id is not None:
        if row.kind == "withdrawal":
            return record_text("cause_withdrawn", player=row.player)
        return record_text("cause_corrected", player=row.player, kind=row.kind.replace("_", " "))
    if row.kind == "move":
        return record_text("cause_move", player=row.player, number=row.number)
    if row.kind == "receipt":
        return record_text("cause_receipt", player=row.player, day=row.received_on)
    return record_text("cause_recorded", player=row.player, kind=row.kind.replace("_", " "))


def time_sources(game: Game, rows, today: date):
    return assemble_game(game, rows, today).sources


def error_explained(error: ClockError, game: Game, rows, as_of: date, new_seqs: set[int]) -> ClockRefusal:
    """The calculator's refusal of ``rows`` (the stored ones and the ``new_seqs`` being added) as the service's:
    worded in the reader's language when read, naming the event at fault by its history #
    (``corr.games.clock_messages``), its field the form's (``sent_on``), not the calculator's path."""
    if not isinstance(error, EventError):
        return ClockRefusal(error, field=error.field, game=game, rows=rows)
    field = error.field.split(".", 1)[1] if "." in (error.field or "") else None
    return ClockRefusal(error, field=field, game=game, rows=rows, sources=time_sources(game, rows, as_of),
                        new_seqs=new_seqs)


def clock_store(*, game: Game, rows, today: date, time: GameTime | None = None) -> None:
    """Store both players' current accounts beside the game (the nightly job selects by them).

    A move still presumed in transit runs no clock; its player's account is
    stored as of the presumed arrival, so the stored deadline is already right.
    ``game.events_version`` must be the version ``rows`` are (the caller holds the row lock).
    """
    time = time_for_storage(game, rows, today, time)
    fields = clock_fields(game, time)
    clocks_write([(game.pk, colour, f) for colour, f in fields.items()])
    if counts_instants(game):
        flag_schedule_on_commit(game_id=game.pk, fields=fields)


_CLOCK_TYPES = {"on_move": "boolean", "made": "integer", "control_number": "integer", "total_days": "integer",
                "remaining_days": "integer", "deadline": "date", "time_trouble": "boolean",
                "overstepped_control": "integer", "flagged": "boolean", "computed_on": "date",
                "events_version": "integer", "flag_at": "timestamptz"}


def clocks_write(items: list[tuple[int, str, dict]]) -> None:
    """Write stored clocks, ``(game id, colour, fields)``, in one statement per 1,000 on PostgreSQL.

    A stored clock is overwritten only by one at least as new: a higher
    ``events_version``, or the same version computed as of the same or a later
    date. So a nightly run for an earlier date, or one that read the game
    before a concurrent move committed, never writes an older clock over a
    newer one (the comparison is in the UPDATE's WHERE, which PostgreSQL
    re-checks against the committed row after a concurrent writer).

    ``UPDATE ... FROM (VALUES ...)`` joins on the (game, player) unique index;
    Django's ``bulk_update`` would build a CASE per column and row (seconds for
    a night's thousands). A clock that does not exist yet is created.
    """
    if not items:
        return
    if connection.vendor != "postgresql":
        for game_id, colour, fields in items:
            newer = Q(events_version__lt=fields["events_version"]) | Q(
                events_version=fields["events_version"], computed_on__lte=fields["computed_on"])
            if not PlayerClock.objects.filter(newer, game_id=game_id, player=colour).update(**fields):
                PlayerClock.objects.get_or_create(game_id=game_id, player=colour, defaults=fields)
        return
    columns = list(CLOCK_FIELDS)
    placeholders = "(%s::bigint, %s::varchar, " + ", ".join(f"%s::{_CLOCK_TYPES[c]}" for c in columns) + ")"
    assignments = ", ".join(f"{c} = v.{c}" for c in columns)
    updated = 0
    with connection.cursor() as cursor:
        for start in range(0, len(items), 1000):
            batch = items[start:start + 1000]
            values = [v for game_id, colour, fields in batch for v in (game_id, colour, *(fields[c] for c in columns))]
            cursor.execute(
                f"UPDATE corr_playerclock AS c SET {assignments}, updated_at = now()"
                f" FROM (VALUES {', '.join([placeholders] * len(batch))}) AS v(game_id, player, {', '.join(columns)})"
                " WHERE c.game_id = v.game_id AND c.player = v.player"
                " AND (c.events_version, c.computed_on) <= (v.events_version, v.computed_on)", values)
            updated += cursor.rowcount
    if updated < len(items):
        for game_id, colour, fields in items:
            PlayerClock.objects.get_or_create(game_id=game_id, player=colour, defaults=fields)


def time_for_storage(game: Game, rows, today: date, time: GameTime | None = None) -> GameTime:
    """The game time to store: as of today, or as of the presumed arrival of a move still in transit.

    Nothing runs while a move travels (50.4.3), so the accounts at its arrival
    are today's, with the deadline already known.
    """
    time = time or game_time(game, rows, today)
    pending = time.assembled.pending
    # A server game's move arrives when it is sent (and its instants do not compare with a date).
    if (game.mode != Mode.SERVER and pending is not None and pending.received_on is not None
            and pending.received_on > today):
        return game_time(game, rows, pending.received_on)
    return time


CLOCK_FIELDS = ("on_move", "made", "control_number", "total_days", "remaining_days", "deadline", "time_trouble",
                "overstepped_control", "flagged", "computed_on", "events_version", "flag_at")


def clock_fields(game: Game, time: GameTime, events_version: int | None = None) -> dict[str, dict]:
    """The stored columns of each player's ``PlayerClock`` for a computed game time.

    ``events_version``: the version the clocks are of (default: the game's).
    """
    ongoing = game.status == GameStatus.ONGOING
    instants = ongoing and counts_instants(game)
    computed_on = clock_day(game, time.clock.as_of)
    out = {}
    for colour, account in time.clock.accounts.items():
        over = account.overstepped
        # The flag sweep's column (issue 22): only a server game under an instant count falls between
        # two nights, and only until its overstep is recorded (then the case, or the result, holds it).
        flag_at = getattr(account, "flag_at", None) if instants and over is None else None
        out[colour] = dict(
            on_move=time.assembled.to_move == colour, made=account.made,
            control_number=account.control.number, total_days=account.total_days,
            remaining_days=account.remaining_days, deadline=account.deadline if ongoing else None,
            time_trouble=account.time_trouble, overstepped_control=over.control if over else None,
            flagged=ongoing and (account.time_trouble or over is not None), computed_on=computed_on,
            events_version=game.events_version if events_version is None else events_version,
            flag_at=flag_at if time.assembled.to_move == colour else None,
        )
    return out


def game_recompute(game: Game, *, by: User | None, today: date, cause: str,
                   as_of: date | None = None) -> GameTime:
    """After a change that is not an event (a result, a reopening, new rules): new version, clocks and cases.

    The caller holds the game's row lock. ``as_of``: what the clock is
    computed as of when not ``today`` (an instant: a server game's flag check).
    """
    rows = game_rows(game=game)
    time = game_time(game, rows, today if as_of is None else as_of)
    version_raise(game)
    clock_store(game=game, rows=rows, today=today, time=time)
    cases_follow(game=game, time=time, rows=rows, on=today, cause=cause, by=by)
    return time


def event_new(by: User, kind: str, player: str, **fields) -> GameEvent:
    return GameEvent(kind=kind, player=player, entered_by=by, **fields)


def player_colour_of(game: Game, by: User) -> str:
    colour = game.colour_of(by)
    if colour is None:
        raise NotAllowed(_("you are not a player of this game"))
    return colour


def ensure_ongoing(game: Game) -> None:
    if game.status != GameStatus.ONGOING:
        raise GameOver(_("the game is over (%(result)s)"), field="game", result=game.result or game.status)


def ensure_not_after_today(value: date | None, field: str, today: date, game: Game) -> None:
    if value is not None and value > today:
        raise InvalidInput(_("%(name)s %(value)s is after today (%(today)s in %(zone)s)"), field=field, name=field,
                           value=value, today=today, zone=game.tournament.time_zone)


def reason_checked(enum, value: str, field: str = "reason"):
    """``value`` as a member of the rule's reason ``enum``. :raises InvalidInput: naming the known reasons."""
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(member.value for member in enum)
        raise InvalidInput(_("unknown %(name)s %(value)s (known: %(known)s)"), field=field, name=field,
                           value=repr(value), known=known) from None


_KEEP = object()


def version_raise(game: Game, *, position=_KEEP) -> None:
    """Mark the game's clock changed (in this transaction): cached clocks of the old version are not read again.

    The caller holds the game's row lock, so ``game.events_version + 1`` is the
    stored value: the clocks written next carry it. ``position``: the board kept at the new version (a dict,
    or None to clear it, ``events_store_changes``); not given, the kept one is left, stale from now on.
    """
    if position is _KEEP:
        Game.objects.filter(pk=game.pk).update(events_version=F("events_version") + 1)
        game.events_version += 1
        return
    kept = position_versioned(position, game.events_version + 1)
    Game.objects.filter(pk=game.pk).update(events_version=F("events_version") + 1, position=kept)
    game.events_version += 1
    game.position = kept
