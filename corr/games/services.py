"""Services: every write of the correspondence domain (STYLE 5).

Each service takes keyword-only arguments, runs in one transaction, locks the
game row (so two submissions of one move are serialised: the second finds the
turn gone and gets 409), validates the whole game with the calculator before
storing anything, and updates the stored clocks in the same transaction.
``today`` is always a parameter: the edge reads the clock once.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, timedelta

from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction

from accounts.models import ARBITERS_GROUP, User
from corr.clock.presets import preset_ruleset
from corr.clock import ClockError, EventError, NoticeReason, PenaltyReason, Ruleset, RulesetError, DelayReason
from corr.models import (
    Colour, EventKind, Game, GameEvent, GameResult, GameStatus, Mail, Mode, PlayerClock, Tournament,
)

from .assemble import current_row, other
from .clockstate import GameTime, game_time
from .errors import InvalidInput, NotAllowed, TurnConflict
from .permissions import can_arbitrate
from .selectors import game_rows


# --- users and tournaments --------------------------------------------------------------------

@transaction.atomic
def participant_create(*, by: User, username: str, password: str, email: str = "") -> User:
    """Create a participant account (arbiters only)."""
    if not by.is_arbiter:
        raise NotAllowed("only arbiters create participants")
    if User.objects.filter(username__iexact=username).exists():
        raise InvalidInput(f"username {username!r} is taken", field="username")
    user = User(username=username, email=email)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user


def arbiter_grant(*, user: User) -> None:
    """Make ``user`` an arbiter (a member of the ``arbiters`` group)."""
    group, _ = Group.objects.get_or_create(name=ARBITERS_GROUP)
    user.groups.add(group)
    user._is_arbiter = True


@transaction.atomic
def tournament_create(*, by: User, name: str, official_start: date, mode: str, ruleset: dict | None = None,
                      time_zone: str = "UTC", presumed_transit_days: int | None = None,
                      preset: str | None = None) -> Tournament:
    """Create a tournament; its creator becomes one of its arbiters.

    ``preset`` names a ruleset of :data:`corr.clock.presets.PRESETS`; keys of
    ``ruleset`` override it. ``presumed_transit_days`` defaults to 0 (e-mail
    and server games).
    :raises InvalidInput: for a ruleset value, mode or time zone that breaks its rule.
    """
    if not by.is_arbiter:
        raise NotAllowed("only arbiters create tournaments")
    try:
        rules = Ruleset.from_mapping(preset_ruleset(preset, ruleset))
    except RulesetError as error:
        raise InvalidInput(error.message, field=error.field) from None
    if mode not in Mode.values:
        raise InvalidInput(f"mode must be one of {', '.join(Mode.values)}, got {mode!r}", field="mode")
    try:
        zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(f"time_zone is not a known time zone: {time_zone!r}", field="time_zone") from None
    tournament = Tournament.objects.create(
        name=name, official_start=official_start, mode=mode, time_zone=time_zone,
        presumed_transit_days=presumed_transit_days or 0, created_by=by, **rules.as_dict(),
    )
    tournament.arbiters.add(by)
    return tournament


@transaction.atomic
def game_create(*, by: User, tournament: Tournament, white: User, black: User, first: str = Colour.WHITE,
                mode: str | None = None, today: date) -> Game:
    """Pair two participants in a tournament (its arbiters only)."""
    if not can_arbitrate(by, tournament):
        raise NotAllowed("only the tournament's arbiters create its games")
    if white.pk == black.pk:
        raise InvalidInput("white and black must be two different participants", field="black")
    if first not in Colour.values:
        raise InvalidInput(f"first must be white or black, got {first!r}", field="first")
    mode = mode or tournament.mode
    if mode not in Mode.values:
        raise InvalidInput(f"mode must be one of {', '.join(Mode.values)}, got {mode!r}", field="mode")
    game = Game.objects.create(tournament=tournament, white=white, black=black, first=first, mode=mode)
    game.tournament = tournament
    _store(game, [], [], today)
    return game


# --- the common path of every event -------------------------------------------------------------

def _lock(game: Game) -> tuple[Game, list[GameEvent]]:
    """Lock the game row for this transaction and read its events (PostgreSQL: SELECT ... FOR UPDATE)."""
    locked = Game.objects.select_for_update().select_related("tournament").get(pk=game.pk)
    rows = game_rows(game=locked)
    return locked, rows


def _store(game: Game, rows: list[GameEvent], new: list[GameEvent], today: date) -> GameTime:
    """Validate ``rows + new`` with the calculator, then save ``new`` and the clocks; or store nothing."""
    next_seq = (rows[-1].seq if rows else 0) + 1
    for offset, row in enumerate(new):
        row.game = game
        row.seq = next_seq + offset
    candidate = rows + new
    try:
        time = game_time(game, candidate, today)
    except EventError as error:
        raise _explain(error, time_sources(game, candidate, today), {row.seq for row in new}) from None
    except ClockError as error:
        raise InvalidInput(error.message, field=error.field) from None
    try:
        with transaction.atomic():
            for row in new:
                row.save()
    except IntegrityError:
        # Only reachable if the row lock was bypassed: the unique (game, seq) still keeps one.
        raise TurnConflict("the game changed while this request was handled; reload it and retry",
                           field="number") from None
    clock_store(game=game, rows=candidate, today=today, time=time)
    _flags_after_event(game, time, today)
    return time


def time_sources(game: Game, rows, today: date):
    from .clockstate import assemble_game

    return assemble_game(game, rows, today).sources


def _explain(error: EventError, sources, new_seqs: set[int]) -> InvalidInput:
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
    for colour, fields in clock_fields(game, time).items():
        # One UPDATE per player: the rows exist from game_create (no SELECT, no savepoint).
        if not PlayerClock.objects.filter(game=game, player=colour).update(**fields):
            PlayerClock.objects.create(game=game, player=colour, **fields)


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


def _flags_after_event(game: Game, time: GameTime, today: date) -> None:
    """An event that puts a player in time trouble or over a control is announced at once, after commit.

    Reminders stay with the nightly job; notices and cases are the same rows it
    would create, so neither path creates them twice.
    """
    from corr.nightly.emails import emails_store
    from corr.nightly.flags import Flags, flag_emails, flags_collect, flags_store

    flags = Flags()
    flags_collect(game=game, time=time, on=today, flags=flags)
    flags.reminders = []
    if flags.notices or flags.cases:
        emails_store(flag_emails(flags_store(flags=flags)), enqueue=True)


def _event(by: User, kind: str, player: str, **fields) -> GameEvent:
    return GameEvent(kind=kind, player=player, entered_by=by, **fields)


def _player_colour(game: Game, by: User) -> str:
    colour = game.colour_of(by)
    if colour is None:
        raise NotAllowed("you are not a player of this game")
    return colour


def _ongoing(game: Game) -> None:
    if game.status != GameStatus.ONGOING:
        raise TurnConflict(f"the game is over ({game.result or game.status})", field="game")


def _not_after_today(value: date | None, field: str, today: date, game: Game) -> None:
    if value is not None and value > today:
        raise InvalidInput(f"{field} {value} is after today ({today} in {game.tournament.time_zone})", field=field)


# --- participants' events -----------------------------------------------------------------------

@transaction.atomic
def move_submit(*, game: Game, by: User, number: int, notation: str = "", received_on: date | None = None,
                sent_on: date | None = None, void: bool = False, mail: str = "", variant: str = "",
                today: date) -> tuple[GameTime, list[str]]:
    """Store the move of the player to move and return the new time and any warnings.

    Server games take both dates from the server (``today``); postal games take
    the dates the player enters, ``received_on`` defaulting to a recorded receipt.

    :raises TurnConflict: not the player's turn, or not the expected number (409).
    :raises InvalidInput: a date or field that breaks a rule (400).
    """
    game, rows = _lock(game)
    colour = _player_colour(game, by)
    _ongoing(game)
    before = game_time(game, rows, today)
    if before.to_move != colour:
        raise TurnConflict(f"it is {before.to_move}'s turn, not {colour}'s", field="number")
    expected = before.assembled.made[colour] + 1
    if number != expected:
        raise TurnConflict(f"number {number} is not the next move: {colour}'s next move is {expected}",
                           field="number")
    pending = before.assembled.pending
    if variant and variant not in ("accepted", "conditional"):
        raise InvalidInput(f"variant must be accepted or conditional, got {variant!r}", field="variant")
    if game.mode == Mode.SERVER:
        if received_on is not None or sent_on is not None:
            field = "received_on" if received_on is not None else "sent_on"
            raise InvalidInput("dates are set by the server in server games", field=field)
        if mail not in ("", Mail.SERVER):
            raise InvalidInput("a server game's moves are sent by the server: mail must be 'server'", field="mail")
        if variant:
            raise InvalidInput("variants are recorded in postal games only", field="variant")
        received_on, sent_on, mail = pending.received_on, today, Mail.SERVER
    elif variant:
        if received_on is not None or sent_on is not None:
            raise InvalidInput("a variant move carries no dates (50.4.8)",
                               field="received_on" if received_on is not None else "sent_on")
    else:
        if mail and mail not in Mail.values:
            raise InvalidInput(f"mail must be one of {', '.join(Mail.values)}, got {mail!r}", field="mail")
        if sent_on is None:
            raise InvalidInput("sent_on is required in postal games: the date you sent the move", field="sent_on")
        if received_on is None:
            if pending.received_on is not None and not pending.presumed:
                received_on = pending.received_on  # the receipt the player recorded
            elif pending.received_on is not None:
                raise InvalidInput(
                    f"received_on is required: the date you received {other(colour)}'s move"
                    f" (none recorded; presumed {pending.received_on})", field="received_on")
        _not_after_today(received_on, "received_on", today, game)
        _not_after_today(sent_on, "sent_on", today, game)
    warnings = _registered_mail_warnings(before, colour, mail)
    new = _event(by, EventKind.MOVE, colour, number=number, notation=notation, received_on=received_on,
                 sent_on=sent_on, void=void, variant=variant, mail=mail)
    return _store(game, rows, [new], today), warnings


def _registered_mail_warnings(before: GameTime, colour: str, mail: str) -> list[str]:
    account = before.clock.accounts[colour]
    if account.time_trouble and mail in (Mail.ORDINARY, Mail.EMAIL):
        return [f"{colour} has {account.remaining_days} day(s) left: 50.4.12 requires registered mail,"
                f" and this move was sent by {mail}; the arbiter may add penalty days (50.4.9.3)"]
    return []


@transaction.atomic
def receipt_record(*, game: Game, by: User, received_on: date, today: date) -> GameTime:
    """Record the date the player to move received the partner's move (postal games)."""
    game, rows = _lock(game)
    colour = _player_colour(game, by)
    _ongoing(game)
    if game.mode == Mode.SERVER:
        raise InvalidInput("receipts are recorded in postal games; the server delivers moves at once",
                           field="received_on")
    before = game_time(game, rows, today)
    if before.to_move != colour:
        raise TurnConflict(f"nothing to receive: it is {before.to_move}'s turn", field="received_on")
    pending = before.assembled.pending
    if pending.received_on is None:
        raise InvalidInput("the first move of the game answers no move: nothing to receive", field="received_on")
    dispatched = pending.received_on - timedelta(days=game.tournament.presumed_transit_days) \
        if pending.presumed else None
    if dispatched is not None and received_on < dispatched:
        raise InvalidInput(f"received_on {received_on} is before the partner sent it on {dispatched}",
                           field="received_on")
    _not_after_today(received_on, "received_on", today, game)
    new = _event(by, EventKind.RECEIPT, colour, number=pending.number, received_on=received_on)
    return _store(game, rows, [new], today)


