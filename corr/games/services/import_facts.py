"""A postal or e-mail game's file entered again through the services (issue 37): its copy keeps its clocks.

corr's PGN of a postal or e-mail game (``Mode`` PM or EM) holds every fact its clocks are computed from, read
into a game file by :mod:`corr.formats.pgn_stamps`. Each fact is entered again through the service that took
it the first time, on the day the file dates it (never after the import's day), so that every check of a live
entry holds (the turn, the numbers, the dates, 50.4.7's notices, the calculator's verdict on the whole game)
and the history reads as the game went; the stored clocks end as of the import's day:

- before the first move, each range of leave (``[%ccleave]``) as the game's own leave
  (:func:`.leave.game_leave_import`: granted by the importing arbiter, for this game alone, so that none of the
  players' other games changes) and each late start notice (``[%ccstart]``, ``start_notice_record``);
- a move (``[%ccsnt]``, with the mover's receipt ``[%ccrd]``): ``move_submit`` by its player, recorded as
  written (50.4.9.1: a postal move is not checked on the board), on its sent day, its mail not known;
- a void move (``[%ccvoid]``, its notation from corr's words ``void move 2 Ke3:``): ``move_submit(void=True)``;
  a notice (``[%ccnotice]``): ``notice_submit`` by the player who sent it;
- a penalty (``[%ccpenalty]``) and a delay (``[%ccdelay]``): ``penalty_assess`` and ``delay_assess`` by the
  importing arbiter, on the day of the fact before them;
- the move on turn's recorded receipt (a ``[%ccrd]`` after the last stamp): ``receipt_record``; none written is
  the tournament's presumption (sent day plus its transit days), as it was the original's.

The game's leave must be the file's, day for day: leave the tournament already gives the player (a booking
for every tournament that allows leave, special leave in it) that the file does not hold is refused, since
the copy's clocks would differ from the original's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.utils.translation import gettext

from accounts.models import User
from corr.clock import ClockError
from corr.models import Game

from ..clockstate import local_today
from ..errors import ServiceError, colour_word
from ..leaves import game_leave, leave_forget
from ..records import record_text
from .arbiters import delay_assess, penalty_assess, start_notice_record
from .leave import game_leave_import
from .participants import move_submit, notice_submit, receipt_record
from .storage import game_lock, game_recompute


class Refused(Exception):
    """A game of the import that cannot be entered; ``line`` names the game and the fact, and says why."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


_VOID_WORDS = re.compile(r"void move (\d+) (.*?): received ")
_NO_NOTATION = "(no notation)"
_RECEIPT_OR_DISPATCH = re.compile(r"\[%(ccrd|ccsnt|ccvoid|ccnotice)\s")


def void_notations(read) -> list[str]:
    """The notations of the game's void moves, in order, from corr's words beside ``[%ccvoid]`` (blank: none)."""
    comments = [read.comment, *(node.comment for node in read.mainline())]
    return ["" if notation == _NO_NOTATION else notation
            for comment in comments for _number, notation in _VOID_WORDS.findall(comment)]


def pending_receipt_written(read) -> bool:
    """Whether the file records the move on turn's receipt: a ``[%ccrd]`` after the last dispatch of the game
    (the reader otherwise dates it at the partner's stamp, which by post is no receipt but the dispatch)."""
    nodes = list(read.mainline())
    comment = nodes[-1].comment if nodes else read.comment
    names = _RECEIPT_OR_DISPATCH.findall(comment)
    return len(names) > 1 and names[-1] == "ccrd"


