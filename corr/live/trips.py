"""A live write's statements in few round trips (issue 27: "a press in few statements").

Every write of a live game is one transaction (:mod:`corr.live.write`): lock the game, read its live row and
its events, compute, append events, bump the versions and keep the engine's snapshot, commit. Through the
ORM that was seven round trips to PostgreSQL (BEGIN, the locked game, the events, one INSERT per event, two
UPDATEs, COMMIT) and most of a press's time. Here, on PostgreSQL:

- :func:`lock_game`: the game row locked (``FOR UPDATE OF`` the game only: a rule change locks the tournament,
  then its games), its tournament and live row joined, and the events read after the lock, in one execute
  (psycopg's client-side binding sends both statements as one query);
- :func:`store`: every new event and the two updates in one statement (data-modifying ``WITH``).

So a write is four round trips (BEGIN, :func:`lock_game`, :func:`store`, COMMIT), and a press in
:func:`press_transaction` two: BEGIN sent with :func:`lock_game`'s query and COMMIT with :func:`store`'s, as a
correspondence move's (:mod:`corr.games.services.trips`, issue 13). A press on the rows this process knows
(:mod:`corr.live.known`, issue 42: every :func:`store` and :func:`read_game` returns them) is one: no locking read,
and :func:`store`'s statement conditional on those rows being the rows still (:class:`KnownPress`). SQLite (the
embedded run) runs the same statements one by one: no network, and its transaction is IMMEDIATE, so the lock is taken by
BEGIN. The SQL is built from the models' metadata and every value goes through the fields' own conversions
(``from_db_value``, ``get_db_prep_save``), as the ORM's compilers do: the instances returned are the ORM's
own (``Model.from_db``), with the tournament and the live row cached on the game as ``select_related`` would.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections import OrderedDict, namedtuple
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction

from corr.games.services.prepared import Prepared
from corr.games.services.trips import Trip, trip, usable
from corr.models import Game, LiveEvent, LiveEventKind, LiveGame, Tournament

from .known import Known, forget, recall, remember, window

logger = logging.getLogger(__name__)

_current: ContextVar[Trip | None] = ContextVar("corr_live_trip", default=None)
"""The trip of the :func:`press_transaction` running in this thread, if any."""

LIVE_EVENT_FIELDS = ("seq", "kind", "player", "number", "notation", "at_ms", "lag_ms", "delta_ms", "from_ms",
                     "reason", "entered_by_id", "entered_at", "ends_game")
"""The columns of a game's events that the writes and the reads of the live state use (``live_rows``)."""

LiveRow = namedtuple("LiveRow", LIVE_EVENT_FIELDS)
"""A stored event as the live state reads it (read-only)."""


class Window(list):
    """A game's events as a write or a read of its state needs them (issue 42: a press reads what it needs, not
    every event of the game): :class:`LiveRow` values in sequence, from the one the snapshot folds
    (``LiveGame.snapshot_seq``) to the last, with every event that is not a move and the last move.

    What the writes and :mod:`corr.live.state` ask of a game's events is answered by it as by every event: the
    clock from the snapshot and the events after it, the recorded flags, a pending stop (the last stop, pause or
    restart), the last event and the latest instant a clock ran to. A full replay (no snapshot, or one that no
    longer fits) reads every event again (:func:`corr.live.state.clock_at`).
    """

    complete = False
    """Not every event of the game: only the window."""


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _steps(fields, alias: str) -> list[tuple]:
    """Per field, the column expression and the converters the ORM applies to a value read (backend's, then
    the field's): what ``SQLCompiler.apply_converters`` does."""
    out = []
    for field in fields:
        col = field.get_col(alias)
        out.append((col, connection.ops.get_db_converters(col) + field.get_db_converters(connection)))
    return out


def _converted(values, steps) -> list:
    out = []
    for value, (col, converters) in zip(values, steps, strict=True):
        for convert in converters:
            value = convert(value, col, connection)
        out.append(value)
    return out


def _event_fields() -> list:
    by_attname = {f.attname: f for f in LiveEvent._meta.concrete_fields}
    return [by_attname[name] for name in LIVE_EVENT_FIELDS]