@transaction.atomic
def notice_submit(*, game: Game, by: User, reason: str, received_on: date, sent_on: date,
                  today: date) -> GameTime:
    """A notice of the partner's impossible or illegible move, or a repeat (50.4.7), in postal games.

    A notice of an impossible or illegible move is sent by the player to move:
    the partner's last move becomes void (a correction row) and the partner
    must send it again. A repeat is sent by the player waiting for an answer.
    """
    game, rows = _lock(game)
    colour = _player_colour(game, by)
    _ongoing(game)
    if game.mode == Mode.SERVER:
        raise InvalidInput("notices are for postal games: the server refuses impossible moves", field="reason")
    try:
        reason_value = NoticeReason(reason)
    except ValueError:
        raise InvalidInput(f"unknown reason {reason!r} (known: {', '.join(r.value for r in NoticeReason)})",
                           field="reason") from None
    for field, value in (("received_on", received_on), ("sent_on", sent_on)):
        if value is None:
            raise InvalidInput(f"{field} is required", field=field)
        _not_after_today(value, field, today, game)
    before = game_time(game, rows, today)
    new = []
    if reason_value is NoticeReason.REPEAT:
        if before.to_move == colour:
            raise TurnConflict("a repeat answers the partner's repeated move: it is your turn to move",
                               field="reason")
    else:
        if before.to_move != colour:
            raise TurnConflict(f"it is {before.to_move}'s turn: only the player to move reports the partner's move",
                               field="reason")
        seq = before.assembled.last_move_seq[other(colour)]
        if seq is None:
            raise InvalidInput(f"{other(colour)} has sent no move to report", field="reason")
        target = _active_row(rows, seq)
        if not target.void:
            new.append(_correction(target, by, void=True,
                                   note=f"void: {colour} reported it as {reason_value.value.replace('_', ' ')}"))
    number = before.assembled.made[colour] + 1
    new.append(_event(by, EventKind.NOTICE, colour, number=number, reason=reason_value.value,
                      received_on=received_on, sent_on=sent_on))
    return _store(game, rows, new, today)


