"""Selectors: every read of the correspondence domain (STYLE 5), in a constant number of queries."""

from __future__ import annotations

import hashlib
import json
from collections import namedtuple
from datetime import date, datetime

import orjson

from django.core.cache import cache
from django.db import connection
from django.db.models import F, Q, QuerySet

from corr.gcpause import no_cyclic_gc
from corr.jsonbytes import json_bytes
from corr.models import Game, GameEvent, GameStatus, Mode, PlayerClock, Tournament
from corr.pgtimestamps import plain_timestamps

from corr.clock import ClockError, GameClock
from corr.clock.charging import ledger_json
from corr.clock.assembly import CLOCK_FIELDS, ClockRow

from .clockstate import GameTime, clock_as_of, game_time, moment_text
from .draws import draw_offer_json
from .leaves import LEAVE_JSON_SQL, leave_keep_json
from .reply_notes import ledger_named, reply_notes
from .turns import game_turns, turns_json, urgency, view_turns
from .plan_selectors import game_latest_send
from .timeleft import game_time_left


def game_get(*, game_id: int) -> Game:
    """One game with its tournament and players (one query). :raises Game.DoesNotExist:"""
    return Game.objects.select_related("tournament", "white", "black").get(pk=game_id)


EVENT_FIELDS = ("id", "game_id", "seq", "kind", "player", "number", "notation", "received_on", "sent_on",
                "received_at", "sent_at", "void",
                "variant", "mail", "reason", "days", "note", "supersedes_id", "entered_by_id", "entered_at")


EventRow = namedtuple("EventRow", EVENT_FIELDS)
"""A stored event read as JSON by one statement (``events_json``), with the fields of ``event_rows``."""

CLOCK_EVENT_FIELDS = CLOCK_FIELDS
"""The fields the clock reads (``corr.clock.assembly.StoredEvent``): a clock read loads these only."""


def _events_json_sql(fields: tuple[str, ...]) -> str:
    return ("SELECT COALESCE(json_agg(json_build_array(" + ", ".join(f"e.{f}" for f in fields)
            + ") ORDER BY e.seq), '[]')::text FROM corr_gameevent e WHERE e.game_id = corr_game.id")


EVENTS_JSON_SQL = _events_json_sql(EVENT_FIELDS)
"""A subquery of a ``corr_game`` query: all the game's events, in sequence, as one JSON text (PostgreSQL)."""

MOVE_EVENT_FIELDS = CLOCK_EVENT_FIELDS + ("mail", "notation")
"""What a new event's validation reads of the stored ones: the clock's fields, the mail a
registered-mail case is about (50.4.12), and the notation a server move is checked on the board
after (issue 36: ``corr.games.replay``). No note: writing a time stamp as JSON was most of the
database's work in reading a long game."""

MoveRow = namedtuple("MoveRow", MOVE_EVENT_FIELDS)
"""A stored event as the move's locking read gives it (``MOVE_EVENTS_JSON_SQL``)."""

MOVE_EVENTS_JSON_SQL = _events_json_sql(MOVE_EVENT_FIELDS)
"""``EVENTS_JSON_SQL`` with ``MOVE_EVENT_FIELDS`` only."""

def events_json(text: str, row_type=EventRow) -> list:
    """The rows of ``EVENTS_JSON_SQL``'s text, dates as dates (``row_type``: named tuples of some of its fields).

    As ``event_rows`` gives them: read-only named tuples with the model's field names.
    """
    fields = row_type._fields
    received, sent = fields.index("received_on"), fields.index("sent_on")
    at = fields.index("entered_at") if "entered_at" in fields else None
    instants = [fields.index(name) for name in ("received_at", "sent_at") if name in fields]
    fromdate, fromdatetime, make = date.fromisoformat, datetime.fromisoformat, row_type._make
    rows = []
    for values in orjson.loads(text):
        if values[received] is not None:
            values[received] = fromdate(values[received])
        if values[sent] is not None:
            values[sent] = fromdate(values[sent])
        if at is not None:
            values[at] = fromdatetime(values[at])
        for i in instants:  # null but in server games under an instant count (issue 22)
            if values[i] is not None:
                values[i] = fromdatetime(values[i])
        rows.append(make(values))
    return rows


def event_rows(queryset, fields: tuple[str, ...] = EVENT_FIELDS) -> list:
    """Stored events as read-only named tuples with the model's field names.

    A game is read on every request and every night: building model instances
    for hundreds of events costs more than computing their clock. ``fields``:
    ``CLOCK_EVENT_FIELDS`` for a clock alone (no time stamps to convert, a
    smaller answer from the database: a long game's read costs less).
    """
    return list(queryset.values_list(*fields, named=True))


def game_rows(*, game: Game) -> list:
    """All stored events of a game, superseded ones included, in sequence (one query)."""
    return event_rows(GameEvent.objects.filter(game=game).order_by("seq"))