class _Plan:
    """The SQL and the converters of one database connection, made once (the SQL depends on its vendor, the
    converters are bound to its operations)."""

    def __init__(self) -> None:
        game, tournament, live, event = Game._meta, Tournament._meta, LiveGame._meta, LiveEvent._meta
        self.models = [(Game, "g"), (Tournament, "t"), (LiveGame, "l")]
        self.steps = {model: _steps(model._meta.concrete_fields, alias) for model, alias in self.models}
        self.attnames = {model: [f.attname for f in model._meta.concrete_fields] for model, _alias in self.models}
        columns = ", ".join(f"{alias}.{_q(f.column)}" for model, alias in self.models
                            for f in model._meta.concrete_fields)
        lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
        # The rows' versions as PostgreSQL keeps them (``xmin``: the transaction that wrote each row as read), for
        # what this process knows of a game (corr.live.known.Known); the other backends have none.
        self.stamped = connection.vendor == "postgresql"
        stamps = ", g.xmin::text, t.xmin::text, l.xmin::text" if self.stamped else ""
        self.read_sql = (
            f"SELECT {columns}{stamps} FROM {_q(game.db_table)} g JOIN {_q(tournament.db_table)} t"
            f" ON t.{_q(tournament.pk.column)} = g.{_q(game.get_field('tournament').column)}"
            f" LEFT JOIN {_q(live.db_table)} l ON l.{_q(live.get_field('game').column)} = g.{_q(game.pk.column)}"
            f" WHERE g.{_q(game.pk.column)} = %s")
        self.lock_sql = self.read_sql + lock
        fields = _event_fields()
        self.event_steps = _steps(fields, event.db_table)
        columns = ", ".join(_q(f.column) for f in fields)
        table, game_col, seq, kind = (_q(event.db_table), _q(event.get_field("game").column), _q("seq"),
                                      _q("kind"))
        self.events_sql = f"SELECT {columns} FROM {table} WHERE {game_col} = %s ORDER BY {seq}"
        # The window (issue 42): three index scans, each bounded whatever the length of the game. The events
        # from the snapshot's on (its own, the last, and any after it), every event that is not a move (the
        # records and the arbiters' clock events the writes ask about: flags, stops, pauses; the partial index
        # ``live_event_not_move``), and the last move (the latest instant a clock ran to, moves being stamped
        # in order). ``MOVE`` is a constant of the model, written into the SQL so the planner matches the
        # partial index's predicate.
        move = f"'{LiveEventKind.MOVE.value}'"
        snapshot_seq = (f"COALESCE((SELECT {_q(live.get_field('snapshot_seq').column)} FROM {_q(live.db_table)}"
                        f" WHERE {_q(live.get_field('game').column)} = %s), 0)")
        rest = (f" UNION SELECT {columns} FROM {table} WHERE {game_col} = %s AND NOT ({kind} = {move})"
                f" UNION SELECT {columns} FROM {table} WHERE {game_col} = %s AND {seq} = (SELECT MAX({seq})"
                f" FROM {table} WHERE {game_col} = %s AND {kind} = {move}) ORDER BY {seq}")
        self.window_sql = f"SELECT {columns} FROM {table} WHERE {game_col} = %s AND {seq} >= {snapshot_seq}{rest}"
        # The same window from a snapshot_seq given (read before it): _WINDOW_PARAMS less one placeholder.
        self.window_from_sql = f"SELECT {columns} FROM {table} WHERE {game_col} = %s AND {seq} >= %s{rest}"
        # PostgreSQL plans these once per session (``PREPARE``) and runs them by name after: planning the window's
        # three scans and the locking join on every press was PostgreSQL's work twice over, on the press's path.
        self.lock = Prepared("corr_live_lock", self.lock_sql)
        self.read = Prepared("corr_live_read", self.read_sql)
        self.window = Prepared("corr_live_window", self.window_sql)
        self.insert_fields = [f for f in event.concrete_fields if not f.primary_key]
        self.insert_head = (f"INSERT INTO {_q(event.db_table)} ({', '.join(_q(f.column) for f in self.insert_fields)})"
                            " VALUES ")
        self.insert_row = "(" + ", ".join(["%s"] * len(self.insert_fields)) + ")"
        # A conditional insert selects its rows from VALUES, whose parameters carry their columns' types.
        # A text goes as text, not as the column's varchar(n), which would cut a value too long where the plain
        # insert refuses it.
        self.insert_typed_row = "(" + ", ".join(
            f"%s::{'text' if f.get_internal_type() == 'CharField' else f.cast_db_type(connection)}"
            for f in self.insert_fields) + ")"
        # What a write returns: the rows as it left them in the read's shape (stamps included), then its events.
        self.returning = {model: ", ".join(_q(f.column) for f in model._meta.concrete_fields) + ", xmin::text"
                          for model in (Game, LiveGame)}
        written = ", ".join([*(f"wg.{_q(f.column)}" for f in game.concrete_fields),
                             *(f"t.{_q(f.column)}" for f in tournament.concrete_fields),
                             *(f"wl.{_q(f.column)}" for f in live.concrete_fields)])
        # A row whenever the game's update wrote (the tournament joined LEFT: a write is never taken for stale).
        self.written_sql = (f"SELECT {written}, wg.xmin, t.xmin::text, wl.xmin FROM wg"
                            f" LEFT JOIN {_q(tournament.db_table)} t"
                            f" ON t.{_q(tournament.pk.column)} = wg.{_q(game.get_field('tournament').column)}"
                            f" CROSS JOIN wl")
        self.added = Prepared("corr_live_added", f"SELECT {columns} FROM {table} WHERE {game_col} = %s AND {seq} > %s"
                                                 f" ORDER BY {seq}")
        # Nothing changed since the rows known (corr.live.known): the game row of its version, locked (a writer
        # that holds it commits first, and the row is judged again as it left it), its tournament of its version,
        # no event after the last known. The live row's version is checked by its own update, also after any wait.
        # The tournament and the events are judged on the statement's snapshot, as the locking read judges the
        # tournament: a writer committing while this one waits for the lock is caught by the game or live row,
        # which every write of events updates (corr.live.write.finish_write).
        self.unchanged_sql = (
            f"SELECT g.{_q(game.pk.column)} FROM {_q(game.db_table)} g WHERE g.{_q(game.pk.column)} = %s"
            f" AND g.xmin = %s::xid AND EXISTS (SELECT 1 FROM {_q(tournament.db_table)} t"
            f" WHERE t.{_q(tournament.pk.column)} = g.{_q(game.get_field('tournament').column)} AND t.xmin = %s::xid)"
            f" AND NOT EXISTS (SELECT 1 FROM {table} WHERE {game_col} = %s AND {seq} > %s) FOR UPDATE")
        self.updates: dict[tuple, tuple[str, list]] = {}
        self.stores: dict[str, Prepared] = {}

    def prepared(self, sql: str) -> Prepared:
        """``sql`` (a :func:`store` statement) as a statement prepared under a name of its own text: a write's
        shape (its events, its fields) is one of a few the code makes, each planned once per session."""
        found = self.stores.get(sql)
        if found is None:
            found = self.stores[sql] = Prepared(f"corr_live_store_{hashlib.sha1(sql.encode()).hexdigest()[:16]}", sql)
        return found

    def update(self, model, names: tuple[str, ...]) -> tuple[str, list]:
        """``UPDATE`` of ``names`` of one ``model`` row by its key: the SQL and the fields, made once per set."""
        if (model, names) not in self.updates:
            meta = model._meta
            fields = [meta.get_field(name) for name in names]
            self.updates[(model, names)] = (
                f"UPDATE {_q(meta.db_table)} SET {', '.join(f'{_q(f.column)} = %s' for f in fields)}"
                f" WHERE {_q(meta.pk.column)} = %s", fields)
        return self.updates[(model, names)]


