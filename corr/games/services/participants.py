"""Participants' events: moves, receipts, notices and repeats (50.4.7)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock import ClockError, NoticeReason
from corr.clock.assembly import current_row, other
from corr.models import (
    NOTATION_EXAMPLES, RECORD_KINDS, CaseKind, EventKind, Game, GameEvent, Mail, Mode, OverstepCase, OverstepStatus,
    Timeouts,
)

from ..notices import Change, notice_on_commit
from ..records import record_text
from ..clockstate import GameTime, assemble_game, counts_instants, game_time, instant_text, local_today
from ..errors import (
    InvalidInput, NotYourTurn, Said, ServiceError, TimeRanOut, TurnConflict, WrongMoveNumber, colour_word,
)
from ..conditional import board_now, played, reopenings
from ..legal import move_checked
from ..position import position_after, server_replay
from .ending import board_end_record, claim_checked, end_of_move
from ..selectors import game_rows
from .conditional import (
    Firing, Line, firing_of, line_after_own_move, line_sent, server_checked, tree_await, tree_write,
    trees_read,
)
from .lock_read import Locked
from .storage import (
    ensure_not_after_today, ensure_ongoing, event_new, events_store, events_store_changes, game_lock,
    player_colour_of, reason_checked, seq_next,
)


@transaction.atomic
def move_submit(*, game: Game, by: User, number: int, notation: str = "", received_on: date | None = None,
                sent_on: date | None = None, void: bool = False, mail: str = "", variant: str = "",
                conditional: list | None = None, claim_draw: bool = False,
                today: date, now: datetime | None = None) -> tuple[GameTime, list[str]]:
    """Store the move of the player to move and return the new time and any warnings.

    Server games take both dates from the server (``today``) and store the
    instants too (``now``, aware; default the server's clock): the move is sent
    at ``now`` and the partner's receipt is the instant it was sent (issue 22).
    Postal games take the dates the player enters, ``received_on`` defaulting
    to a recorded receipt.

    ``conditional`` (server chess and draughts games, issue 28): the tree of replies sent with the move
    (``corr.games.conditional``), which replaces the player's pending one. The partner's pending tree
    follows the move: the reply of a matching branch is stored at once (``move_store``).

    Server games (issue 36): the move is checked legal on the game's board (``corr.games.legal``) and stored as
    corr writes it (SAN; ``c3-d4``; ``D4``); a move that ends the game on the board (checkmate, stalemate, a
    draughts side without a move) finishes it, and ``claim_draw`` claims a draw by threefold repetition or the
    fifty-move rule with the move (FIDE 9.2, 9.3), refused when unfounded. Postal and e-mail games record the
    move as written (50.4.9.1 penalises an impossible one).

    :raises TurnConflict: not the player's turn, or not the expected number (409).
    :raises InvalidInput: a date or field that breaks a rule (400).
    """
    game, rows = game_lock(game)
    return move_store(locked=Locked(game=game, rows=rows, cases=None), by=by, number=number, notation=notation,
                      received_on=received_on, sent_on=sent_on, void=void, mail=mail, variant=variant,
                      conditional=conditional, claim_draw=claim_draw, today=today, now=now)


def move_store(*, locked: Locked, by: User, number: int, notation: str = "", received_on: date | None = None,
               sent_on: date | None = None, void: bool = False, mail: str = "", variant: str = "",
               conditional: list | None = None, claim_draw: bool = False, today: date,
               now: datetime | None = None, fired: Firing | None = None, board=None) -> tuple[GameTime, list[str]]:
    """``move_submit`` on a game this transaction has locked and read (``game_lock_read``): the API's one path.

    ``locked.trip``: the transaction the read began; the store ends it (commits
    it in the same round trip when no case changes).

    The game's time is computed once, for the game with the new move: the turn
    is read from the assembled events, the stored clocks, the cases and the
    warnings all follow that one computation.

    The players' conditional trees (issue 28) follow the move in the same transaction, under the same
    lock: the mover's is replaced by ``conditional`` (or kept if the move is the reply it awaited, else
    dropped), and the partner's fires (its reply stored by this function again, at the same instant, as
    a ``variant: conditional`` move, 50.4.8) or is dropped. ``fired``, ``board``: that second call's
    (the reply and the line after it; the position before the move).
    """
    game, rows = locked.game, locked.rows
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    # Instants are kept to the second (issue 22), as the clock is computed (``clock_as_of``): a move stored at
    # 18:00:35.7 must not be later than the clock it is computed with.
    now = (now or timezone.now()).replace(microsecond=0)
    # Under an instant count the clock is computed as of the move's instant, not the day's end.
    as_of = now if counts_instants(game) else today
    before = assemble_game(game, rows, as_of)  # the turn needs no clock
    if before.to_move != colour:
        raise NotYourTurn(_("it is %(to_move)s's turn, not %(colour)s's"), field="number",
                          to_move=colour_word(before.to_move), colour=colour_word(colour))
    expected = before.made[colour] + 1
    if number != expected:
        raise WrongMoveNumber(_("number %(number)s is not the next move: %(colour)s's next move is %(expected)s"),
                              field="number", number=number, colour=colour_word(colour), expected=expected)
    pending = before.pending
    if counts_instants(game) and game.tournament.timeouts == Timeouts.AUTOMATIC:
        ensure_flag_standing(game, rows, colour, as_of)
    if conditional is not None:
        server_checked(game)
    if variant and variant not in ("accepted", "conditional"):
        raise InvalidInput(_("variant must be accepted or conditional, got %(value)s"), field="variant",
                           value=repr(variant))
    replay, ending, position = None, None, None
    if game.mode == Mode.SERVER:
        if received_on is not None or sent_on is not None:
            field = "received_on" if received_on is not None else "sent_on"
            raise InvalidInput(_("dates are set by the server in server games"), field=field)
        if not notation.strip():
            # The server is the board: a move without its notation would pass the turn and say nothing.
            raise InvalidInput(_("notation is required in server games: write the move itself, e.g. %(move)s"),
                               field="notation", move=NOTATION_EXAMPLES.get(game.kind_in_force, "Nf3"))
        if mail not in ("", Mail.SERVER):
            raise InvalidInput(_("a server game's moves are sent by the server: mail must be 'server'"), field="mail")
        if variant:
            raise InvalidInput(_("variants are recorded in postal games only"), field="variant")
        mail = Mail.SERVER
        # The position kept by the last move (issue 42), else the moves replayed; a repetition claim needs the moves.
        replay = server_replay(game, rows, history=claim_draw)
        if replay.whole:
            # The server is the board: an illegal move is refused before anything is stored or charged.
            move = move_checked(replay, notation)
            notation = replay.board.text(move)
            after = replay.board.copy()
            after.push(move)
            ending = end_of_move(after) or (claim_checked(after, claim_draw, with_move=True) if claim_draw else None)
            position = position_after(game, replay, after, colour=colour, number=number, text=notation,
                                      seq=seq_next(rows))
        elif claim_draw:
            raise InvalidInput(_("a draw is claimed on the board, and corr cannot read this game's moves: ask the"
                               " arbiter"), field="claim_draw")
        if fired is not None:
            # 50.4.8: the reply played from the owner's line travels with the partner's move it answers:
            # it carries no dates, and costs the owner nothing beyond the move the line was sent with.
            variant, received_on, sent_on, sent_at, received_at = "conditional", None, None, None, None
        else:
            received_on, sent_on = pending.received_on, today
            sent_at, received_at = now, dispatched_at(rows, before.last_move_seq[other(colour)])
            if counts_instants(game):  # the dates are the instants' dates in the tournament's zone
                sent_on = local_today(game.tournament, now)
                received_on = None if received_at is None else local_today(game.tournament, received_at)
    elif claim_draw:
        raise InvalidInput(_("in postal and e-mail games a draw claim goes to the arbiter with your move (FIDE 9.2,"
                             " 9.3): tell the arbiter"), field="claim_draw")
    elif variant:
        if received_on is not None or sent_on is not None:
            raise InvalidInput(_("a variant move carries no dates (50.4.8)"),
                               field="received_on" if received_on is not None else "sent_on")
    else:
        if mail and mail not in Mail.values:
            raise InvalidInput(_("mail must be one of %(allowed)s, got %(value)s"), field="mail",
                               allowed=", ".join(Mail.values), value=repr(mail))
        if sent_on is None:
            raise InvalidInput(_("sent_on is required in postal games: the date you sent the move"), field="sent_on")
        if received_on is None:
            if pending.received_on is not None and not pending.presumed:
                received_on = pending.received_on  # the receipt the player recorded
            elif pending.received_on is not None:
                raise InvalidInput(
                    _("received_on is required: the date you received %(partner)s's move (none recorded;"
                      " presumed %(presumed)s)"), field="received_on", partner=colour_word(other(colour)),
                    presumed=pending.received_on)
        ensure_not_after_today(received_on, "received_on", today, game)
        ensure_not_after_today(sent_on, "sent_on", today, game)
    trees = trees_read(game, locked.trees) if game.mode == Mode.SERVER else {}
    line = fired.line if fired is not None else None
    if board is None and (trees or conditional is not None):
        try:
            board = board_now(game)  # the position before the move: the trees are read on it
        except InvalidInput:
            if conditional is not None:
                raise
            # A stored move an arbiter corrected into one the board refuses: the trees cannot be read, and
            # the move is taken all the same (the trees are dropped below).
    if conditional is not None:
        line = line_sent(game=game, board=board, notation=notation, conditional=conditional, number=number)
    note = "" if fired is None else record_text("conditional_reply", number=fired.line.sent_with_move)
    new = event_new(by, EventKind.MOVE, colour, number=number, notation=notation, received_on=received_on,
                    sent_on=sent_on, void=void, variant=variant, mail=mail, note=note)
    if game.mode == Mode.SERVER:
        new.sent_at, new.received_at = sent_at, received_at
    # Opens a registered-mail case if 50.4.12 was broken: the warning names it.
    time, changes = events_store_changes(game, rows, [new], today, cases=locked.cases, trip=locked.trip,
                                         as_of=as_of, position=position,
                                         # The board's ending is written after the move, in its transaction.
                                         keep_open=bool(trees) or line is not None or ending is not None)
    case = next((c for c in changes.opened if c.kind == CaseKind.REGISTERED_MAIL and c.event_seq == new.seq), None)
    warnings = mover_warnings(game, time, colour, case, mail, cases=[*changes.cases, *changes.opened])
    if replay is not None and replay.unread is not None:
        warnings.append(unread_warning(replay.unread))
    if game.mode == Mode.SERVER and ending is None:
        # The partner is told after commit, by a task that reads the game itself: no statement in this
        # transaction (issue 13's count), and a task published only once the move is stored (the trip's commit).
        notice_on_commit(Change.MOVE, game_id=game.pk, version=game.events_version, colour=colour, trip=locked.trip,
                         seq=new.seq)
    if ending is not None:
        for player in list(trees):  # the game is over: no line fires
            tree_write(game, trees, player, None, now)
        return board_end_record(game=game, by=by, mover=colour, ending=ending, today=today, now=now), warnings
    if trees or line is not None:
        time = trees_follow(locked=locked, by=by, colour=colour, notation=notation, line=line, trees=trees,
                            board=board, time=time, today=today, now=now)
    return time, warnings


def trees_follow(*, locked: Locked, by: User, colour: str, notation: str, line: Line | None,
                 trees: dict, board, time: GameTime, today: date, now: datetime) -> GameTime:
    """After ``colour``'s move ``notation`` (stored; ``board`` the position before it): the mover's tree
    becomes ``line`` (or follows their move by hand), and the partner's fires or is dropped.

    A reply that fires is stored by ``move_store`` under the same lock, at the same instant, and may
    fire the mover's own new line in turn. A reply the rules refuse (its flag fell, say) is not stored and
    the tree stays: the partner's move stands whatever the tree does. The game's time after them all.
    """
    game = locked.game
    if board is None:  # the position cannot be replayed: no tree can be read on it
        for player in list(trees):
            tree_write(game, trees, player, None, now)
        return time
    reopens = reopenings(locked.rows)
    if line is None:
        line = line_after_own_move(trees.get(colour), board, notation, reopens)
    tree_write(game, trees, colour, line, now, reopens=reopens)
    partner = other(colour)
    firing = firing_of(game, trees.get(partner), board, notation, now, reopens)
    if firing == "wait":
        tree_await(trees, partner, notation, board, now)
        return time
    if firing is None:
        tree_write(game, trees, partner, None, now)
        return time
    after = played(board, notation)  # a branch matched: the move is a legal one
    again = Locked(game=game, rows=game_rows(game=game), cases=None, trip=locked.trip, trees=list(trees.values()))
    try:
        return move_store(locked=again, by=game.user_of(partner), number=time.assembled.made[partner] + 1,
                          notation=firing.then, today=today, now=now, fired=firing, board=after)[0]
    except (ServiceError, ClockError):
        return time


def unread_warning(unread) -> Said:
    """The mover's warning in a server game stored before its moves were checked (issue 36), unread from ``unread``."""
    return Said(_("%(unread)s: moves are recorded as written and not checked until an arbiter corrects that move"),
                unread=unread)


