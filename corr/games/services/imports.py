"""A server event's PGN into a server tournament (issue 26): its games, players, moves and instants, all or nothing.

An arbiter uploads a PGN of one or many games with a ``[%ccsnt]`` stamp on every move (an ICCF or
SchemingMind event's export, or corr's own): each game is created in the tournament with its
players, matched by username (the ``White`` and ``Black`` tags), the penalties and delays corr's
export writes beside them (``[%ccpenalty]``, ``[%ccdelay]``, issue 37), and its moves in SAN with the
instants (or dates) the stamps give, read in the tournament's zone (:mod:`corr.formats.pgn_stamps`,
``manage.py clock --pgn``'s reader). Every game's moves are checked by the calculator in their
place, as a move of the API is; a ``Result`` other than ``*`` ends the game, recorded by the arbiter.

A postal tournament (by post or e-mail, issue 37) takes corr's own PGN of a postal or e-mail game: each
game's facts (moves with their received dates, void moves, notices, penalties, delays, start notices, the
receipt of the move on turn, leave) are entered again through their services
(:mod:`.import_facts`), and the copy's clocks are the original's.

All or nothing: a single refused game stores no game at all, and the refusal lists one line per
refused game naming the game and, where it is one, the move.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import date, datetime

import chess.pgn
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from corr.clock import ClockError, EventError
from corr.formats.pgn_stamps import PgnStampError, games_from_pgn
from corr.models import EventKind, Game, GameEvent, GameKind, GameResult, Mail, Mode, Tournament

from ..clockstate import (INSTANT_COUNTS, assemble_game, clock_as_of, counts_instants, game_time, local_today,
                          midnight, tournament_count)
from ..errors import InvalidInput, NotAllowed, ServiceError
from ..permissions import can_arbitrate
from .arbiters import game_finish
from .import_facts import Refused as _Refused
from .import_facts import pending_receipt_written, postal_facts_import, void_notations
from .setup import game_create
from .storage import events_store

GAMES_MAX = 1000
"""Games in one import at most (a large ICCF event has a few hundred)."""


class ImportRefused(InvalidInput):
    """Some games could not be imported; ``lines``: one per refused game. Nothing was stored (400)."""

    def __init__(self, lines: list[str], total: int) -> None:
        super().__init__(_("%(refused)s of %(total)s games refused; nothing was imported"), field="pgn",
                         refused=len(lines), total=total)
        self.lines = lines


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _label(number: int, headers) -> str:
    return f"game {number} ({headers.get('White', '?')} - {headers.get('Black', '?')})"


def _move_name(row: GameEvent) -> str:
    return f"{row.player}'s move {row.number} ({row.number}{'.' if row.player == 'white' else '...'} {row.notation})"


def import_checked(tournament: Tournament, by: User) -> None:
    """Whether ``by`` may import into ``tournament`` at all. :raises NotAllowed, InvalidInput: as below."""
    if not can_arbitrate(by, tournament):
        raise NotAllowed(_("only the tournament's arbiters import its games"))
    if tournament.mode not in (Mode.SERVER, Mode.POSTAL) or tournament.kind != GameKind.CHESS:
        raise InvalidInput(_("games are imported into chess server, postal and e-mail tournaments: a live game's"
                             " file is not a PGN of dated moves"), field="tournament")


@transaction.atomic
def tournament_pgn_import(*, tournament: Tournament, by: User, pgn: str, now: datetime,
                          progress: Callable[[int, int], None] | None = None,
                          players: dict[str, str] | None = None) -> list[Game]:
    """Create the games of ``pgn`` in ``tournament`` (a server or postal tournament ``by`` arbitrates), as of ``now``.

    ``progress(games read, games refused)``, if given, is told after each game (a background import's page
    shows it: ``corr.games.services.import_jobs``). ``players``: the arbiter's mapping of the PGN's names to
    usernames (``corr.games.services.import_names``, issue 37); a name it does not map is a username.

    :raises NotAllowed: ``by`` does not arbitrate the tournament (403).
    :raises InvalidInput: not a chess server or postal tournament, or no game in the text (``field: "pgn"``).
    :raises ImportRefused: one line per refused game (an unknown player, a move without a stamp, an
        illegal move, a chronology the calculator refuses...): nothing was stored.
    """
    import_checked(tournament, by)
    stream = io.StringIO(pgn)
    games, lines, number = [], [], 0
    while (read := chess.pgn.read_game(stream)) is not None:
        number += 1
        if number > GAMES_MAX:
            raise InvalidInput(_("at most %(max)s games in one import"), field="pgn", max=GAMES_MAX)
        try:
            with transaction.atomic():
                games.append(_game_import(tournament, by, read, number, now, players or {}))
        except _Refused as refused:
            lines.append(refused.line)
        if progress is not None:
            progress(number, len(lines))
    if number == 0:
        raise InvalidInput(_("no PGN game found (a game starts with tags such as [Event \"...\"] and its moves)"),
                           field="pgn")
    if lines:
        raise ImportRefused(lines, number)
    return games


def _game_import(tournament: Tournament, by: User, read, number: int, now: datetime,
                 players: dict[str, str]) -> Game:
    label = _label(number, read.headers)
    written = [read.headers.get(tag, "").strip() for tag in ("White", "Black")]
    names = [players.get(name, name) for name in written]
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    unknown = [text for text, name in zip(written, names, strict=True) if name not in users]
    if unknown:
        raise _Refused(f"{label}: no user {', '.join(repr(n) for n in unknown)} (players are matched by username)")
    _legal_checked(read, label)
    _whole_checked(read, label)
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    try:
        (file,) = games_from_pgn(read.accept(exporter), ruleset=tournament.ruleset.as_dict(),
                                 time_zone=tournament.time_zone)
    except PgnStampError as error:  # named "game 1 (...)": the reader saw this one game alone
        text = str(error)
        raise _Refused(f"game {number} {text.removeprefix('game 1 ')}" if text.startswith("game 1 (")
                       else f"{label}: {text}")
    sans = [node.san() for node in read.mainline()]
    try:
        # The event was played before it is imported: its clock starts at the official start, not now.
        game = game_create(by=by, tournament=tournament, white=users[names[0]], black=users[names[1]],
                           today=local_today(tournament, now),
                           starts_at=midnight(tournament, tournament.official_start)
                           if tournament.mode == Mode.SERVER and tournament_count(tournament) in INSTANT_COUNTS
                           else None)
    except ServiceError as error:
        raise _Refused(f"{label}: {error.message}")
    if tournament.mode == Mode.POSTAL:
        game = postal_facts_import(game=game, by=by, file=file, sans=sans, voids=void_notations(read),
                                   pending_receipt=pending_receipt_written(read), label=label, now=now)
        return _finished(game, by, read, label, now)
    new = _rows(game, by, file, sans, label)
    if counts_instants(game) and any(row.sent_at is None for row in new if row.kind == EventKind.MOVE):
        raise _Refused(f"{label}: the tournament counts instants: every [%ccsnt] needs its time"
                       " (YYYY.MM.DD,HH:MM)")
    as_of = clock_as_of(game, now)
    _calculator_check(game, new, as_of, label)
    try:
        events_store(game, [], new, local_today(tournament, now))
    except (ServiceError, ClockError) as error:
        raise _Refused(f"{label}: {error.message}")
    return _finished(game, by, read, label, now)


def _finished(game: Game, by: User, read, label: str, now: datetime) -> Game:
    """The game ended as its ``Result`` says (recorded by the arbiter), or left ongoing for ``*``."""
    result = read.headers.get("Result", "*")
    if result not in (GameResult.WHITE_WON, GameResult.BLACK_WON, GameResult.DRAW):
        return game
    try:
        return game_finish(game=game, by=by, result=result, today=local_today(game.tournament, now),
                           termination=read.headers.get("Termination", "") or "imported")
    except (ServiceError, ClockError) as error:
        raise _Refused(f"{label}: {error.message}")


def _legal_checked(read, label: str) -> None:
    """Refuse a game python-chess stopped reading at an illegal or unreadable move (issue 36): its mainline ends
    before that move, and importing the rest would cut the game silently. :raises _Refused: naming the move."""
    if not read.errors:
        return
    made = sum(1 for _node in read.mainline())
    colour, dots = ("white", ".") if made % 2 == 0 else ("black", "...")
    error = str(read.errors[0])
    written = error.split("'")[1] if error.count("'") >= 2 else error
    raise _Refused(f"{label}, move {made // 2 + 1}{dots} ({colour}): {written} is not a legal move there; the game is"
                   " refused whole rather than cut before it")


_STOPPED = "movetext stops here: "


def _whole_checked(read, label: str) -> None:
    """Refuse a file whose movetext corr's export stopped (a postal move it could not write on the board: its
    facts and every later move's follow in words, with no stamp), rather than import the game cut before it.
    :raises _Refused: naming the move, with the export's reason."""
    for comment in (read.comment, *(node.comment for node in read.mainline())):
        if _STOPPED in comment:
            why = comment.split(_STOPPED, 1)[1].split("; the rest as entered follows", 1)[0]
            raise _Refused(f"{label}: " + gettext("the file's moves stop before the game's end (%(why)s): the moves"
                                                  " after it are words, not moves, and the game is refused whole"
                                                  " rather than cut") % {"why": why})