def _active_row(rows: list[GameEvent], seq: int) -> GameEvent:
    """The row in force in the place of event ``seq``; a withdrawn event cannot be acted on."""
    row = current_row(rows, seq)
    if row is None:
        raise InvalidInput(f"this game has no event #{seq}", field="event")
    if row.kind == EventKind.WITHDRAWAL:
        raise InvalidInput(f"event #{seq} was withdrawn", field="event")
    return row


def _correction(row: GameEvent, by: User, note: str, **changes) -> GameEvent:
    fields = {f: getattr(row, f) for f in ("kind", "player", "number", "notation", "received_on", "sent_on",
                                           "void", "variant", "mail", "reason", "days")}
    fields.update(changes)
    return GameEvent(supersedes_id=row.id, entered_by=by, note=note, **fields)


# --- arbiters' events --------------------------------------------------------------------------------

def _arbiter(game: Game, by: User) -> None:
    if not can_arbitrate(by, game.tournament):
        raise NotAllowed("only the arbiters of this game's tournament may do this")


def _colour(value: str) -> str:
    if value not in Colour.values:
        raise InvalidInput(f"player must be white or black, got {value!r}", field="player")
    return value


@transaction.atomic
def penalty_assess(*, game: Game, by: User, player: str, reason: str, move: int | None = None,
                   today: date) -> GameTime:
    """Assess a penalty (50.4.9); its days (5, then 10: 50.4.10) follow from the rules, never typed."""
    game, rows = _lock(game)
    _arbiter(game, by)
    colour = _colour(player)
    try:
        PenaltyReason(reason)
    except ValueError:
        raise InvalidInput(f"unknown reason {reason!r} (known: {', '.join(r.value for r in PenaltyReason)})",
                           field="reason") from None
    if move is None:
        move = game_time(game, rows, today).assembled.made[colour] + 1
    new = _event(by, EventKind.PENALTY, colour, number=move, reason=reason)
    return _store(game, rows, [new], today)