def ensure_flag_standing(game: Game, rows, colour: str, now: datetime) -> None:
    """Under ``timeouts: automatic`` a move after its flag fell is refused: the game is lost on time at the flag.

    The ICCF webserver, lichess and chess.com way; the flag check records the
    result (``corr.timeouts``), at once or within a sweep. A game an arbiter
    reopened is theirs: its late moves are stored and open cases.
    :raises TurnConflict: naming the instant the flag fell (409).
    """
    if any(row.kind == EventKind.REOPEN for row in rows):
        return
    over = game_time(game, rows, now).clock.accounts[colour].overstepped
    if over is not None:
        at = getattr(over, "at", None)
        raise TimeRanOut(_("%(colour)s's time ran out at %(at)s: the game is lost on time"), field="number",
                         colour=colour_word(colour), at=instant_text(at) if at is not None else now)


def dispatched_at(rows, seq: int | None) -> datetime | None:
    """The instant the partner's last move (the row ``seq`` in force, ``Assembled.last_move_seq``) was sent.

    That is the player to move's receipt of it in a server game. None for the
    first move, and for a game whose moves were stored before instants were (issue 22).
    """
    if seq is None:
        return None
    row = next((r for r in reversed(rows) if r.seq == seq), None)  # the latest rows are searched first
    if row is not None and row.sent_at is None and row.variant:
        # A conditional reply (issue 28) was sent with the move it answered, at that move's instant.
        row = next((r for r in reversed(rows) if r.seq < seq and r.kind == EventKind.MOVE and r.sent_at is not None),
                   None)
    return None if row is None else row.sent_at