_FACT_COMMANDS = {"notice": "[%ccnotice]", "void": "[%ccvoid]"}


def _rows(game: Game, by: User, file: dict, sans: list[str], label: str) -> list[GameEvent]:
    """The rows of a game file's events in their order: its moves on the board (each with its SAN), the
    penalties and delays corr's export writes beside them (issue 37: ``[%ccpenalty]``, ``[%ccdelay]``). The
    file's last move of an ongoing game is the pending one: corr's assembly makes its own.

    :raises _Refused: for a fact a server game does not have (a void move or a notice, 50.4.7; a late start
        notice or leave: postal facts, and leave is the player's own booking), naming the game and the command.
    """
    for colour, facts in file["players"].items():
        for key, command in (("notice_received_on", "[%ccstart]"), ("leave", "[%ccleave]")):
            if facts.get(key):
                raise _Refused(f"{label}: {colour}'s {command} cannot be imported: a server tournament imports"
                               " moves, penalties and delays (leave is booked by the player)")
    rows, moves = [], iter(sans)
    for event in file["events"]:
        kind = "void" if event.get("void") else event["type"]
        if kind == "move":
            san = next(moves, None)
            if san is not None:
                rows.append(_move_row(game, by, event, san))
        elif kind == "penalty":
            rows.append(GameEvent(game=game, kind=EventKind.PENALTY, player=event["player"], number=event["move"],
                                  reason=event["reason"], entered_by=by))
        elif kind == "delay":
            rows.append(GameEvent(game=game, kind=EventKind.DELAY, player=event["player"], number=event["move"],
                                  days=event["days"], reason=event["reason"], entered_by=by))
        else:
            raise _Refused(f"{label}, {event['player']}'s {_FACT_COMMANDS[kind]}: a server game has no void"
                           " moves or notices (50.4.7: the server refuses an impossible move)")
    return rows


