"""The bounds of every input, in one place: API serializers, web forms, model validators and commands use them.

Each limit keeps a value within what the rules can mean and what its column
holds (where a column is smaller than a limit, the column wins: a
``PositiveSmallIntegerField`` holds at most 32767). An input outside its bounds
is answered 400 naming the field (a form error in the pages, exit status 2 in
the commands) and nothing is stored. Django-free, like the calculator, so that
anything may import it; docs/security.md's "Input limits" lists the same numbers.
"""

from __future__ import annotations

from datetime import date

SMALLINT_MAX = 32767
"""The largest value of a ``PositiveSmallIntegerField`` column (PostgreSQL ``smallint``)."""
INT_MAX = 2_147_483_647
"""The largest value of a ``PositiveIntegerField`` column (``integer``): event numbers (``seq``)."""
ID_MAX = 9_223_372_036_854_775_807
"""The largest primary key (``bigint``): ids given in a body (``tournament``)."""

DATE_MIN = date(1900, 1, 1)
"""First date of the calendar window: every date of a tournament, an event, ``--as-of`` and ``--date``."""
DATE_MAX = date(2199, 12, 31)
"""Last date of the calendar window. Postal chess began in the 19th century and no game runs for centuries;
with every day count below bounded, no deadline computed from a date in the window passes year 9999."""

LIVE_START_AHEAD_DAYS_MAX = 366
"""A live game's ``starts_at`` is at most a leap year after its creation (issue 42: a start in the year 9999 was
stored, and the flag timer scheduled at its instant raised). The earliest is a minute before its creation."""

DAYS_MAX = 3650
"""Ten years: the most days any ruleset number or arbiter's delay may give."""
MOVES_MAX = 10_000
"""The largest move number (moves, and the move a penalty or delay is charged to); no game comes near it."""
RULESET_RANGES: dict[str, tuple[int, int]] = {
    "moves_per_control": (1, MOVES_MAX),
    "days_per_control": (1, DAYS_MAX),
    "grace_days": (0, DAYS_MAX),
    "first_penalty_days": (0, DAYS_MAX),
    "repeat_penalty_days": (0, DAYS_MAX),
    "time_trouble_days": (0, DAYS_MAX),
    "late_notice_start_days": (0, DAYS_MAX),
}
"""Inclusive ranges of the 50.4 ruleset numbers (``corr.clock.Ruleset``; smallint columns of ``Tournament``)."""
TIME_CONTROL_NUMBER_MAX = MOVES_MAX
"""The largest number anywhere in a ruleset's ``time_control`` object (days, moves, periods)."""
TIME_CONTROL_SECONDS_MAX = 7 * 86_400
"""The largest number of a ``time_control`` in seconds (``"unit": "seconds"``, live games): a week, beyond
any board game's main time (a two-day Go title game gives each player 8 hours)."""
TIME_CONTROL_ITEMS_MAX = 100
"""The most items of a list in a ``time_control`` object (``stages``)."""

DELAY_DAYS_MIN = 1
"""A delay (50.4.11) is at least one day: a delay of none is no event (withdraw a delay instead of zeroing it).
Game files read by ``manage.py clock`` still accept 0, as before."""
DELAY_DAYS_MAX = DAYS_MAX
DELAY_CONFIRM_DAYS = 30
"""The pages ask the arbiter to confirm a delay of more than this many days (a month: one late repeat rarely
costs more; 1000 days is a typo until said otherwise). The API takes what it is given, within the bounds."""
PRESUMED_TRANSIT_DAYS_MAX = 365
"""Days a move is presumed in transit before its receipt is recorded (0 for e-mail)."""
LEAVE_DAYS_MAX = 366
PAUSES_PER_GAME_MAX = 100
"""A tournament's ``pauses_per_game`` (issue 40; OGS gives a handful): a bound on input, not a server's rule."""
PAUSE_DAYS_MAX = 30
"""The longest pause a player may take at once (issue 40): OGS's pause lasts until resumed; corr's has an end,
given when it starts, so that the flag's instant is known; a bound on input, not a server's rule."""
VACATION_DAYS_MAX = 366
"""The longest vacation booked at once (issue 40): the allowance bounds it first (chess.com's cap is 35 days)."""
VACATION_AHEAD_DAYS_MAX = 366
"""A vacation's ``starts`` is at most a leap year after the booking (issue 40 review: a start in the year 9000
made the allowance's accrual, a step every ``period_days`` from the game's start, run ~10^5 steps on every
computation); no server books vacations further ahead, and the allowance then bounds its length."""
GIFT_DAYS_MAX = 30
"""A tournament's ``gift_max_days``: the most days one player may give their partner in one game (issue 39;
Dragon Go Server lets a player add at most 14 days at a time, lichess 15 seconds a press)."""
"""A tournament's leave numbers (allowance, minimum length, booking ahead): at most a leap year's days."""

