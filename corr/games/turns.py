"""Who is on move in a correspondence game, since when, until when, and why (STYLE 17, issue 25).

The one answer every reader takes: the game page's banner and cards, "My games", the tournament page's
timeline and "Games by deadline", the API's ``turn``, the calendar feeds, the nightly reports and the
reminder e-mails. Each player of an ongoing game is in one of four states:

* ``on_move``: the move they must answer has arrived (or it is the game's first move) and a day is still in
  time: ``until`` is the deadline, the last date the move may be sent (a date), or under an instant count
  (issue 22) the instant the flag falls.
* ``over_the_control``: on move, but no day is in time: the deadline has passed (``until``), or the
  control was exceeded before the move's own days began (penalties, an earlier flag; the calculator's
  ``deadline``, and ``until``, are then None). The arbiters' case says what follows.
* ``in_the_post``: a move is presumed in the post (50.4.3: transit never counts) until ``until``, its
  presumed arrival: nobody's clock runs. Both players are in this state; ``sender`` says whose move it is.
* ``waiting``: the partner is on move (or over the control).

A finished game has both players ``finished``. The words of each state are ``corr.web.turns.turn_text``'s,
written once; this module only decides, from the calculator's computed clock (``game_turns``) or, for the
set-based nightly report, from a stored clock row (``stored_turn_state``), which agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import Enum

from corr.clock.assembly import other

from .clockstate import GameTime, counts_instants


class TurnState(str, Enum):
    """A player's state in the game (module docstring)."""

    ON_MOVE = "on_move"
    """The pending move has arrived and a day is in time: ``until`` is the deadline."""
    OVER_THE_CONTROL = "over_the_control"
    """On move, no day in time (50.4.3): the deadline passed, or the control was exceeded before the move began."""
    IN_THE_POST = "in_the_post"
    """A move is presumed in the post until ``until``; no clock runs (50.4.3)."""
    WAITING = "waiting"
    """The partner is on move."""
    FINISHED = "finished"
    """The game is over."""


class TurnSince(str, Enum):
    """Why a player on move is on move since ``since``."""

    START = "start"
    """The game's first move: counted from the player's start (the official start, or a late notice, 50.4.6)."""
    RECEIVED = "received"
    """The partner's move was received on ``since``: recorded by the player, or delivered by the server."""
    PRESUMED = "presumed"
    """Presumed received on ``since``: the partner's dispatch plus the tournament's transit days."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's answer: ``state``, the move concerned, since when, until when, and why.

    ``number``: on move, the move owed; in the post, the move travelling (``sender``'s).
    ``since``: on move, when the move to answer arrived (a date, an aware instant under an instant count);
    in the post, when the travelling move was sent. ``until``: on move, the deadline (an aware instant
    under an instant count, else a date): over the control, the deadline that has passed (None when the
    control was exceeded before the move began); in the post, its presumed arrival; None otherwise.
    ``why``: on move, a ``TurnSince``. ``sender``: in the post, the colour whose move travels.
    ``remaining_days``: the days left in the control as of the computation (negative once over).
    """

    player: str
    state: TurnState
    number: int | None = None
    since: date | None = None
    until: date | None = None
    why: TurnSince | None = None
    sender: str | None = None
    remaining_days: int | None = None

    @property
    def on_move(self) -> bool:
        """Whether the player owes a move now (in time or not)."""
        return self.state in (TurnState.ON_MOVE, TurnState.OVER_THE_CONTROL)

    @property
    def deadline(self) -> date | None:
        """The deadline's date (of an instant deadline, its date in UTC); None but on move in time."""
        if self.state is not TurnState.ON_MOVE or self.until is None:
            return None
        return self.until.astimezone(UTC).date() if isinstance(self.until, datetime) else self.until

    def as_json(self) -> dict:
        """The API's ``turn.<colour>``: values only, no words (the API translates no value)."""
        return {"state": self.state.value, "number": self.number, "since": _text(self.since),
                "until": _text(self.until), "why": None if self.why is None else self.why.value,
                "sender": self.sender}

    @classmethod
    def from_json(cls, player: str, data: dict, remaining_days: int | None = None) -> "Turn":
        """A ``Turn`` read back from ``as_json`` (a cached clock view), dates and instants parsed."""
        return cls(player=player, state=TurnState(data["state"]), number=data["number"],
                   since=_parse(data["since"]), until=_parse(data["until"]),
                   why=None if data["why"] is None else TurnSince(data["why"]), sender=data["sender"],
                   remaining_days=remaining_days)


