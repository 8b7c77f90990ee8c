"""A server's PGN with ``[%ccsnt]`` stamps, read as game files for ``manage.py clock`` (Django-free).

Correspondence servers (ICCF, SchemingMind) export each move with the moment it was sent, in
a comment: ``1.d4 {[%ccsnt 2018.10.02,12:56]} d5 {[%ccsnt 2018.10.02,13:34]}``. A stamp is
``YYYY.MM.DD``, ``YYYY.MM.DD,HH:MM`` or ``YYYY.MM.DD,HH:MM:SS`` (a space after the comma is
taken too, as some programs write it), in the server's time zone.

The contract of one game file made here::

    {"ruleset": <the ruleset given>, "official_start": "2019-04-10",
     "time_zone": "Europe/Moscow",          # only when the zone is not UTC
     "players": {"white": {}, "black": {}},
     "meta": {"white": ..., "black": ..., "event": ..., "site": ..., "round": ..., "result": ...},
     "events": [{"type": "move", "player": "white", "number": 1, "sent_at": "2019-04-11T19:29:00Z"},
                {"type": "move", "player": "black", "number": 1,
                 "received_at": "2019-04-11T19:29:00Z", "sent_at": "2019-04-12T08:00:00Z"},
                ...,
                {"type": "move", "player": "white", "number": 9, "received_at": "..."}]}  # pending

- A stamp is the move's ``sent_at`` and the partner's ``received_at`` of it (the server
  delivers at once); the game's first move has no ``received_at``: it counts from the official
  start. A stamp with a time becomes an RFC 3339 instant in UTC (``Z``); a date-only stamp is
  kept as a date, ``sent_on``/``received_on`` ``YYYY-MM-DD`` (the calculator says whether its
  ruleset can count such a game).
- A ``[%ccrd]`` received date (corr's postal exports, issue 37) before a move's stamp is the
  mover's receipt of the move they answer; one after the last stamp, the pending move's. Without
  it a move is received at the partner's stamp, and a postal game (``Mode`` PM or EM) says so
  through ``warn``: the days in transit are then charged as thinking. By e-mail (EM) the move on turn
  without one is not warned of: received the day it was sent is corr's presumption there (no transit).
- corr's commands of the clock's other facts (:func:`corr.exports.stamps.clock_fact`) give their events
  in their place: ``[%ccvoid]`` a void move and ``[%ccnotice]`` a notice (each a dispatch the next move
  answers; a notice other than a repeat passes the turn back), ``[%ccpenalty]`` and ``[%ccdelay]``;
  before the first move ``[%ccstart]`` and ``[%ccleave]`` give ``players.<colour>``'s
  ``notice_received_on`` and ``leave``, and ``[%cclong white 12]`` a "Use 40+ days" notice (ICCF Playing
  Rules 3b), the file's ``long_moves``.
- ``official_start`` is the start instant of ``UTCDate``/``UTCTime`` (or chess.com's
  ``StartTime``, :mod:`.pgn_servers`) where the tags give one, else the ``Date`` tag, else
  ``EventDate`` (a whole date either way). A game with no stamps at all is read from a daily
  game's ``[%clk]`` clocks when it has them (:mod:`.pgn_servers`).
- A game whose ``Result`` is ``*`` goes on: the side to move gets a pending move, received at
  the last stamp. Any other result ends the game: no pending move.
- Player ids are always ``white`` and ``black``; the tags' names go to ``meta``.

Only the main line counts (variations are analysis, not moves played). The whole text is
read in memory: a PGN of an event is a few hundred kilobytes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import chess
import chess.pgn

from .pgn_servers import ServerTagError, clock_left, daily_allowance, daily_sent_instants, start_instant

UTC_NAMES = frozenset({"UTC"})  # the calculator's default zone: no time_zone key is written for it
_COMMAND = re.compile(r"\[%(ccsnt|ccrd)\s+([^\]]*)\]")
_FACT_WORDS = {"ccvoid": ("PLAYER", "NUMBER", "RECEIVED", "SENT"),
               "ccnotice": ("PLAYER", "MOVE", "REASON", "RECEIVED", "SENT"),
               "ccpenalty": ("PLAYER", "MOVE", "REASON"), "ccdelay": ("PLAYER", "MOVE", "DAYS", "REASON"),
               "ccstart": ("PLAYER", "RECEIVED"), "ccleave": ("PLAYER", "FROM", "TO"),
               "cclong": ("PLAYER", "MOVE")}
"""corr's commands of the clock's other facts (issue 37; written by :mod:`corr.exports.stamps`) and their words."""
_FACT = re.compile(r"\[%(ccrd|ccsnt|" + "|".join(_FACT_WORDS) + r")\s+([^\]]*)\]")
_OTHER = {"white": "black", "black": "white"}
POSTAL_MODES = frozenset({"PM", "EM"})
"""PGN's ``Mode`` (9.8.1) of a game by post or e-mail: a move's receipt is not its partner's dispatch."""
_STAMP_TEXT = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})(?:,\s*(\d{1,2}):(\d{2})(?::(\d{2}))?)?")
_TAG_DATE = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})")
META_TAGS = ("White", "Black", "Event", "Site", "Round", "Result")  # to meta, as white, black ...
STAMP_FORMS = "YYYY.MM.DD, YYYY.MM.DD,HH:MM or YYYY.MM.DD,HH:MM:SS"