_plans: WeakKeyDictionary = WeakKeyDictionary()


def _plan() -> _Plan:
    wrapper = connections[DEFAULT_DB_ALIAS]
    if wrapper not in _plans:
        _plans[wrapper] = _Plan()
    return _plans[wrapper]


def _instance(plan: _Plan, model, values):
    return model.from_db(connection.alias, plan.attnames[model], _converted(values, plan.steps[model]))


class StaleKnown(Exception):
    """The rows a press was computed on (:mod:`corr.live.known`) changed since: its statement wrote nothing."""


class KnownPress:
    """One attempt at a press on the rows this process knows of its game (:mod:`corr.live.known`), in one round trip.

    Made by :func:`known_press` and given to :func:`press_transaction`; :func:`lock_game` then returns the known rows
    without a query, and :func:`store` writes only if none of them changed (else raises :class:`StaleKnown`).
    """

    __slots__ = ("game_id", "known", "sent")

    def __init__(self, game_id: int, known: Known) -> None:
        self.game_id, self.known, self.sent = game_id, known, False

    def again(self, error: BaseException) -> bool:
        """Whether the press is to be made again on the locking path after ``error``: its statement wrote nothing
        as the rows had changed (:class:`StaleKnown`), or it was refused on what was known before anything was sent
        (a refusal is judged on the rows as they are). Not after any other error once the statement was sent (it
        may have committed), nor after a database error (the locking path would meet it too); what was known of
        the game is then forgotten."""
        if isinstance(error, StaleKnown):
            return True
        if not self.sent and isinstance(error, Exception) and not isinstance(error, DatabaseError):
            return True
        forget(self.game_id)
        return False