def game_time_get(*, game: Game, as_of: date) -> tuple[GameTime, list[GameEvent]]:
    """The game's clock as of ``as_of`` and its rows (one query for the rows)."""
    rows = game_rows(game=game)
    return game_time(game, rows, as_of), rows


def games_of_user(*, user) -> QuerySet[Game]:
    return (Game.objects.filter(Q(white=user) | Q(black=user))
            .select_related("tournament", "white", "black").order_by("-id"))


def next_on_move(*, user, now: datetime, excluding: int | None = None) -> Game | None:
    """The ongoing correspondence game where ``user`` is on move with the nearest deadline (``turns.urgency``:
    over the control first), ``excluding`` one game's id (the page it is asked from); None: none (issue 36).

    Each game's clock view (``game_clock_view``: cached per game version and day), the answer its page shows;
    live games have no deadline and are left out, and so is a game whose clock the calculator refuses (its own
    page says why): the page asking must not fail for another game. Ties go to the older game.
    """
    games = games_of_user(user=user).filter(status=GameStatus.ONGOING).exclude(mode=Mode.LIVE)
    if excluding is not None:
        games = games.exclude(pk=excluding)
    best, best_key = None, None
    for game in games.order_by("pk"):
        try:
            turn = view_turns(game_clock_view(game=game, as_of=clock_as_of(game, now)))[game.colour_of(user)]
        except ClockError:
            continue
        if not turn.on_move:
            continue
        key = urgency(turn)
        if best_key is None or key < best_key:
            best, best_key = game, key
    return best


def games_visible(*, user, tournament_id: int | None = None) -> QuerySet[Game]:
    """The games ``user`` may open: those they play and those of the tournaments they are named arbiter of.

    With ``tournament_id``: every game of that tournament if they arbitrate it
    (superusers arbitrate all), else only their own games in it; an unknown
    tournament gives none (nothing tells it from one they may not see).
    """
    mine = Q(white=user) | Q(black=user)
    games = Game.objects.select_related("tournament", "white", "black").order_by("-id")
    if tournament_id is None:
        return games.filter(mine | Q(tournament__arbiters=user)).distinct()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return games.none()
    from .permissions import can_arbitrate

    if can_arbitrate(user, tournament):
        return games.filter(tournament=tournament)
    return games.filter(mine, tournament=tournament)


def tournaments_of_user(*, user) -> QuerySet[Tournament]:
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(
        Q(arbiters=user) | Q(games__white=user) | Q(games__black=user)).distinct()


def tournament_clocks(*, tournament: Tournament) -> QuerySet[PlayerClock]:
    """The stored accounts of a tournament's games, soonest deadline first (nulls last)."""
    return (PlayerClock.objects.filter(game__tournament=tournament)
            .select_related("game", "game__white", "game__black")
            .order_by(F("deadline").asc(nulls_last=True), "remaining_days", "game_id"))


CLOCK_CACHE_SECONDS = 2 * 24 * 3600


def _clock_cache_key(*, game: Game, as_of: date) -> str:
    """The cache key of a game's clock as of a date: everything the clock depends on.

    An event changes ``events_version``, a result the status, a rules change the
    hash of the tournament's settings; the date is the day the clock is read.
    The prefix names what is stored (the view's JSON bytes, with its ``turn``): a
    cache shared with a process of an older release never hands one the other's
    kind of value.
    """
    t = game.tournament
    rules = json.dumps([t.official_start.isoformat(), t.presumed_transit_days, t.time_zone, game.mode, game.first,
                        t.ruleset.as_dict()], sort_keys=True)
    # Under an instant count the clock is of the second it is read (issue 22): the key says which.
    as_of = clock_as_of(game, as_of)
    return (f"corr:clock-turn-json:{game.pk}:{game.events_version}:{game.status}:{as_of.isoformat()}:"
            f"{hashlib.sha1(rules.encode()).hexdigest()}")


def game_clock_view_json(*, game: Game, as_of: date) -> bytes:
    """``{"to_move", "pending", "draw_offer", "turn", "time_left", "latest_send", "clock"}`` of a game as of a date,
    as JSON bytes; ``latest_send``: ``corr.games.plan_selectors.game_latest_send``'s; cached per game version and
    date (a draw offer or its refusal raises the version:
    ``corr.games.services.results``). ``turn``: each player's ``corr.games.turns.Turn`` as JSON (who is on
    move, since and until when); ``time_left``: each player's ``corr.games.timeleft.TimeLeft`` as JSON.

    The bytes are ``json_bytes`` of the view (``OrjsonRenderer``'s output), so a
    caller writes them into its answer as they are (``json_object_join``). A
    clock changes only with an event, a result, the date or the tournament's
    rules, which are all in the key; so once computed, a read of a long game
    costs what a read of a short one does: the local-memory cache pickles what
    it keeps, and bytes come back as one copy where a dict with a ledger line
    per event is rebuilt object by object, then rendered again. Each process
    keeps its own cache.
    """
    key = _clock_cache_key(game=game, as_of=as_of)
    body = cache.get(key)
    if body is None:
        # A long game's clock is hundreds of short-lived objects (events, ledger rows and lines), all
        # freed once its bytes are written: the cyclic collector, set off by their allocation, would
        # walk them and every object Django keeps (40-100 us of a 400-event read here), and find no garbage.
        with no_cyclic_gc():
            body = json_bytes(_clock_view_compute(game=game, as_of=as_of))
        cache.set(key, body, CLOCK_CACHE_SECONDS)
    return body