class PgnStampError(ValueError):
    """A PGN that cannot be read as game files; ``str()`` is one line naming the game and the move."""


def games_from_pgn(text: str, *, ruleset: dict, time_zone: str = "UTC",
                   warn: Callable[[str], None] | None = None) -> list[dict]:
    """Every game of ``text`` (a PGN file's content, any number of games) as a game file dict.

    ``ruleset`` is copied into each game as is; ``time_zone`` (an IANA name) is the zone the
    stamps' times are written in, and goes into each game as ``time_zone`` unless it is UTC.
    ``warn`` is given one line per game whose figures the file cannot make right (a postal game
    without received dates).

    :returns: one dict per game, in the file's order (the contract is in the module's docstring).
    :raises PgnStampError: for an unknown zone, a file without a game, and for the first game
        that has no stamps, a move without a stamp, a stamp that cannot be read or that goes back
        in time, an illegal move, or no official start.
    """
    zone = _zone(time_zone)
    stream = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(_game_file(game, len(games) + 1, ruleset=ruleset, zone=zone, zone_name=time_zone,
                                warn=warn))
    if not games:
        raise PgnStampError("no PGN game found (a game starts with tags such as [Event \"...\"] and its moves)")
    return games


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):  # ValueError: a path-like name ("../x")
        raise PgnStampError(f"time zone must be an IANA name such as Europe/Moscow, got {name!r}") from None


class _Stamp:
    """One ``[%ccsnt]`` stamp: as written (for messages), and its instant or date."""

    __slots__ = ("text", "moment", "day")

    def __init__(self, text: str, moment: datetime | None, day: date) -> None:
        self.text = text
        self.moment = moment  # aware, in UTC; None for a date-only stamp
        self.day = day  # the date as written, in the stamp's own zone

    def before(self, other: _Stamp) -> bool:
        # A date-only stamp can only be compared by date: 2019.05.02 is not before 2019.05.02,09:00.
        if self.moment is None or other.moment is None:
            return self.day < other.day
        return self.moment < other.moment

    def value(self) -> str:
        if self.moment is None:
            return self.day.isoformat()
        return self.moment.strftime("%Y-%m-%dT%H:%M:%SZ")

    def suffix(self) -> str:
        return "_on" if self.moment is None else "_at"


