"""Reading a game's clock from its stored rows: the one way every page, API and job gets time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from corr.clock import GameClock, compute, write_game
from corr.clock.assembly import Assembled, assemble
from corr.models import Game, GameStatus, Mode

from .leaves import game_leave


def local_today(tournament, now: datetime) -> date:
    """The calendar date in the tournament's time zone at the instant ``now`` (aware).

    Days count by the tournament's calendar: a move sent at 23:30 in Moscow is
    sent that day, whatever the server's zone says.
    """
    return now.astimezone(ZoneInfo(tournament.time_zone)).date()


@dataclass(frozen=True, slots=True)
class GameTime:
    """A game's assembled events and their clock as of one date."""

    assembled: Assembled
    clock: GameClock

    @property
    def to_move(self) -> str | None:
        return self.assembled.to_move


def assemble_game(game: Game, rows, as_of: date, *, clock_tuples: bool = False) -> Assembled:
    """``assemble`` of the game's stored ``rows`` (``clock_tuples``: plain tuples of ``CLOCK_FIELDS``)."""
    t = game.tournament
    return assemble(
        rows=rows, ruleset=t.ruleset, official_start=t.official_start, first=game.first,
        transit_days=None if game.mode == Mode.SERVER else t.presumed_transit_days,
        ongoing=game.status == GameStatus.ONGOING, as_of=as_of, leave=game_leave(game), clock_tuples=clock_tuples,
    )


def game_time(game: Game, rows, as_of: date, *, with_ledger: bool = False, clock_tuples: bool = False) -> GameTime:
    """Assemble the stored ``rows`` of ``game`` and compute its clock as of ``as_of``.

    ``with_ledger``: the ledger is built in the same pass (for a caller that shows it).
    ``clock_tuples``: the rows are plain tuples of ``assemble.CLOCK_FIELDS`` (``assemble``).

    :raises ClockError: if the rows do not make a valid game (callers that add
        rows catch it and store nothing).
    """
    assembled = assemble_game(game, rows, as_of, clock_tuples=clock_tuples)
    return GameTime(assembled=assembled, clock=compute(assembled.game, as_of, with_ledger=with_ledger))


def game_file(game: Game, rows, as_of: date) -> dict:
    """The game as a game file that ``manage.py clock`` accepts and computes the same way."""
    assembled = assemble_game(game, rows, as_of)
    data = write_game(assembled.game, as_of)
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
