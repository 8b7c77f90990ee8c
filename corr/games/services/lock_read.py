"""The move's one round trip: lock a game and read everything a new event needs, in one statement.

On PostgreSQL the statement is written here once per process from the
models' fields and prepared once per database session (``SELECT ... FOR UPDATE OF corr_game``, the game joined to its
tournament and players, the events, the players' leave and the live cases as
JSON subqueries), so a request pays neither the ORM's query compilation nor a
second round trip. Elsewhere (SQLite) the ORM's queries are used.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import orjson
from django.db import connection
from rest_framework.authtoken.models import Token

from accounts.models import User
from corr.models import ConditionalTree, Game, OverstepCase, OverstepStatus, Tournament

from ..leaves import LEAVE_JSON_SQL, leave_keep_json
from ..selectors import MOVE_EVENTS_JSON_SQL, MoveRow, events_json, game_rows
from .prepared import Prepared
from .trips import Trip


@dataclass(frozen=True, slots=True)
class Locked:
    """A game whose row this transaction locked, with what a new event needs: its events and live cases.

    ``rows``: ``MoveRow``s (PostgreSQL) or full event rows (elsewhere), in
    sequence. ``cases`` None: not read (``cases_follow`` reads them). ``trip``: the
    transaction the read began (``trips.trip``), whose store ends it; None in
    an ``atomic`` block. ``trees``: the players' pending conditional moves (issue 28); None: not read
    (the move reads them). ``token``: the caller's API token with its ``user``, read with the game when its
    key was given (``game_lock_read(token_key=...)``); None otherwise. Read, not checked: expiry and the
    user's being active are the caller's to check (``accounts.tokens.token_valid``).
    """

    game: Game
    rows: list
    cases: list[OverstepCase] | None
    trip: Trip | None = None
    trees: list[ConditionalTree] | None = None
    token: Token | None = None


_CASES_JSON_SQL = (
    "SELECT COALESCE(json_agg(c), '[]')::text FROM corr_overstepcase c"
    f" WHERE c.game_id = corr_game.id AND c.status <> '{OverstepStatus.WITHDRAWN.value}'")
_TREES_JSON_SQL = (
    "SELECT COALESCE(json_agg(json_build_array(t.id, t.player, t.tree, t.sent_with_move, t.awaiting, t.position,"
    " t.reopens, t.created_at, t.updated_at)), '[]')::text FROM corr_conditionaltree t WHERE t.game_id = corr_game.id")


class _Part(NamedTuple):
    """One model's columns in the statement's row: ``row[start:end]``, with the fields that need converting."""

    model: type
    names: tuple[str, ...]
    start: int
    end: int
    converted: tuple[tuple[int, tuple, object], ...]
    """(index in the part, the field's converters, its column expression): JSON fields, parsed as the ORM does."""


# The aliases of the statement: the game keeps its table's name (the JSON subqueries name corr_game).
_JOINS = (("corr_game", Game, None), ("t", Tournament, "corr_game.tournament_id"),
          ("w", User, "corr_game.white_id"), ("b", User, "corr_game.black_id"))
# With the caller's token (issue 42): the token whose key is the statement's first parameter, and its user.
# Inner joins: an unknown key reads no row, so no game row is locked for a caller not known.
_TOKEN_JOINS = (("tk", Token, "%s", "key"), ("u", User, "tk.user_id", "id"))


@cache
def _lock_statement(with_token: bool) -> tuple[Prepared, tuple[_Part, ...]]:
    """The locking statement's SQL and where each model's columns are in its row.

    Its parameters: the game's id; with ``with_token``, the token's key first.
    """
    columns: list[str] = []
    parts: list[_Part] = []
    tables: list[str] = []
    joins = [(alias, model, key, "id") for alias, model, key in _JOINS]
    for alias, model, key, column in joins + (list(_TOKEN_JOINS) if with_token else []):
        fields = model._meta.concrete_fields
        start = len(columns)
        columns += [f'{alias}."{f.column}"' for f in fields]
        converted = []
        for i, f in enumerate(fields):
            converters = tuple(f.get_db_converters(connection))
            if converters:
                converted.append((i, converters, f.get_col(alias)))
        parts.append(_Part(model, tuple(f.attname for f in fields), start, len(columns), tuple(converted)))
        table = model._meta.db_table
        tables.append(f'"{table}"' if key is None else f'JOIN "{table}" {alias} ON {alias}.{column} = {key}')
    sql = (f"SELECT {', '.join(columns)}, ({MOVE_EVENTS_JSON_SQL}), ({LEAVE_JSON_SQL}), ({_CASES_JSON_SQL}),"
           f" ({_TREES_JSON_SQL})"
           f" FROM {' '.join(tables)} WHERE corr_game.id = %s FOR UPDATE OF corr_game")
    return Prepared("corr_game_lock_read_token" if with_token else "corr_game_lock_read", sql), tuple(parts)


def _instance(part: _Part, row: tuple):
    values = list(row[part.start:part.end])
    for i, converters, column in part.converted:
        for convert in converters:
            values[i] = convert(values[i], column, connection)
    return part.model.from_db(connection.alias, part.names, values)


def game_lock_read(*, game_id: int, trip: Trip | None = None, token_key: str | None = None) -> Locked:
    """Lock game ``game_id`` and read it, its tournament, players, events, leave and live cases.

    On PostgreSQL this is one statement (one round trip), ``SELECT ... FOR
    UPDATE OF corr_game`` (the game's row only: a rule change locks the
    tournament and then its games, so locking the tournament here could
    deadlock). Elsewhere, the ORM's queries. The caller runs it in its
    transaction: an ``atomic`` block, or ``trip``, which this statement begins
    (BEGIN in the same round trip).

    ``token_key`` (PostgreSQL only): also read the API token of that key and its user, in the same statement, so
    that the request authenticated by it pays no round trip of its own (issue 42). The game is then read and
    locked only if such a token exists: :raises Game.DoesNotExist: when there is no game ``game_id`` or, with
    ``token_key``, no token of that key (the caller tells the two apart by authenticating as usual).
    """
    if connection.vendor != "postgresql":
        if token_key is not None:
            raise ValueError("a token is read with the game on PostgreSQL only")
        game = (Game.objects.select_for_update(of=("self",)).select_related("tournament", "white", "black")
                .get(pk=game_id))
        return Locked(game=game, rows=game_rows(game=game), cases=None)
    statement, parts = _lock_statement(token_key is not None)
    game_part, tournament_part, white_part, black_part = parts[:4]
    params = [game_id] if token_key is None else [token_key, game_id]
    with connection.cursor() as cursor:
        sql = statement.text(cursor)  # planned once per session: planning cost more than the read
        if trip is None:
            cursor.execute(sql, params)
        else:
            trip.execute(cursor, sql, params)
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}" + ("" if token_key is None else " or no such token"))
    game = _instance(game_part, row)
    for name, part in (("tournament", tournament_part), ("white", white_part), ("black", black_part)):
        Game._meta.get_field(name).set_cached_value(game, _instance(part, row))
    token = None
    if token_key is not None:
        token_part, user_part = parts[4:]
        token = _instance(token_part, row)
        Token._meta.get_field("user").set_cached_value(token, _instance(user_part, row))
    events_text, leave_text, cases_text, trees_text = row[parts[-1].end:]
    leave_keep_json(game, leave_text)
    return Locked(game=game, rows=events_json(events_text, MoveRow), cases=_cases_json(cases_text), trip=trip,
                  trees=_trees_json(game, trees_text), token=token)


def _trees_json(game: Game, text: str) -> list[ConditionalTree]:
    """ConditionalTree instances, as loaded from the database, from ``json_agg`` of their columns."""
    names = ["id", "game_id", "player", "tree", "sent_with_move", "awaiting", "position", "reopens", "created_at",
             "updated_at"]
    out = []
    for pk, player, tree, move, awaiting, position, reopens, created, updated in orjson.loads(text):
        created_at, updated_at = (ConditionalTree._meta.get_field(f).to_python(v)
                                  for f, v in (("created_at", created), ("updated_at", updated)))
        out.append(ConditionalTree.from_db(connection.alias, names, [
            pk, game.pk, player, tree, move, awaiting, position, reopens, created_at, updated_at]))
    return out


def _cases_json(text: str) -> list[OverstepCase]:
    """OverstepCase instances, as loaded from the database, from ``json_agg`` of their rows."""
    fields = OverstepCase._meta.concrete_fields
    names = [f.attname for f in fields]
    return [OverstepCase.from_db(connection.alias, names,
                                 [None if row[f.column] is None else f.to_python(row[f.column]) for f in fields])
            for row in orjson.loads(text)]