def known_press(game_id: int) -> KnownPress | None:
    """An attempt on the rows known of game ``game_id``, or None when none are known or the press cannot be one
    trip (not PostgreSQL, inside ``atomic``: the tests' transactions, an ``Idempotency-Key``'s record)."""
    if not usable():
        return None
    known = recall(game_id)
    return None if known is None else KnownPress(game_id, known)


_attempt: ContextVar[KnownPress | None] = ContextVar("corr_live_known_press", default=None)
"""The :class:`KnownPress` of the :func:`press_transaction` running in this thread, if any."""

_read: ContextVar[tuple | None] = ContextVar("corr_live_read", default=None)
"""``(game_id, rows, from_seq, stamps, attempt)`` of the last :func:`lock_game` in this thread: what :func:`store`
keeps of the rows it did not change (the window read, from which seq it is whole), and the attempt it checks."""


@contextmanager
def press_transaction(known: KnownPress | None = None) -> Iterator[None]:
    """The transaction of one live write whose last statement is :func:`store` (a press).

    On PostgreSQL outside any ``atomic`` block (a request in production): a trip
    (:func:`corr.games.services.trips.trip`), BEGIN riding with :func:`lock_game`'s query and COMMIT with
    :func:`store`'s, rolled back if the block raises before. ``transaction.on_commit`` callbacks registered
    after :func:`store` then run at once, the transaction being committed. Elsewhere (SQLite, the tests'
    transactions, an ``Idempotency-Key``'s record): ``transaction.atomic``. Nothing may query the database
    after :func:`store` inside the block.

    ``known`` (from :func:`known_press`): the press is computed on the rows this process knows, with no locking
    read, and its store is one round trip that writes nothing if they changed (:class:`StaleKnown`).
    """
    if not usable():
        with transaction.atomic():
            yield
        return
    with trip() as current:
        token, attempt, read = _current.set(current), _attempt.set(known), _read.set(None)
        try:
            yield
        finally:
            _current.reset(token)
            _attempt.reset(attempt)
            _read.reset(read)


def lock_game(game_id: int) -> tuple[Game, LiveGame | None, list]:
    """Lock game ``game_id`` for this transaction (call inside ``transaction.atomic``); the game (its tournament
    and live row cached), its live row (None for a game without a live clock) and its events in sequence, as
    :class:`LiveRow` in the :class:`Window` a write needs. :raises Game.DoesNotExist:

    In a :class:`KnownPress`'s transaction: the rows known, no query; :func:`store` checks that they still are."""
    plan = _plan()
    attempt = _attempt.get()
    if attempt is not None and attempt.game_id == game_id and not attempt.sent:
        known = attempt.known
        game, live, rows = _game_of(plan, game_id, [known.values], (), rows=known.rows)
        _read.set((game_id, known.rows, known.from_seq, known.stamps, attempt))
        return game, live, rows
    current = _current.get()
    window = [game_id] * _WINDOW_PARAMS
    with connection.cursor() as cursor:
        if current is not None:  # BEGIN in the same query (the trip's first statement)
            current.execute(cursor, f"{plan.lock.text(cursor)}; {plan.window.text(cursor)}", [game_id, *window])
            found = cursor.fetchall()
            cursor.nextset()
            events = cursor.fetchall()
        elif connection.vendor == "postgresql":  # one query of two statements: the events are read once locked
            cursor.execute(f"{plan.lock.text(cursor)}; {plan.window.text(cursor)}", [game_id, *window])
            found = cursor.fetchall()
            cursor.nextset()
            events = cursor.fetchall()
        else:
            cursor.execute(plan.lock_sql, [game_id])
            found = cursor.fetchall()
            cursor.execute(plan.window_sql, window)
            events = cursor.fetchall()
    game, live, rows = _game_of(plan, game_id, found, events)
    if live is not None:
        _read.set((game_id, tuple(rows), live.snapshot_seq, _stamps(plan, found), None))
    return game, live, rows