@transaction.atomic
def delay_assess(*, game: Game, by: User, player: str, days: int, move: int | None = None,
                 reason: str = DelayReason.LATE_REPEAT.value, today: date) -> GameTime:
    """Add the whole delay of a late repeat, in days the arbiter determined (50.4.11)."""
    game, rows = _lock(game)
    _arbiter(game, by)
    colour = _colour(player)
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise InvalidInput(f"days must be a whole number >= 0, got {days!r}", field="days")
    try:
        DelayReason(reason)
    except ValueError:
        raise InvalidInput(f"unknown reason {reason!r} (known: {', '.join(r.value for r in DelayReason)})",
                           field="reason") from None
    if move is None:
        move = game_time(game, rows, today).assembled.made[colour] + 1
    new = _event(by, EventKind.DELAY, colour, number=move, days=days, reason=reason)
    return _store(game, rows, [new], today)


@transaction.atomic
def start_notice_record(*, game: Game, by: User, player: str, received_on: date, today: date) -> GameTime:
    """Record that a player received the notice of the start late (50.4.6): they start 3 days after it."""
    game, rows = _lock(game)
    _arbiter(game, by)
    _not_after_today(received_on, "received_on", today, game)
    new = _event(by, EventKind.START_NOTICE, _colour(player), received_on=received_on)
    return _store(game, rows, [new], today)


