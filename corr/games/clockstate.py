"""Reading a game's clock from its stored rows: the one way every page, API and job gets time."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time as dt_time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from corr.clock import GameClock, compute, write_game
from corr.clock.assembly import Assembled, assemble
from corr.models import Game, GameStatus, Mode

from .leaves import game_leave
from .personal import with_personal_facts


def local_today(tournament, now: datetime) -> date:
    """The calendar date in the tournament's time zone at the instant ``now`` (aware).

    Days count by the tournament's calendar: a move sent at 23:30 in Moscow is
    sent that day, whatever the server's zone says.
    """
    return now.astimezone(ZoneInfo(tournament.time_zone)).date()


INSTANT_COUNTS = frozenset({"whole_days", "exact"})
"""The counts of ``time_control.count`` that measure a move by its instants (issue 22; ICCF 2.4.2, lichess)."""


def tournament_count(tournament) -> str:
    """The tournament's ``time_control.count``: ``dates`` (article 50.4.4, the default), ``whole_days`` or ``exact``.

    A tournament keeps the count it was created with: its time control is
    stored expanded (``tournament_create``), so one created before counts
    existed has no ``count`` and counts dates.
    """
    return ruleset_count(tournament.ruleset)


def ruleset_count(ruleset) -> str:
    """A calculator ruleset's count as its JSON word (``Ruleset.count``, a ``Count``; ``dates`` by default)."""
    count = getattr(ruleset, "count", "dates")
    return str(getattr(count, "value", count))


def counts_instants(game: Game) -> bool:
    """Whether ``game``'s clock runs on instants: a server game whose tournament counts whole days or exact time.

    A postcard carries no instant: a postal game always counts dates.
    """
    return game.mode == Mode.SERVER and tournament_count(game.tournament) in INSTANT_COUNTS


def midnight(tournament, day: date) -> datetime:
    """00:00 of ``day`` in the tournament's zone, as an aware UTC instant (a DST gap gives the first hour)."""
    return datetime.combine(day, dt_time(0), tzinfo=ZoneInfo(tournament.time_zone)).astimezone(UTC)


def clock_as_of(game: Game, as_of: date) -> date:
    """What ``game``'s clock is computed as of, given a date or an aware instant.

    Under an instant count an aware UTC ``datetime``, to the second: the
    instant itself, or for a date the end of that date in the tournament's
    zone (the nightly run checks a day once it is over) but never later than
    the present: a caller that knows only today's date (an arbiter's penalty,
    the night's re-check of today) must not see a flag that has not fallen yet.
    Under ``dates`` a date: a date itself, an instant's date in the
    tournament's zone.
    """
    t = game.tournament
    if counts_instants(game):
        if isinstance(as_of, datetime):
            return as_of.astimezone(UTC).replace(microsecond=0)
        end = datetime.combine(as_of, dt_time(23, 59, 59), tzinfo=ZoneInfo(t.time_zone)).astimezone(UTC)
        return min(end, timezone.now().astimezone(UTC).replace(microsecond=0))
    if isinstance(as_of, datetime):
        return local_today(t, as_of)
    return as_of


def instant_text(at: datetime | None) -> str | None:
    """An instant as RFC 3339 in UTC to the second (``2024-06-01T18:00:36Z``), as the calculator writes ``flag_at``."""
    return None if at is None else at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def moment_text(as_of: date) -> str:
    """A clock's ``as_of`` as the calculator's JSON writes it: a date, or an instant in RFC 3339 UTC."""
    return instant_text(as_of) if isinstance(as_of, datetime) else as_of.isoformat()


def clock_day(game: Game, as_of: date) -> date:
    """The calendar date, in the tournament's zone, of a clock's ``as_of`` (a date, or an instant of a server game)."""
    return local_today(game.tournament, as_of) if isinstance(as_of, datetime) else as_of


@dataclass(frozen=True, slots=True)
class GameTime:
    """A game's assembled events and their clock as of one date."""

    assembled: Assembled
    clock: GameClock

    @property
    def to_move(self) -> str | None:
        return self.assembled.to_move