def read_game(game_id: int) -> tuple[Game, LiveGame | None, list]:
    """Game ``game_id`` as :func:`lock_game` returns it, read without a lock: one round trip on PostgreSQL outside
    any transaction (the page's socket on connecting, a read of the API), two elsewhere.

    The live row and the window must be of one moment: a press committed between them would move the snapshot
    past events the window then leaves out. On PostgreSQL the two statements run in one read-only REPEATABLE READ
    transaction sent with them; elsewhere the window starts at the ``snapshot_seq`` of the live row read first (a
    press since only adds events after it). On PostgreSQL the rows read are what this process knows of the game
    after (:mod:`corr.live.known`). :raises Game.DoesNotExist:"""
    plan = _plan()
    with connection.cursor() as cursor:
        if usable():
            try:
                cursor.execute(f"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; {plan.read.text(cursor)};"
                               f" {plan.window.text(cursor)}; COMMIT", [game_id, *[game_id] * _WINDOW_PARAMS])
                cursor.nextset()  # BEGIN's result comes first
                found = cursor.fetchall()
                cursor.nextset()
                events = cursor.fetchall()
            except Exception:
                # A statement that failed after BEGIN (a timeout, a cancel) skips the COMMIT: the session is left
                # in an aborted transaction Django, in autocommit, knows nothing of. End it before the error goes on.
                _rollback_sent_transaction()
                raise
        else:
            cursor.execute(plan.read_sql, [game_id])
            found = cursor.fetchall()
            game, live, rows = _game_of(plan, game_id, found, [])
            if live is not None:
                rows = events_of(game_id, from_seq=live.snapshot_seq)
            return game, live, rows
    game, live, rows = _game_of(plan, game_id, found, events)
    if live is not None:  # one moment's rows: known (a correspondence game has no live row, and no press)
        remember(game_id, Known(_values(found), _stamps(plan, found), tuple(rows), live.snapshot_seq))
    return game, live, rows


def _rollback_sent_transaction() -> None:
    """Roll back the transaction a failed one-query read began (``read_game``), if the session still has one;
    a connection already broken is left to Django (its error check closes it)."""
    raw = connection.connection
    try:
        if raw is not None and raw.info.transaction_status != raw.info.transaction_status.IDLE:
            raw.rollback()
    except Exception:  # noqa: S110 - the read's own error is the one to report; Django closes a broken connection
        pass


def _widths() -> tuple[int, int, int]:
    return (len(Game._meta.concrete_fields), len(Tournament._meta.concrete_fields),
            len(LiveGame._meta.concrete_fields))


def _values(found: list) -> tuple:
    """The first row of ``found`` (a read's or a write's) without its stamps."""
    return tuple(found[0][:sum(_widths())])


def _stamps(plan: _Plan, found: list) -> tuple | None:
    """The ``xmin`` of the game, tournament and live rows of ``found``; None where the backend has none."""
    if not plan.stamped:
        return None
    return tuple(found[0][sum(_widths()):])


def _game_of(plan: _Plan, game_id: int, found: list, events, rows: tuple | None = None,
             ) -> tuple[Game, LiveGame | None, list]:
    """The game, its live row and its window from the rows of ``lock_sql`` (or ``read_sql``) and a window's
    (``events`` as read, or ``rows`` already converted)."""
    if not found:
        raise Game.DoesNotExist(f"no game {game_id}")
    values = found[0]
    n_game, n_tournament, n_live = _widths()
    game = _instance(plan, Game, values[:n_game])
    tournament = _instance(plan, Tournament, values[n_game:n_game + n_tournament])
    _with_ruleset(tournament, tuple(values[n_game:n_game + n_tournament]))
    Game._meta.get_field("tournament").set_cached_value(game, tournament)
    live_values = values[n_game + n_tournament:n_game + n_tournament + n_live]
    live = None
    if live_values[0] is not None:  # the live row's key (its game): absent for a correspondence game
        live = _instance(plan, LiveGame, live_values)
        # The game knows its live row, not the live row its game: the two caching each other are a reference cycle,
        # freed only by the cyclic collector, with every object of the write hanging off them (the clock, the
        # parsed ruleset and snapshot). Collected in batches of some sixty presses, they stalled daphne 10-30 ms
        # at a time under the 500-game bench (issue 42); freed at once, each press pays for its own.
        Game.live.related.set_cached_value(game, live)
    return game, live, Window(_rows(plan, events) if rows is None else rows)


