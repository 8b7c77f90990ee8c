"""The common path of every event: lock, validate with the calculator, store, update the clocks."""

from __future__ import annotations

from datetime import date

from django.db import IntegrityError, connection
from django.db.models import F

from accounts.models import User
from corr.clock import ClockError, EventError
from corr.models import Game, GameEvent, GameStatus, PlayerClock

from ..clockstate import GameTime, assemble_game, game_time
from ..errors import InvalidInput, NotAllowed, TurnConflict
from ..selectors import game_rows


def game_lock(game: Game) -> tuple[Game, list[GameEvent]]:
    """Lock the game row for this transaction and read its events (PostgreSQL: SELECT ... FOR UPDATE)."""
    locked = Game.objects.select_for_update().select_related("tournament").get(pk=game.pk)
    rows = game_rows(game=locked)
    return locked, rows


def events_store(game: Game, rows: list[GameEvent], new: list[GameEvent], today: date) -> GameTime:
    """Validate ``rows + new`` with the calculator, then save ``new`` and the clocks; or store nothing."""
    next_seq = (rows[-1].seq if rows else 0) + 1
    for offset, row in enumerate(new):
        row.game = game
        row.seq = next_seq + offset
    candidate = rows + new
    try:
        time = game_time(game, candidate, today)
    except EventError as error:
        raise error_explained(error, time_sources(game, candidate, today), {row.seq for row in new}) from None
    except ClockError as error:
        raise InvalidInput(error.message, field=error.field) from None
    try:
        # No savepoint: on an IntegrityError the caller's transaction is rolled back whole.
        for row in new:
            row.save()
    except IntegrityError:
        # Only reachable if the row lock was bypassed: the unique (game, seq) still keeps one.
        raise TurnConflict("the game changed while this request was handled; reload it and retry",
                           field="number") from None
    version_raise(game)
    clock_store(game=game, rows=candidate, today=today, time=time)
    flags_after_event(game, time, today)
    return time


def time_sources(game: Game, rows, today: date):
    return assemble_game(game, rows, today).sources


def error_explained(error: EventError, sources, new_seqs: set[int]) -> InvalidInput:
    seq = sources[error.index] if error.index < len(sources) else None
    field = error.field.split(".", 1)[1] if "." in (error.field or "") else None
    if seq in new_seqs or seq is None:
        return InvalidInput(error.detail, field=field)
    return InvalidInput(f"with this event, stored event #{seq} would become invalid: {error.detail}", field=field)


def clock_store(*, game: Game, rows, today: date, time: GameTime | None = None) -> None:
    """Store both players' current accounts beside the game (the nightly job selects by them).

    A move still presumed in transit runs no clock; its player's account is
    stored as of the presumed arrival, so the stored deadline is already right.
    """
    time = time_for_storage(game, rows, today, time)
    clocks_write([(game.pk, colour, fields) for colour, fields in clock_fields(game, time).items()])


_CLOCK_TYPES = {"on_move": "boolean", "made": "integer", "control_number": "integer", "total_days": "integer",
                "remaining_days": "integer", "deadline": "date", "time_trouble": "boolean",
                "overstepped_control": "integer", "flagged": "boolean", "computed_on": "date"}


def clocks_write(items: list[tuple[int, str, dict]]) -> None:
    """Write stored clocks, ``(game id, colour, fields)``, in one statement per 1,000 on PostgreSQL.

    ``UPDATE ... FROM (VALUES ...)`` joins on the (game, player) unique index;
    Django's ``bulk_update`` would build a CASE per column and row (seconds for
    a night's thousands). A clock that does not exist yet is created.
    """
    if not items:
        return
    if connection.vendor != "postgresql":
        for game_id, colour, fields in items:
            if not PlayerClock.objects.filter(game_id=game_id, player=colour).update(**fields):
                PlayerClock.objects.create(game_id=game_id, player=colour, **fields)
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
                " WHERE c.game_id = v.game_id AND c.player = v.player", values)
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
    if pending is not None and pending.received_on is not None and pending.received_on > today:
        return game_time(game, rows, pending.received_on)
    return time


CLOCK_FIELDS = ("on_move", "made", "control_number", "total_days", "remaining_days", "deadline", "time_trouble",
                "overstepped_control", "flagged", "computed_on")


def clock_fields(game: Game, time: GameTime) -> dict[str, dict]:
    """The stored columns of each player's ``PlayerClock`` for a computed game time."""
    ongoing = game.status == GameStatus.ONGOING
    out = {}
    for colour, account in time.clock.accounts.items():
        over = account.overstepped
        out[colour] = dict(
            on_move=time.assembled.to_move == colour, made=account.made,
            control_number=account.control.number, total_days=account.total_days,
            remaining_days=account.remaining_days, deadline=account.deadline if ongoing else None,
            time_trouble=account.time_trouble, overstepped_control=over.control if over else None,
            flagged=ongoing and (account.time_trouble or over is not None), computed_on=time.clock.as_of,
        )
    return out


def flags_after_event(game: Game, time: GameTime, today: date) -> None:
    """An event that puts a player in time trouble or over a control is announced at once, after commit.

    Reminders stay with the nightly job; notices and cases are the same rows it
    would create, so neither path creates them twice.
    """
    # Imported here: corr.nightly builds on these services (a module-level import would be a cycle).
    from corr.nightly.emails import emails_store
    from corr.nightly.flags import Flags, flag_emails, flags_collect, flags_store

    flags = Flags()
    flags_collect(game=game, time=time, on=today, flags=flags)
    flags.reminders = []
    if flags.notices or flags.cases:
        emails_store(flag_emails(flags_store(flags=flags)), enqueue=True)


def event_new(by: User, kind: str, player: str, **fields) -> GameEvent:
    return GameEvent(kind=kind, player=player, entered_by=by, **fields)


def player_colour_of(game: Game, by: User) -> str:
    colour = game.colour_of(by)
    if colour is None:
        raise NotAllowed("you are not a player of this game")
    return colour


def ensure_ongoing(game: Game) -> None:
    if game.status != GameStatus.ONGOING:
        raise TurnConflict(f"the game is over ({game.result or game.status})", field="game")


def ensure_not_after_today(value: date | None, field: str, today: date, game: Game) -> None:
    if value is not None and value > today:
        raise InvalidInput(f"{field} {value} is after today ({today} in {game.tournament.time_zone})", field=field)


def reason_checked(enum, value: str, field: str = "reason"):
    """``value`` as a member of the rule's reason ``enum``. :raises InvalidInput: naming the known reasons."""
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(member.value for member in enum)
        raise InvalidInput(f"unknown {field} {value!r} (known: {known})", field=field) from None


def version_raise(game: Game) -> None:
    """Mark the game's clock changed (in this transaction): cached clocks of the old version are not read again."""
    Game.objects.filter(pk=game.pk).update(events_version=F("events_version") + 1)