def _game_file(game: chess.pgn.Game, number: int, *, ruleset: dict, zone: ZoneInfo, zone_name: str,
               warn: Callable[[str], None] | None) -> dict:
    headers = game.headers
    label = f"game {number} ({headers.get('White', '?')} - {headers.get('Black', '?')})"
    if game.errors:  # python-chess stops the main line at the first illegal move: the rest would be lost
        raise PgnStampError(f"{label}: {game.errors[0]}")
    started, official_start = game_start(headers, label)
    moves = list(game.mainline())
    marks = [_COMMAND.findall(node.comment) for node in moves]
    if not any(name == "ccsnt" for found in marks for name, _ in found):
        return _daily_game_file(game, moves, label, ruleset=ruleset, started=started,
                                official_start=official_start)
    plies = [("white" if node.parent.board().turn == chess.WHITE else "black", node.comment) for node in moves]
    return stamped_game_file(headers, label, plies, game.comment, ruleset=ruleset, zone=zone, zone_name=zone_name,
                             started=started, official_start=official_start, warn=warn)


def stamped_game_file(headers, label: str, plies: list[tuple[str, str]], preface: str, *, ruleset: dict,
                      zone: ZoneInfo, zone_name: str, started: tuple[datetime, str] | None, official_start: str,
                      warn: Callable[[str], None] | None) -> dict:
    """The game file of a game whose moves are ``plies`` (each the mover's colour and the move's comment, in
    order; the moves on the board only) and whose comment before the first move is ``preface``.

    Any format whose comments carry the stamps reads through here: PGN (above), corr's PDN and SGF
    (:mod:`.board_stamps`). ``headers``: the PGN tags' names (``Result``, ``Mode``, ``White`` ...).
    :raises PgnStampError: as :func:`games_from_pgn`.
    """
    reader = _Reader(label, zone, started)
    reader.facts(_FACT.findall(preface), f"{label}, before the first move")
    for player, comment in plies:
        reader.move(player, _FACT.findall(comment))
    if reader.previous is None:
        raise PgnStampError(f"{label}: no [%ccsnt] stamps: corr needs each move's sent date")
    ongoing = headers.get("Result", "*") == "*"
    if ongoing:
        got = reader.receipt or reader.previous
        player = reader.to_move
        reader.events.append({"type": "move", "player": player, "number": reader.made[player] + 1,
                              "received" + got.suffix(): got.value()})
    mode = headers.get("Mode", "").strip().upper()
    if warn is not None and mode in POSTAL_MODES:
        marks = [_COMMAND.findall(comment) for _player, comment in plies]
        # By e-mail (EM) a move on turn with no receipt recorded is presumed received the day it was sent (corr's
        # e-mail tournaments presume no transit): counting from the sent date is that presumption, not transit.
        _warn_postal(warn, label, marks, pending_received=reader.receipt is not None or not ongoing or mode == "EM")
    data = _file(headers, ruleset, official_start, zone_name, reader.events)
    data["players"] = reader.players
    if reader.long_moves:
        data["long_moves"] = reader.long_moves
    return data