NAME_MAX = 200
"""A tournament's name (its column)."""
NOTATION_MAX = 64
"""A move's notation (its column)."""
REASON_MAX = 32
"""A notice's, penalty's or delay's reason, one of the rules' names (its column)."""
TERMINATION_MAX = 200
"""How a game ended (``Game.termination``, its column)."""
NOTE_MAX = 2000
"""Why an event was corrected or withdrawn, and why an overstep case was dismissed."""
TIME_ZONE_MAX = 64
"""An IANA zone name (its column)."""
USERNAME_MAX = 150
"""A username (Django's column)."""
EMAIL_MAX = 254
"""An e-mail address (Django's column, RFC 5321)."""
PASSWORD_MAX = 4096
"""A password: long enough for any passphrase, short enough that hashing it costs nothing."""

JSON_DEPTH_MAX = 48
"""How deeply arrays and objects may nest in a JSON request body: a tree of conditional moves
``CONDITIONAL_DEPTH_MAX`` deep is the deepest the API reads (two levels a reply, 42 in all)."""


def date_in_window(value: date) -> bool:
    """True when ``value`` lies within ``DATE_MIN``..``DATE_MAX`` (both included)."""
    return DATE_MIN <= value <= DATE_MAX


def date_window_error(value: date, field: str) -> str | None:
    """The message for a date outside the window, naming ``field``; None for a date within it."""
    if date_in_window(value):
        return None
    return f"{field} must lie between {DATE_MIN.isoformat()} and {DATE_MAX.isoformat()}, got {value.isoformat()}"


def time_control_error(data: object, path: str = "ruleset.time_control") -> tuple[str, str] | None:
    """The first number or list of a ``time_control`` object beyond its bound: ``(message, field)``; else None.

    Only sizes are checked here; the calculator checks the shape and the rules. A control in seconds
    (live games) bounds its numbers, whole or fractional, by ``TIME_CONTROL_SECONDS_MAX``.
    """
    seconds = isinstance(data, dict) and data.get("unit") == "seconds"
    largest = TIME_CONTROL_SECONDS_MAX if seconds else TIME_CONTROL_NUMBER_MAX
    stack = [(path, data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{where}.{key}", item) for key, item in value.items())
        elif isinstance(value, list):
            if len(value) > TIME_CONTROL_ITEMS_MAX:
                return f"{where} may have at most {TIME_CONTROL_ITEMS_MAX} items, got {len(value)}", where
            stack.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and not value <= largest:
            # ``not <=`` so that a NaN is refused too.
            return f"{where} must be at most {largest}, got {value}", where
    return None

XFCC_BODY_MAX = 64 * 1024
"""Bytes of an XFCC request's body (a SOAP envelope with a move and a message of a few hundred characters);
a larger one is refused (413) before it is parsed."""
XFCC_MESSAGE_MAX = 2000
"""Characters of an XFCC request's ``myMessage`` (corr keeps no messages; bounded all the same)."""
PGN_IMPORT_MAX = 2_000_000
"""Characters of a PGN imported into a tournament (an event of a few hundred games with stamps)."""

CONDITIONAL_DEPTH_MAX = 20
"""How many replies deep a tree of conditional moves goes (issue 28): a branch and its ``next`` levels."""
CONDITIONAL_NODES_MAX = 200
"""How many branches a tree of conditional moves holds in all, every level counted."""

PREVIEW_EVENTS_MAX = 20
"""Events one preview computes (``POST /api/games/{id}/preview/``, issue 41): each runs its act's service."""
