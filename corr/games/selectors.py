"""Selectors: every read of the correspondence domain (STYLE 5), in a constant number of queries."""

from __future__ import annotations

import hashlib
import json
from collections import namedtuple
from datetime import date, datetime

import orjson

from django.core.cache import cache
from django.db.models import F, Q, QuerySet

from corr.models import Game, GameEvent, PlayerClock, Tournament

from .clockstate import GameTime, game_time


def game_get(*, game_id: int) -> Game:
    """One game with its tournament and players (one query). :raises Game.DoesNotExist:"""
    return Game.objects.select_related("tournament", "white", "black").get(pk=game_id)


EVENT_FIELDS = ("id", "game_id", "seq", "kind", "player", "number", "notation", "received_on", "sent_on", "void",
                "variant", "mail", "reason", "days", "note", "supersedes_id", "entered_by_id", "entered_at")


EventRow = namedtuple("EventRow", EVENT_FIELDS)
"""A stored event read as JSON by one statement (``events_json``), with the fields of ``event_rows``."""

_DATE_FIELDS = (EVENT_FIELDS.index("received_on"), EVENT_FIELDS.index("sent_on"))
_AT_FIELD = EVENT_FIELDS.index("entered_at")

EVENTS_JSON_SQL = (
    "SELECT COALESCE(json_agg(json_build_array(" + ", ".join(f"e.{f}" for f in EVENT_FIELDS)
    + ") ORDER BY e.seq), '[]')::text FROM corr_gameevent e WHERE e.game_id = corr_game.id")
"""A subquery of a ``corr_game`` query: all the game's events, in sequence, as one JSON text (PostgreSQL)."""


def events_json(text: str) -> list:
    """The rows of ``EVENTS_JSON_SQL``'s text, as ``event_rows`` gives them (dates as dates)."""
    rows = []
    fromdate, fromdatetime = date.fromisoformat, datetime.fromisoformat
    received, sent = _DATE_FIELDS
    for values in orjson.loads(text):
        if values[received] is not None:
            values[received] = fromdate(values[received])
        if values[sent] is not None:
            values[sent] = fromdate(values[sent])
        values[_AT_FIELD] = fromdatetime(values[_AT_FIELD])
        rows.append(EventRow._make(values))
    return rows


CLOCK_EVENT_FIELDS = ("id", "seq", "kind", "player", "number", "received_on", "sent_on", "void", "variant", "reason",
                      "days", "supersedes_id")
"""The fields the clock reads (``corr.games.assemble.StoredEvent``): a clock read loads these only."""


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


def game_clock_view(*, game: Game, as_of: date) -> dict:
    """``{"to_move", "pending", "clock"}`` of a game as of a date, cached per game version and date.

    A clock changes only with an event, a result, the date or the tournament's
    rules, which are all in the key; so a read of a long game costs what a read
    of a short one does once computed. Each process keeps its own cache.
    """
    t = game.tournament
    rules = json.dumps([t.official_start.isoformat(), t.presumed_transit_days, t.time_zone, game.mode, game.first,
                        t.ruleset.as_dict()], sort_keys=True)
    key = (f"corr:clock:{game.pk}:{game.events_version}:{game.status}:{as_of.isoformat()}:"
           f"{hashlib.sha1(rules.encode()).hexdigest()}")
    view = cache.get(key)
    if view is None:
        rows = event_rows(GameEvent.objects.filter(game=game).order_by("seq"), CLOCK_EVENT_FIELDS)
        time = game_time(game, rows, as_of)
        pending = time.assembled.pending
        view = {"to_move": time.to_move, "pending": None if pending is None else pending.as_json(),
                "clock": time.clock.as_json()}
        cache.set(key, view, CLOCK_CACHE_SECONDS)
    return view