def assemble_game(game: Game, rows, as_of: date, *, clock_tuples: bool = False) -> Assembled:
    """``assemble`` of the game's stored ``rows`` (``clock_tuples``: plain tuples of ``CLOCK_FIELDS``).

    ``as_of``: a date or an aware instant (``clock_as_of``). Under an instant
    count the events carry their instants and the official start is 00:00 of
    its date in the tournament's zone (issue 22).
    """
    t = game.tournament
    instants = counts_instants(game)
    if not isinstance(rows, list):
        rows = list(rows)  # read twice: by the assembly and for the players' own facts
    assembled = assemble(
        rows=rows, ruleset=t.ruleset, official_start=clock_start(game) if instants else t.official_start,
        first=game.first, transit_days=None if game.mode == Mode.SERVER else t.presumed_transit_days,
        ongoing=game.status == GameStatus.ONGOING, as_of=clock_as_of(game, as_of), leave=game_leave(game),
        clock_tuples=clock_tuples, instants=instants, time_zone=t.time_zone,
    )
    # Issue 40: each player's own calendar, vacations and pauses, beside the players (the same game otherwise).
    own = with_personal_facts(game, assembled.game, rows, clock_tuples=clock_tuples)
    return assembled if own is assembled.game else replace(assembled, game=own)


def clock_start(game: Game) -> datetime:
    """The instant a server game counted in instants starts its first mover's clock: 00:00 of the official start
    in the tournament's zone (50.4.5), or the game's own ``clock_start`` when later (a game created after its
    tournament's start charges nothing before it existed: issue 39)."""
    official = midnight(game.tournament, game.tournament.official_start)
    own = getattr(game, "clock_start", None)
    return own if own is not None and own > official else official


def silent_days(*, game: Game, received_on: date | datetime | None, now: datetime) -> int:
    """Whole days without a move since ``received_on`` (the partner's move reached the player; None: the game's
    clock start): 24-hour days from an instant, calendar days in the tournament's zone from a date.

    One count for ICCF's silence (issue 40): its reminders (``corr.notify.silence``) and the "Use 40+ days"
    notice's refusal once the limit has passed (``corr.games.services.long_move``)."""
    if received_on is None:
        received_on = clock_start(game) if counts_instants(game) else game.tournament.official_start
    if isinstance(received_on, datetime):
        return int((now - received_on) // timedelta(days=1))
    return (local_today(game.tournament, now) - received_on).days


def game_time(game: Game, rows, as_of: date, *, with_ledger: bool = False, clock_tuples: bool = False) -> GameTime:
    """Assemble the stored ``rows`` of ``game`` and compute its clock as of ``as_of``.

    ``with_ledger``: the ledger is built in the same pass (for a caller that shows it).
    ``clock_tuples``: the rows are plain tuples of ``assemble.CLOCK_FIELDS`` (``assemble``).

    :raises ClockError: if the rows do not make a valid game (callers that add
        rows catch it and store nothing).
    """
    assembled = assemble_game(game, rows, as_of, clock_tuples=clock_tuples)
    return GameTime(assembled=assembled,
                    clock=compute(assembled.game, clock_as_of(game, as_of), with_ledger=with_ledger))


def game_file(game: Game, rows, as_of: date) -> dict:
    """The game as a game file that ``manage.py clock`` accepts and computes the same way."""
    assembled = assemble_game(game, rows, as_of)
    data = write_game(assembled.game, clock_as_of(game, as_of))
    by_seq = {row.seq: row for row in rows}
    for event, seq in zip(data["events"], assembled.sources, strict=True):
        row = by_seq.get(seq)
        if row is not None and row.kind == "move":
            if row.notation:
                event["notation"] = row.notation
            if row.mail:
                event["mail"] = row.mail
    data["meta"] = {"game": game.pk, "tournament": game.tournament_id, "mode": game.mode,
                    "pending": None if assembled.pending is None else assembled.pending.as_json()}
    return data