def postal_facts_import(*, game: Game, by: User, file: dict, sans: list[str], voids: list[str],
                        pending_receipt: bool, label: str, now: datetime) -> Game:
    """Enter ``file``'s facts (a game file of :func:`corr.formats.pgn_stamps.games_from_pgn`) into ``game``, a new
    game of a postal tournament ``by`` arbitrates, and store its clocks as of ``now``'s day in the tournament.

    ``sans``: the moves on the board, in order; ``voids``: the void moves' notations; ``pending_receipt``: the file
    records the move on turn's receipt. :raises Refused: naming the game and the fact the services refused.
    """
    tournament = game.tournament
    zone = ZoneInfo(tournament.time_zone)
    last_day = import_day = local_today(tournament, now)
    users = {"white": game.white, "black": game.black}

    def enter(where: str, day: date, service: Callable[..., object], **values) -> None:
        try:
            service(game=game, today=min(day, import_day), **values)
        except (ServiceError, ClockError) as error:
            raise Refused(f"{label}, {where}: {error.message}") from None

    for colour, facts in file["players"].items():
        for span in facts.get("leave", []):
            first, last = date.fromisoformat(span["from"]), date.fromisoformat(span["to"])
            enter(f"{colour}'s [%ccleave {first:%Y.%m.%d} {last:%Y.%m.%d}]", import_day, _leave_store, by=by,
                  player=colour, first=first, last=last)
    _leave_checked(game, file, label)
    for colour, facts in file["players"].items():
        if facts.get("notice_received_on"):
            received = date.fromisoformat(facts["notice_received_on"])
            enter(f"{colour}'s [%ccstart {received:%Y.%m.%d}]", received, start_notice_record, by=by, player=colour,
                  received_on=received)
    moves, void_words = iter(sans), iter(voids)
    for event in file["events"]:
        kind, player = event["type"], event["player"]
        received, sent = _day(event, "received", zone), _day(event, "sent", zone)
        if kind == "move" and sent is None:  # the move on turn: its receipt, if the file records one
            if pending_receipt and received is not None:
                enter(f"{player}'s move {event['number']} pending, [%ccrd {received:%Y.%m.%d}]", received,
                      receipt_record, by=users[player], received_on=received)
            continue
        if kind == "move":
            void = bool(event.get("void"))
            notation = next(void_words, "") if void else next(moves, "")
            where = (f"{player}'s [%ccvoid] {event['number']} {notation}".rstrip() if void
                     else f"{player}'s move {event['number']} ({event['number']}{'.' if player == 'white' else '...'}"
                          f" {notation})")
            enter(where, sent, move_submit, by=users[player], number=event["number"], notation=notation,
                  received_on=received, sent_on=sent, void=void, now=now)
            last_day = sent
        elif kind == "notice":
            enter(f"{player}'s [%ccnotice] {event['reason']}", sent, notice_submit, by=users[player],
                  reason=event["reason"], received_on=received, sent_on=sent)
            last_day = sent
        elif kind == "penalty":
            enter(f"[%ccpenalty {player} {event['move']} {event['reason']}]", last_day, penalty_assess, by=by,
                  player=player, reason=event["reason"], move=event["move"])
        elif kind == "delay":
            enter(f"[%ccdelay {player} {event['move']} {event['days']} {event['reason']}]", last_day, delay_assess,
                  by=by, player=player, days=event["days"], move=event["move"], reason=event["reason"])
    locked, _rows = game_lock(game)
    game_recompute(locked, by=by, today=import_day, cause=record_text("cause_imported", game=game.pk, name=by.username))
    return locked


def _leave_store(*, game: Game, today: date, by: User, player: str, first: date, last: date) -> None:
    game_leave_import(by=by, game=game, player=player, first=first, last=last, today=today)


def _day(event: dict, end: str, zone: ZoneInfo) -> date | None:
    """The day of ``event``'s ``end`` (``received``, ``sent``): its date, or its instant's date in the zone."""
    if f"{end}_on" in event:
        return date.fromisoformat(event[f"{end}_on"])
    if f"{end}_at" in event:
        return datetime.fromisoformat(event[f"{end}_at"].replace("Z", "+00:00")).astimezone(zone).date()
    return None


def _leave_checked(game: Game, file: dict, label: str) -> None:
    """The game's leave is the file's, day for day. :raises Refused: naming the player and the days the
    tournament adds (a booking for every tournament that allows leave, or special leave in it)."""
    leave_forget(game)
    for colour, ranges in game_leave(game).items():
        given = {day for span in ranges for day in _days(span.first, span.last)}
        written = {day for span in file["players"][colour].get("leave", [])
                   for day in _days(date.fromisoformat(span["from"]), date.fromisoformat(span["to"]))}
        extra = sorted(given - written)
        if extra:
            raise Refused(f"{label}: " + gettext(
                "%(colour)s's leave in this tournament (%(first)s to %(last)s) is not in the file: the copy's clocks"
                " would differ from the game's; import into a tournament that allows no leave (leave_days 0)")
                % {"colour": colour_word(colour), "first": date.fromordinal(extra[0]).isoformat(),
                   "last": date.fromordinal(extra[-1]).isoformat()})


def _days(first: date, last: date) -> list[int]:
    return list(range(first.toordinal(), last.toordinal() + 1))