_RULESETS_MAX = 256
"""Tournaments' rulesets kept parsed (:func:`_with_ruleset`), the least recently used dropped first."""
_rulesets: OrderedDict = OrderedDict()
_rulesets_lock = threading.Lock()


def _after_fork() -> None:
    global _rulesets_lock
    _rulesets_lock = threading.Lock()  # one another thread of the parent held at the fork is never released here


os.register_at_fork(after_in_child=_after_fork)


def _with_ruleset(tournament: Tournament, raw: tuple) -> None:
    """Give ``tournament`` the ruleset parsed before from the same row (``raw``: its columns as the database sent
    them, JSON as text), or parse it and keep it. A press asked for it every time, and parsing it was a twentieth of
    the press's CPU under the 500-game bench (issue 42). A :class:`~corr.clock.rules.Ruleset` is immutable (a frozen
    dataclass of tuples), so presses of any thread share it; a changed row is another key."""
    try:
        key = hash(raw)
    except TypeError:  # a column of an unhashable type: parsed for this instance only
        return
    with _rulesets_lock:
        found = _rulesets.get(key)
        if found is not None and found[0] == raw:
            _rulesets.move_to_end(key)
            tournament.__dict__["ruleset"] = found[1]  # Tournament.ruleset is a cached property
            return
    parsed = tournament.ruleset
    with _rulesets_lock:
        _rulesets[key] = (raw, parsed)
        while len(_rulesets) > _RULESETS_MAX:
            _rulesets.popitem(last=False)


_WINDOW_PARAMS = 5
"""The game's key, once per placeholder of ``_Plan.window_sql``."""


def _rows(plan: _Plan, events) -> list:
    return [LiveRow(*_converted(values, plan.event_steps)) for values in events]


def events_of(game_id: int, *, from_seq: int | None = None) -> list:
    """The events of game ``game_id`` in sequence, as :class:`LiveRow` (one query, no lock): every one, or the
    :class:`Window` from ``from_seq`` (the ``snapshot_seq`` of a live row read before: events stored since are
    after it, so the window has them)."""
    plan = _plan()
    with connection.cursor() as cursor:
        if from_seq is None:
            cursor.execute(plan.events_sql, [game_id])
        else:
            cursor.execute(plan.window_from_sql, [game_id, from_seq, *[game_id] * (_WINDOW_PARAMS - 2)])
        rows = _rows(plan, cursor.fetchall())
    return rows if from_seq is None else Window(rows)


def _insert(plan: _Plan, events: list, *, typed: bool = False) -> tuple[str, list]:
    params = [f.get_db_prep_save(getattr(event, f.attname), connection) for event in events
              for f in plan.insert_fields]
    return plan.insert_head + ", ".join([plan.insert_typed_row if typed else plan.insert_row] * len(events)), params


def _update(plan: _Plan, instance, names: list[str]) -> tuple[str, list]:
    sql, fields = plan.update(type(instance), tuple(names))
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    return sql, [*params, type(instance)._meta.pk.get_db_prep_value(instance.pk, connection)]


def _store_statement(plan: _Plan, events: list, live: LiveGame, live_fields: list[str], game: Game,
                     game_fields: list[str], read: tuple | None) -> tuple[str, list]:
    """PostgreSQL's one statement of :func:`store`: the live row's update, the game's, the events' insert, returning
    the rows as left in the read's shape (``_Plan.written_sql``). With a :class:`KnownPress` (``read[4]``), every part
    is conditional on the rows known being the rows now (``_Plan.unchanged_sql``), and it returns no row if not."""
    attempt = read[4] if read is not None else None
    live_sql, live_params = _update(plan, live, live_fields)
    game_sql, game_params = _update(plan, game, game_fields)
    ctes, params = [], []
    live_if = game_if = ""
    if attempt is not None:
        game_stamp, tournament_stamp, live_stamp = read[3]
        ctes.append(f"ok AS ({plan.unchanged_sql})")
        params += [game.pk, game_stamp, tournament_stamp, game.pk, attempt.known.last_seq]
        live_if, game_if = " AND xmin = %s::xid AND EXISTS (SELECT 1 FROM ok)", " AND EXISTS (SELECT 1 FROM wl)"
        live_params = [*live_params, live_stamp]
    ctes.append(f"wl AS ({live_sql}{live_if} RETURNING {plan.returning[LiveGame]})")
    params += live_params
    ctes.append(f"wg AS ({game_sql}{game_if} RETURNING {plan.returning[Game]})")
    params += game_params
    if events:
        insert_sql, insert_params = _insert(plan, events, typed=attempt is not None)
        if attempt is not None:  # written only once the game's update was (the data-modifying WITH runs it first)
            head, _, rows = insert_sql.partition(" VALUES ")
            insert_sql = f"{head} SELECT * FROM (VALUES {rows}) v WHERE EXISTS (SELECT 1 FROM wg)"
        ctes.append(f"wi AS ({insert_sql})")
        params += insert_params
    return f"WITH {', '.join(ctes)} {plan.written_sql}", params