def _text(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def _parse(text: str | None):
    if text is None:
        return None
    if "T" in text:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
    return date.fromisoformat(text)


def _over(account, as_of) -> bool:
    """No day of the pending move is in time as of ``as_of`` (a date, or an instant under an instant count)."""
    if account.deadline is None:
        return True
    if isinstance(as_of, datetime):
        return account.flag_at is not None and account.flag_at <= as_of
    return account.deadline < as_of


def game_turns(*, game, time: GameTime) -> dict[str, Turn]:
    """Each player's ``Turn`` in ``game`` from its computed ``time`` (``game_time``), by colour.

    The pending move is the calculator's (``time.assembled.pending``): it has arrived when it has no
    received date (the first move) or its received date is on or before the clock's ``as_of``; until
    then it is in the post and no clock runs.
    """
    accounts = time.clock.accounts
    days = {colour: a.control.remaining_days for colour, a in accounts.items()}
    mover = time.to_move
    pending = time.assembled.pending
    if mover is None or pending is None:
        return {colour: Turn(colour, TurnState.FINISHED, remaining_days=days[colour]) for colour in accounts}
    as_of = time.clock.as_of
    partner = other(mover)
    received = pending.received_on
    if received is not None and received > as_of:  # presumed in the post: dispatch + transit days
        transit = timedelta(days=game.tournament.presumed_transit_days)
        sent = received - transit
        travelling = time.assembled.made[partner] or None
        return {colour: Turn(colour, TurnState.IN_THE_POST, number=travelling, since=sent, until=received,
                             sender=partner, remaining_days=days[colour]) for colour in accounts}
    account = accounts[mover]
    why = TurnSince.START if received is None else TurnSince.PRESUMED if pending.presumed else TurnSince.RECEIVED
    since = received if received is not None else account.start
    until = account.flag_at if counts_instants(game) and account.flag_at is not None else account.deadline
    state = TurnState.OVER_THE_CONTROL if _over(account, as_of) else TurnState.ON_MOVE
    turn = Turn(mover, state, number=pending.number, since=since, until=until, why=why, remaining_days=days[mover])
    return {mover: turn, partner: Turn(partner, TurnState.WAITING, remaining_days=days[partner])}


URGENCY_RANK = {TurnState.OVER_THE_CONTROL: 0, TurnState.ON_MOVE: 1, TurnState.IN_THE_POST: 2, TurnState.WAITING: 3,
                TurnState.FINISHED: 4}


def urgency(turn: Turn) -> tuple[int, datetime]:
    """How soon ``turn``'s player must act, the smaller the sooner: over the control first, then on move by
    deadline, then a move in the post by its presumed arrival, then waiting, then finished (issue 36).

    The deadline is compared as an instant: an instant deadline (issue 22) as it is, a date's as the end of that
    day in UTC, so that games counted by the instant and by the day sort together; none (over the control
    before the move began) comes last in its rank. The one order of "My games", the tournament's "Games by
    deadline" and "Next game where it's my move" (STYLE 17).
    """
    until = turn.until
    if isinstance(until, datetime):
        key = until.astimezone(UTC)
    elif until is not None:
        key = datetime.combine(until, datetime.max.time(), tzinfo=UTC)
    else:
        key = datetime.max.replace(tzinfo=UTC)
    return URGENCY_RANK[turn.state], key


def turns_json(turns: dict[str, Turn]) -> dict:
    return {colour: turn.as_json() for colour, turn in turns.items()}


def view_turns(view: dict) -> dict[str, Turn]:
    """The ``Turn``s of a clock view (``game_clock_view``: its ``turn`` and its accounts' days left)."""
    players = view["clock"]["players"]
    return {colour: Turn.from_json(colour, data, players[colour]["control"]["remaining_days"])
            for colour, data in view["turn"].items()}


def stored_turn_state(*, on_move: bool, deadline: date | None, computed_on: date, on: date) -> TurnState:
    """A stored clock row's state on ``on`` (``PlayerClock``), for the set-based nightly report.

    The same answer as ``game_turns`` from the columns stored with every event: a move still in the post
    is stored as of its presumed arrival (``time_for_storage``), so a row on move computed after ``on`` is
    in the post until ``computed_on``; a row on move without a deadline, or past it, is over the control.
    (Its partner's row, not on move, says ``waiting``: the report lists players on move only.)
    """
    if not on_move:
        return TurnState.WAITING
    if computed_on > on:
        return TurnState.IN_THE_POST
    if deadline is None or deadline < on:
        return TurnState.OVER_THE_CONTROL
    return TurnState.ON_MOVE


STORED_TURN_STATE_SQL = """CASE WHEN NOT c.on_move THEN 'waiting'
  WHEN c.computed_on > %(on)s THEN 'in_the_post'
  WHEN c.deadline IS NULL OR c.deadline < %(on)s THEN 'over_the_control' ELSE 'on_move' END"""
"""``stored_turn_state`` of the row ``c`` of ``corr_playerclock`` as a PostgreSQL expression (the report's)."""