def mover_warnings(game: Game, time: GameTime, colour: str, case: OverstepCase | None, mail: str,
                   cases=None) -> list[Said]:
    """What the player who just moved must know at once (the partner hears from the nightly run), worded when
    read (in the page's or the API's language).

    50.4.12 (registered mail in time trouble) is a rule of the post: it is
    named in postal and e-mail games only. An overstep names its case as it stands: open for the arbiters,
    or decided by them (a confirmed overstep reopened, a dismissed one: no case is open, and none opens again).
    ``cases``: the game's cases that are not withdrawn, if the caller read them (queried otherwise).
    """
    warnings = []
    if case is not None:
        warnings.append(Said(
            _("%(colour)s had %(days)s day(s) left in control %(control)s when sending move %(move)s: 50.4.12"
              " requires registered mail, and this move was sent by %(mail)s; the arbiters will decide on penalty"
              " days (50.4.9.3), case %(case)s"), colour=colour_word(colour), days=case.allowed_days - case.used_days,
            control=case.control_number, move=case.through_move, mail=Mail(mail).label, case=case.pk))
    account = time.clock.accounts[colour]
    if account.overstepped is not None:
        over = account.overstepped
        if cases is None:
            cases = OverstepCase.objects.filter(game=game).exclude(status=OverstepStatus.WITHDRAWN)
        same = [c for c in cases if c.kind == CaseKind.OVERSTEP and c.player == colour
                and c.control_number == over.control]
        values = {"colour": colour_word(colour), "used": over.used_days, "allowed": over.allowed_days,
                  "control": over.control}
        if not same or any(c.status == OverstepStatus.OPEN for c in same):
            warnings.append(Said(_("%(colour)s has used %(used)s of %(allowed)s days in control %(control)s (50.4.3):"
                                   " an overstep case is open for the arbiters"), **values))
        else:
            decided = same[-1]
            warnings.append(Said(_("%(colour)s has used %(used)s of %(allowed)s days in control %(control)s (50.4.3):"
                                   " the arbiters decided its case %(case)s (%(status)s)"), case=decided.pk,
                                 status=decided.get_status_display(), **values))
    elif account.time_trouble and game.mode == Mode.POSTAL:
        warnings.append(Said(_("%(colour)s has %(days)s day(s) left in control %(control)s: send your next replies by"
                               " registered mail (50.4.12)"), colour=colour_word(colour), days=account.remaining_days,
                             control=account.control.number))
    return warnings