def _move_row(game: Game, by: User, event: dict, san: str) -> GameEvent:
    """A move row from a game file's event: its instants (and their dates in the zone), or its dates."""
    row = GameEvent(game=game, kind=EventKind.MOVE, player=event["player"], number=event["number"], notation=san,
                    mail=Mail.SERVER, entered_by=by)
    t = game.tournament
    for end in ("received", "sent"):
        if f"{end}_at" in event:
            moment = _moment(event[f"{end}_at"])
            setattr(row, f"{end}_at", moment)
            setattr(row, f"{end}_on", local_today(t, moment))
        elif f"{end}_on" in event:
            setattr(row, f"{end}_on", date.fromisoformat(event[f"{end}_on"]))
    return row


def _calculator_check(game: Game, new: list[GameEvent], as_of, label: str) -> None:
    """The calculator's verdict on the game's moves, naming the move it refuses. :raises _Refused:"""
    for seq, row in enumerate(new, start=1):
        row.seq = seq
    try:
        game_time(game, new, as_of)
    except EventError as error:
        sources = assemble_game(game, new, as_of).sources
        seq = sources[error.index] if error.index < len(sources) else None
        row = next((r for r in new if r.seq == seq), None)
        where = _move_name(row) if row is not None else f"event {error.index}"
        raise _Refused(f"{label}, {where}: {error.detail}")
    except ClockError as error:
        raise _Refused(f"{label}: {error.message}")