def store(events: list, live: LiveGame, live_fields: list[str], game: Game, game_fields: list[str]) -> None:
    """Insert ``events`` (unsaved ``LiveEvent`` instances, marked saved after) and update ``live_fields`` of
    ``live`` and ``game_fields`` of ``game``: one statement on PostgreSQL, one each elsewhere. Call under the
    game's lock (:func:`lock_game`): the rows are there, so no update is checked for a row it missed.

    On PostgreSQL the statement returns the rows as it left them and the events it added (in the same round trip),
    which this process then knows of the game (:mod:`corr.live.known`). In a :class:`KnownPress`'s transaction the
    statement writes only if the rows known are the rows now: :raises StaleKnown: when it wrote nothing."""
    plan = _plan()
    current = _current.get()
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            statements = [_insert(plan, events)] if events else []
            statements += [_update(plan, live, live_fields), _update(plan, game, game_fields)]
            for sql, params in statements:
                cursor.execute(sql, params)
        else:
            read = _read.get()
            if read is not None and read[0] != game.pk:
                read = None
            attempt = read[4] if read is not None else None
            sql, params = _store_statement(plan, events, live, live_fields, game, game_fields, read)
            # Planned once per session and shape. Kept only when committed by this very statement (a trip's
            # last): in ``atomic`` a later statement of the transaction could change a row it returned, whose
            # xmin would still match. Then the events it added are read in the same round trip, after it.
            keep = current is not None and read is not None
            sql = plan.prepared(sql).text(cursor)
            if keep:
                sql, params = f"{sql}; {plan.added.text(cursor)}", [*params, game.pk, read[1][-1].seq if read[1] else 0]
            if attempt is not None:
                attempt.sent = True
            if current is not None:  # COMMIT in the same query: the trip's last statement
                current.execute(cursor, sql, params, last=True)
            else:
                cursor.execute(sql, params)
            written = cursor.fetchall()
            if not written:
                if attempt is not None:
                    forget(game.pk)
                    raise StaleKnown(f"game {game.pk} changed since this process last wrote or read it")
                raise Game.DoesNotExist(f"no game {game.pk}")  # under the lock: not reached
            if keep:
                cursor.nextset()
                _keep(plan, game.pk, read, written, cursor.fetchall())
            else:
                forget(game.pk)
            _read.set(None)
    for event in events:
        event._state.adding = False


def _keep(plan: _Plan, game_id: int, read: tuple, written: list, added: list) -> None:
    """Know game ``game_id`` as the write left it, committed: its rows as returned, the window of the rows read and
    added. Never raises: the write is stored, and what is known is only a saving (forgotten on any error)."""
    try:
        _game_id, rows, from_seq, _stamps_read, _attempt_read = read
        n_game, n_tournament, _n_live = _widths()
        snapshot_seq = written[0][n_game + n_tournament + plan.attnames[LiveGame].index("snapshot_seq")]
        if snapshot_seq < from_seq:  # the window read lacks what the new one needs (never so: snapshots advance)
            forget(game_id)
            return
        remember(game_id, Known(_values(written), _stamps(plan, written),
                                window((*rows, *_rows(plan, added)), snapshot_seq), snapshot_seq))
    except Exception:  # noqa: BLE001 - logged; the next press of the game takes the lock
        forget(game_id)
        logger.exception("live game %s: its rows as written are not kept", game_id)