class _Reader:
    """The events of one game as its comments' commands give them, in order (the assembly's turns: a move or
    a notice of an impossible move passes the turn, a repeat keeps it; the last dispatch is what a move
    without a ``[%ccrd]`` answers)."""

    def __init__(self, label: str, zone: ZoneInfo, started: tuple[datetime, str] | None) -> None:
        self.label, self.zone, self.started = label, zone, started
        self.events: list[dict[str, Any]] = []
        self.players: dict[str, dict[str, Any]] = {"white": {}, "black": {}}
        self.long_moves: list[dict[str, Any]] = []
        self.made = {"white": 0, "black": 0}
        self.to_move = "white"
        self.previous: _Stamp | None = None  # the last dispatch: a move's [%ccsnt], a void move's or a notice's
        self.receipt: _Stamp | None = None  # a [%ccrd] after it: the next move's receipt

    def move(self, player: str, found: list[tuple[str, str]]) -> None:
        number = self.made[player] + 1
        where = f"{self.label}, move {number}{'.' if player == 'white' else '...'} ({player})"
        names = [name for name, _ in found]
        if "ccsnt" not in names:
            raise PgnStampError(f"{where}: no [%ccsnt] stamp (the other moves have one)")
        if names.count("ccsnt") > 1:
            raise PgnStampError(f"{where}: {names.count('ccsnt')} [%ccsnt] stamps, one sent date expected")
        split = names.index("ccsnt")
        own = [text.strip() for name, text in found[:split] if name == "ccrd"]  # the mover's receipt
        previous = self.previous
        stamp = _read_stamp(found[split][1].strip(), self.zone, previous, where)
        if previous is not None and stamp.before(previous):
            raise PgnStampError(f"{where}: [%ccsnt {stamp.text}] is before the previous stamp {previous.text}")
        started = self.started
        if previous is None and started is not None and stamp.before(_Stamp("", started[0], started[0].date())):
            raise PgnStampError(f"{where}: [%ccsnt {stamp.text}] is before the game's start"
                                f" ({started[1]} {started[0]:%Y.%m.%d,%H:%M:%S} UTC)")
        receipt = _receipt(own, self.receipt, self.zone, where, previous=previous, sent=stamp)
        event: dict[str, Any] = {"type": "move", "player": player, "number": number}
        if receipt is not None:
            event["received" + receipt.suffix()] = receipt.value()
        elif previous is not None:
            event["received" + previous.suffix()] = previous.value()
        event["sent" + stamp.suffix()] = stamp.value()
        self.events.append(event)
        self.made[player], self.to_move = number, _OTHER[player]
        self.previous, self.receipt = stamp, None
        self.facts(found[split + 1:], where)

    def facts(self, found: list[tuple[str, str]], where: str) -> None:
        """corr's commands after a move (or before the first): the partner's receipt, void moves, notices,
        penalties, delays, start notices and leave (:func:`corr.exports.stamps.clock_fact`)."""
        for name, text in found:
            words = text.split()
            if name == "ccrd":
                self.receipt = _receipt([text.strip()], self.receipt, self.zone, f"{where}, the partner's receipt",
                                        previous=self.previous, sent=None)
                continue
            if name == "ccsnt":
                raise PgnStampError(f"{where}: [%ccsnt {text.strip()}] stands where no move is")
            shape = _FACT_WORDS[name]
            if len(words) != len(shape) or words[0] not in _OTHER:
                raise PgnStampError(f"{where}: [%{name} {text.strip()}] is not [%{name} {' '.join(shape)}]")
            player, fact = words[0], f"{where}, [%{name} {text.strip()}]"
            if name == "cclong":  # a "Use 40+ days" notice (ICCF Playing Rules 3b, issue 40)
                self.long_moves.append({"player": player, "move": _number(words[1], fact)})
            elif name == "ccstart":
                self.players[player]["notice_received_on"] = self._date(words[1], fact).day.isoformat()
            elif name == "ccleave":
                first, last = self._date(words[1], fact), self._date(words[2], fact)
                self.players[player].setdefault("leave", []).append({"from": first.day.isoformat(),
                                                                     "to": last.day.isoformat()})
            elif name == "ccpenalty":
                self.events.append({"type": "penalty", "player": player, "move": _number(words[1], fact),
                                    "reason": words[2]})
            elif name == "ccdelay":
                self.events.append({"type": "delay", "player": player, "move": _number(words[1], fact),
                                    "days": _number(words[2], fact), "reason": words[3]})
            else:  # a void move or a notice: a dispatch, which the next move answers
                sent = self._date(words[-1], fact)
                received = None if words[-2] == "-" else self._date(words[-2], fact)
                event: dict[str, Any] = {"type": "move" if name == "ccvoid" else "notice", "player": player}
                if name == "ccvoid":
                    event.update(number=_number(words[1], fact), void=True)
                    self.to_move = _OTHER[player]
                else:
                    event.update(move=_number(words[1], fact), reason=words[2])
                    if words[2] != "repeat":  # 50.4.7: a repeat keeps the turn, the other notices give it back
                        self.to_move = _OTHER[player]
                if received is not None:
                    event["received" + received.suffix()] = received.value()
                event["sent" + sent.suffix()] = sent.value()
                self.events.append(event)
                self.previous, self.receipt = sent, None

    def _date(self, text: str, where: str) -> _Stamp:
        try:
            return _read_stamp(text, self.zone, self.previous, where)
        except PgnStampError:
            raise PgnStampError(f"{where}: {text!r} is not a date ({STAMP_FORMS})") from None