CORRECTABLE = ("received_on", "sent_on", "days", "reason", "notation", "mail", "number")


@transaction.atomic
def event_correct(*, game: Game, by: User, seq: int, changes: dict, note: str, today: date) -> GameTime:
    """Replace an event by a corrected copy (arbiters); the original stays in the history."""
    game, rows = _lock(game)
    _arbiter(game, by)
    if not note.strip():
        raise InvalidInput("note is required: say why the event is corrected", field="note")
    for key in changes:
        if key not in CORRECTABLE:
            raise InvalidInput(f"{key} cannot be corrected (correctable: {', '.join(CORRECTABLE)})", field=key)
    target = _active_row(rows, seq)
    return _store(game, rows, [_correction(target, by, note=note, **changes)], today)


@transaction.atomic
def event_withdraw(*, game: Game, by: User, seq: int, note: str, today: date) -> GameTime:
    """Withdraw an event (arbiters), e.g. a penalty dismissed on appeal; the history keeps it."""
    game, rows = _lock(game)
    _arbiter(game, by)
    if not note.strip():
        raise InvalidInput("note is required: say why the event is withdrawn", field="note")
    target = _active_row(rows, seq)
    withdrawal = GameEvent(kind=EventKind.WITHDRAWAL, player=target.player, supersedes_id=target.id, entered_by=by,
                           note=note)
    return _store(game, rows, [withdrawal], today)


@transaction.atomic
def game_finish(*, game: Game, by: User, result: str, termination: str, today: date) -> Game:
    """End a game with a result (arbiters): resignation, agreement, adjudication or time forfeit."""
    game, rows = _lock(game)
    _arbiter(game, by)
    _ongoing(game)
    if result not in (GameResult.WHITE_WON, GameResult.BLACK_WON, GameResult.DRAW):
        raise InvalidInput("result must be 1-0, 0-1 or 1/2-1/2", field="result")
    game.status, game.result, game.termination = GameStatus.FINISHED, result, termination
    game.save(update_fields=["status", "result", "termination"])
    clock_store(game=game, rows=rows, today=today)
    return game