@transaction.atomic
def receipt_record(*, game: Game, by: User, received_on: date, today: date) -> GameTime:
    """Record the date the player to move received the partner's move (postal games)."""
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    if game.mode == Mode.SERVER:
        raise InvalidInput(_("receipts are recorded in postal games; the server delivers moves at once"),
                           field="received_on")
    before = game_time(game, rows, today)
    if before.to_move != colour:
        raise TurnConflict(_("nothing to receive: it is %(to_move)s's turn"), field="received_on",
                           to_move=colour_word(before.to_move))
    pending = before.assembled.pending
    if pending.received_on is None:
        raise InvalidInput(_("the first move of the game answers no move: nothing to receive"), field="received_on")
    dispatched = pending.received_on - timedelta(days=game.tournament.presumed_transit_days) \
        if pending.presumed else None
    if dispatched is not None and received_on < dispatched:
        raise InvalidInput(_("received_on %(received)s is before the partner sent it on %(sent)s"),
                           field="received_on", received=received_on, sent=dispatched)
    ensure_not_after_today(received_on, "received_on", today, game)
    new = event_new(by, EventKind.RECEIPT, colour, number=pending.number, received_on=received_on)
    return events_store(game, rows, [new], today)


@transaction.atomic
def notice_submit(*, game: Game, by: User, reason: str, received_on: date, sent_on: date,
                  today: date) -> GameTime:
    """A notice of the partner's impossible or illegible move, or a repeat (50.4.7), in postal games.

    A notice of an impossible or illegible move is sent by the player to move:
    the partner's last move becomes void (a correction row) and the partner
    must send it again. A repeat is sent by the player waiting for an answer.
    """
    game, rows = game_lock(game)
    colour = player_colour_of(game, by)
    ensure_ongoing(game)
    if game.mode == Mode.SERVER:
        raise InvalidInput(_("notices are for postal games: the server refuses impossible moves"), field="reason")
    reason_value = reason_checked(NoticeReason, reason)
    for field, value in (("received_on", received_on), ("sent_on", sent_on)):
        if value is None:
            raise InvalidInput(_("%(name)s is required"), field=field, name=field)
        ensure_not_after_today(value, field, today, game)
    before = game_time(game, rows, today)
    new = []
    if reason_value is NoticeReason.REPEAT:
        if before.to_move == colour:
            raise TurnConflict(_("a repeat answers the partner's repeated move: it is your turn to move"),
                               field="reason")
    else:
        if before.to_move != colour:
            raise TurnConflict(_("it is %(to_move)s's turn: only the player to move reports the partner's move"),
                               field="reason", to_move=colour_word(before.to_move))
        seq = before.assembled.last_move_seq[other(colour)]
        if seq is None:
            raise InvalidInput(_("%(partner)s has sent no move to report"), field="reason",
                               partner=colour_word(other(colour)))
        target = row_in_force(rows, seq)
        if not target.void:
            new.append(correction_of(target, by, void=True,
                                   note=record_text("void", player=colour,
                                                    reason=reason_value.value.replace("_", " "))))
    number = before.assembled.made[colour] + 1
    new.append(event_new(by, EventKind.NOTICE, colour, number=number, reason=reason_value.value,
                      received_on=received_on, sent_on=sent_on))
    return events_store(game, rows, new, today)


def row_in_force(rows: list[GameEvent], seq: int) -> GameEvent:
    """The row in force in the place of event ``seq``; a withdrawn event cannot be acted on."""
    row = current_row(rows, seq)
    if row is None:
        raise InvalidInput(_("this game has no event #%(seq)s"), field="event", seq=seq)
    if row.kind == EventKind.WITHDRAWAL:
        raise InvalidInput(_("event #%(seq)s was withdrawn"), field="event", seq=seq)
    if row.kind in RECORD_KINDS:
        raise InvalidInput(_("event #%(seq)s is a %(kind)s line of the history: it is never corrected or withdrawn"),
                           field="event", seq=seq, kind=row.kind)
    return row


def correction_of(row: GameEvent, by: User, note: str, **changes) -> GameEvent:
    fields = {f: getattr(row, f) for f in ("kind", "player", "number", "notation", "received_on", "sent_on",
                                           "received_at", "sent_at", "void", "variant", "mail", "reason", "days")}
    fields.update(changes)
    return GameEvent(supersedes_id=row.id, entered_by=by, note=note, **fields)