def _number(text: str, where: str) -> int:
    if not text.isdigit():
        raise PgnStampError(f"{where}: {text!r} is not a whole number")
    return int(text)


def _receipt(texts: list[str], carried: _Stamp | None, zone: ZoneInfo, where: str, *,
             previous: _Stamp | None, sent: _Stamp | None) -> _Stamp | None:
    """The receipt of ``[%ccrd]`` ``texts`` (none, or one), or ``carried`` (one written after the move before).

    A receipt is not before the move it receives (``previous``'s stamp) nor after the answer (``sent``).
    :raises PgnStampError: for more than one, one that cannot be read, out of order, or unlike ``carried``.
    """
    if len(texts) > 1:
        raise PgnStampError(f"{where}: {len(texts)} [%ccrd] receipts, one received date expected")
    if not texts:
        return carried
    got = _read_stamp(texts[0], zone, previous, where, command="ccrd")
    if carried is not None and got.value() != carried.value():
        raise PgnStampError(f"{where}: [%ccrd {got.text}] differs from the receipt [%ccrd {carried.text}]"
                            " written after the move before")
    if previous is not None and got.before(previous):
        raise PgnStampError(f"{where}: [%ccrd {got.text}] is before the move it receives was sent,"
                            f" {previous.text}")
    if sent is not None and sent.before(got):
        raise PgnStampError(f"{where}: [%ccrd {got.text}] is after the move's own [%ccsnt {sent.text}]")
    return got


def _warn_postal(warn: Callable[[str], None], label: str, marks: list, *, pending_received: bool) -> None:
    """The warnings of a postal game (``Mode`` PM or EM) whose receipts are missing: transit counts as thinking."""
    if not any(name == "ccrd" for found in marks for name, _ in found):
        warn(f"{label}: a postal game (Mode PM or EM) with no received dates ([%ccrd]): each move counts from"
             " the partner's sent date, so the days in transit are charged as thinking time")
    elif not pending_received:
        warn(f"{label}: the move on turn has no received date ([%ccrd]): it counts from the partner's sent"
             " date, the days in transit charged as thinking time")


def _daily_game_file(game: chess.pgn.Game, moves: list, label: str, *, ruleset: dict,
                     started: tuple[datetime, str] | None, official_start: str) -> dict:
    """A game without sent stamps, read from a daily game's ``[%clk]`` clocks (:mod:`.pgn_servers`)."""
    headers = game.headers
    allowance = daily_allowance(headers.get("TimeControl", ""))
    clocks = [clock_left(node.comment) for node in moves]
    if not moves or allowance is None or started is None or not all(clocks):
        raise PgnStampError(f"{label}: no [%ccsnt] stamps: corr needs each move's sent date (or, for a daily"
                            " game, TimeControl 1/N, UTCDate and UTCTime, and a [%clk] after every move)")
    tc = ruleset.get("time_control", {}) if isinstance(ruleset, dict) else {}
    if tc.get("system") != "per_move" or timedelta(days=tc.get("time", 0)) != allowance:
        raise PgnStampError(f"{label}: [TimeControl \"{headers['TimeControl']}\"] is {allowance} a move;"
                            " the ruleset is not that many days per move (--preset chesscom_days_N)")
    try:
        sent = daily_sent_instants([c[0] for c in clocks], start=started[0], allowance=allowance)
    except ServerTagError as error:
        raise PgnStampError(f"{label}, {error}") from None
    events: list[dict[str, Any]] = []
    previous: datetime | None = None
    for node, at in zip(moves, sent, strict=True):
        board = node.parent.board()
        event: dict[str, Any] = {"type": "move", "player": "white" if board.turn == chess.WHITE else "black",
                                 "number": board.fullmove_number}
        if previous is not None:
            event["received_at"] = _utc(previous)
        event["sent_at"] = _utc(at)
        events.append(event)
        previous = at
    if headers.get("Result", "*") == "*":
        last = moves[-1].board()
        events.append({"type": "move", "player": "white" if last.turn == chess.WHITE else "black",
                       "number": last.fullmove_number, "received_at": _utc(previous)})
    return _file(headers, ruleset, official_start, "UTC", events)