def game_clock_view(*, game: Game, as_of: date) -> dict:
    """``game_clock_view_json`` parsed: the same cache entry, for a caller that reads the clock's fields.

    The view holds JSON values only (strings, numbers, booleans, None, lists and
    dicts with string keys), so the parsed dict equals the computed one.
    """
    return orjson.loads(game_clock_view_json(game=game, as_of=as_of))


def _clock_view_compute(*, game: Game, as_of: date) -> dict:
    """``{"to_move", "pending", "draw_offer", "turn", "time_left", "latest_send", "clock"}`` computed from the stored
    events (two statements)."""
    # The ledger is shown: it is built in the accounts' pass, not in a second one; the calculator's
    # events are built straight from the rows as fetched (clock tuples), with no object per row.
    rows = _clock_tuples_read(game=game)
    time = game_time(game, rows, as_of, with_ledger=True, clock_tuples=True)
    pending = time.assembled.pending
    return {"to_move": time.to_move, "pending": None if pending is None else pending.as_json(),
            "draw_offer": draw_offer_json(rows), "turn": turns_json(game_turns(game=game, time=time)),
            "time_left": {colour: left.as_json() for colour, left in game_time_left(game=game, time=time).items()},
            "latest_send": {colour: latest.as_json()
                            for colour, latest in game_latest_send(game=game, time=time, now=as_of).items()},
            "clock": clock_json(time.clock, reply_notes(game, time))}


def _clock_tuples_read(*, game: Game) -> list[tuple]:
    """The game's stored events as clock tuples (``CLOCK_EVENT_FIELDS``, in order), in sequence; leave kept.

    ``clock_rows_read`` without a named tuple per row: ``assemble(clock_tuples=True)`` unpacks them.
    """
    if connection.vendor != "postgresql":
        return clock_rows_read(game=game)  # named tuples are tuples of the same fields
    with connection.cursor() as cursor:
        plain_timestamps(cursor)
        cursor.execute(_CLOCK_EVENTS_SQL, [game.pk])
        rows = cursor.fetchall()
        cursor.execute(_LEAVE_SQL, [game.pk])
        leave_keep_json(game, cursor.fetchone()[0])
    return rows


def clock_rows_read(*, game: Game) -> list:
    """The game's stored events as the clock reads them (``ClockRow``: ``CLOCK_EVENT_FIELDS``), in sequence.

    The players' leave is read too and kept on ``game`` (``game_leave``). On
    PostgreSQL, two plain statements written once: no query compiled per
    request, and the events as rows (the driver parses them in C; building
    them as JSON in the server costs more than it saves).
    """
    if connection.vendor != "postgresql":
        return event_rows(GameEvent.objects.filter(game=game).order_by("seq"), CLOCK_EVENT_FIELDS)
    with connection.cursor() as cursor:
        plain_timestamps(cursor)
        cursor.execute(_CLOCK_EVENTS_SQL, [game.pk])
        rows = list(map(ClockRow._make, cursor.fetchall()))
        cursor.execute(_LEAVE_SQL, [game.pk])
        leave_keep_json(game, cursor.fetchone()[0])
    return rows


_CLOCK_EVENTS_SQL = (f"SELECT {', '.join(CLOCK_EVENT_FIELDS)} FROM corr_gameevent WHERE game_id = %s"
                     " ORDER BY seq")
_LEAVE_SQL = f"SELECT ({LEAVE_JSON_SQL}) FROM corr_game WHERE corr_game.id = %s"


def clock_json(clock: GameClock, notes: dict[int, str] | None = None) -> dict:
    """``clock.as_json()`` (the calculator's JSON result), the ledger's lines built from its plain rows.

    A long game's read is mostly its ledger: its objects are built in the
    compiled calculator (``ledger_json``) from the rows of the accounts' pass,
    with no ``LedgerLine`` per line. ``notes``: the server's conditional replies' lines by event
    (``corr.games.reply_notes``), said instead of the calculator's note on them (issue 28, 50.4.8).
    """
    rows = clock.ledger_rows
    return {
        "as_of": moment_text(clock.as_of),
        # Under a ruleset with vacation each player's says the allowance left and the vacations taken, automatic
        # ones marked (issue 40), as ``GameClock.as_json`` (``manage.py clock --json``) does.
        "players": {pid: account.as_json() | ({} if clock.vacation is None else {"vacation": clock.vacation[pid]})
                    for pid, account in clock.accounts.items()},
        "ledger": ledger_json(ledger_named(rows, notes) if notes else rows),
    }