def _utc(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _file(headers, ruleset: dict, official_start: str, zone_name: str, events: list) -> dict:
    data: dict[str, Any] = {"ruleset": ruleset, "official_start": official_start}
    if zone_name not in UTC_NAMES:
        data["time_zone"] = zone_name
    data["players"] = {"white": {}, "black": {}}
    data["meta"] = {key.lower(): headers.get(key, "?") for key in META_TAGS}
    data["events"] = events
    return data


def game_start(headers, label: str) -> tuple[tuple[datetime, str] | None, str]:
    """A game's start from its tags: (the instant of ``UTCDate``/``UTCTime`` and the tags that said it, or None;
    the game file's ``official_start``, that instant in RFC 3339 or the ``Date``'s day). PGN and PDN alike.

    :raises PgnStampError: naming the game, for a start tag that is no date or time.
    """
    try:
        started = start_instant(headers)
    except ServerTagError as error:
        raise PgnStampError(f"{label}: {error}") from None
    official_start = (started[0].strftime("%Y-%m-%dT%H:%M:%SZ") if started is not None
                      else _official_start(headers, label).isoformat())
    return started, official_start


def _official_start(headers: chess.pgn.Headers, label: str) -> date:
    """``Date``, else ``EventDate``: ``????.??.??`` (python-chess's default) or a partial date is unknown."""
    for key in ("Date", "EventDate"):
        value = headers.get(key, "")
        if (match := _TAG_DATE.fullmatch(value.strip())) is None:
            continue
        try:
            return date(*map(int, match.groups()))
        except ValueError:
            raise PgnStampError(f"{label}: [{key} \"{value}\"] is not a date") from None
    raise PgnStampError(f"{label}: no Date or EventDate tag with a whole date: corr needs the official start")


def _read_stamp(text: str, zone: ZoneInfo, previous: _Stamp | None, where: str, *,
                command: str = "ccsnt") -> _Stamp:
    """The stamp ``text`` (what stands after ``%ccsnt`` or ``%ccrd``), its time read in ``zone``.

    :raises PgnStampError: when it is none of the three forms, or no such date, time or local time.
    """
    bad = PgnStampError(f"{where}: [%{command} {text}] is not a stamp ({STAMP_FORMS})")
    if (match := _STAMP_TEXT.fullmatch(text)) is None:
        raise bad
    year, month, day, hour, minute, second = match.groups()
    try:
        day_written = date(int(year), int(month), int(day))
        if hour is None:
            return _Stamp(text, None, day_written)
        clock = time(int(hour), int(minute), int(second or 0))
    except ValueError:
        raise bad from None
    local = datetime.combine(day_written, clock, tzinfo=zone)
    moment = local.astimezone(timezone.utc)
    if moment.astimezone(zone).replace(tzinfo=None) != local.replace(tzinfo=None):
        raise PgnStampError(f"{where}: [%{command} {text}] is no time in {zone.key}: its clocks skipped it"
                            " (is --time-zone the server's zone?)")
    later = local.replace(fold=1).astimezone(timezone.utc)
    if later != moment and previous is not None and previous.moment is not None and moment < previous.moment:
        # The hour the clocks are set back happens twice; the second time follows the previous stamp.
        moment = later
    return _Stamp(text, moment, day_written)
