"""The game file: a game as JSON-ready data, read strictly and written back.

Reading never guesses: a malformed date, an unknown key, type or reason is an
error naming the event (its index and type) and the field. Writing gives back
what reading accepts, so ``read_game(write_game(g)) == g``.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from .calendar import parse_date, read_ranges
from .counts import DEFAULT_TIME_ZONE, Count, end_of, local_date, moment_text, parse_instant, rfc3339, start_of, zone
from .errors import ClockError, EventError
from .events import (
    Credit, Delay, DelayReason, Game, Gift, Move, Notice, NoticeReason, Penalty, PenaltyReason, Player, Variant,
)
from .personal import read_calendar, read_spans
from .rules import Ruleset

_TOP_KEYS = frozenset({"ruleset", "official_start", "as_of", "players", "events", "meta", "time_zone", "long_moves"})
# Informational keys a move may carry (kept by the service's export); they do not affect time.
_MOVE_KEYS = frozenset({"type", "player", "number", "received_on", "sent_on", "received_at", "sent_at", "void",
                        "variant", "notation", "mail"})
_NOTICE_KEYS = frozenset({"type", "player", "move", "reason", "received_on", "sent_on", "received_at", "sent_at"})
_PENALTY_KEYS = frozenset({"type", "player", "move", "reason"})
_DELAY_KEYS = frozenset({"type", "player", "move", "days", "reason"})
_CREDIT_KEYS = frozenset({"type", "player", "move", "days", "seconds"})
_GIFT_KEYS = frozenset({"type", "player", "at", "days", "reset_byoyomi"})
_PLAYER_KEYS = ("calendar", "leave", "notice_received_on", "pauses", "vacation")
_new_event = tuple.__new__  # a named tuple's own __new__ is a Python call, three times slower

_KEYS = {"move": _MOVE_KEYS, "notice": _NOTICE_KEYS, "penalty": _PENALTY_KEYS, "delay": _DELAY_KEYS,
         "credit": _CREDIT_KEYS, "gift": _GIFT_KEYS}


def read_game(data: Any, dates: dict[str, date] | None = None) -> tuple[Game, date | None]:
    """Read one game object of a game file.

    ``dates`` is an optional cache of already parsed date strings, shared by
    the games of a batch (dates repeat across events; parsing is the hot path).

    :returns: the game and the file's ``as_of`` (``None`` when absent).
    :raises ClockError: (or its subclasses) for anything malformed.
    """
    if not isinstance(data, dict):
        raise ClockError("a game must be a JSON object")
    for key in data:
        if key not in _TOP_KEYS:
            raise ClockError(f"{key!r} is not a game file field (known: {', '.join(sorted(_TOP_KEYS))})",
                             field=str(key))
    ruleset = Ruleset.from_mapping(data.get("ruleset"))
    if "official_start" not in data:
        raise ClockError("official_start is required", field="official_start")
    time_zone = data.get("time_zone", DEFAULT_TIME_ZONE)
    zone(time_zone)  # refused here, naming time_zone, when it is no IANA name
    instants = ruleset.count is not Count.DATES
    official_start = read_moment(data["official_start"], "official_start", instants, time_zone)
    as_of = (read_moment(data["as_of"], "as_of", instants, time_zone, end=True)
             if data.get("as_of") is not None else None)
    players = _read_players(data.get("players"))
    raw_events = data.get("events", [])
    if not isinstance(raw_events, list):
        raise ClockError("events must be a list", field="events")
    if dates is None:
        dates = {}
    events = []
    append = events.append
    get = dates.get
    read_as_dates = False
    for i, e in enumerate(raw_events):
        # Fast path, inlined: an ordinary dated move whose dates were seen before in this batch.
        # Five keys, all present and of the right types, are exactly the allowed ones of a plain
        # move; anything else (void, variant, notices ...) takes the checked path.
        if e.__class__ is dict and len(e) == 5 and e.get("type") == "move":
            player, number = e.get("player"), e.get("number")
            received, sent = e.get("received_on"), e.get("sent_on")
            if received.__class__ is str and sent.__class__ is str:  # str: hashable, a cache key
                received, sent = get(received), get(sent)
                if (received is not None and sent is not None and number.__class__ is int
                        and player.__class__ is str and player):
                    append(_new_event(Move, (player, number, received, sent, False, None)))
                    continue
        append(_read_event(i, e, dates))
        if not instants and e.__class__ is dict and ("received_at" in e or "sent_at" in e
                                                     or (e.get("type") == "gift" and len(str(e.get("at"))) > 10)):
            read_as_dates = True
    game = Game(official_start=official_start, players=players, events=tuple(events), ruleset=ruleset,
                time_zone=time_zone, long_moves=read_long_moves(data.get("long_moves", []),
                                                                {p.id for p in players}))
    return (as_dates(game) if read_as_dates else game), as_of


def read_long_moves(value: Any, players: set[str]) -> tuple[tuple[str, int], ...]:
    """``long_moves``: the "Use 40+ days" notices (ICCF Playing Rules 3b, ``Game.long_moves``), a list of
    ``{"player", "move"}``. :raises ClockError: naming ``long_moves[i]`` and what is wrong."""
    if not isinstance(value, list):
        raise ClockError("long_moves must be a list of {\"player\", \"move\"}", field="long_moves")
    out = []
    for i, item in enumerate(value):
        field = f"long_moves[{i}]"
        if not isinstance(item, dict) or set(item) != {"player", "move"}:
            raise ClockError(f"{field} must be {{\"player\", \"move\"}}, got {item!r}", field=field)
        move = item["move"]
        if item["player"] not in players:
            raise ClockError(f"{field}.player must be one of the game's players, got {item['player']!r}",
                             field=f"{field}.player")
        if isinstance(move, bool) or not isinstance(move, int) or move < 1:
            raise ClockError(f"{field}.move must be a move number >= 1, got {move!r}", field=f"{field}.move")
        out.append((item["player"], move))
    return tuple(out)


def read_moment(value: Any, field: str, instants: bool, time_zone: str, *, end: bool = False) -> date:
    """``official_start`` or ``as_of``: a date ``YYYY-MM-DD`` or an RFC 3339 instant.

    Where the count reads instants a date means 00:00 of it in ``time_zone`` (``end``: the end of it,
    as ``as_of``); under ``dates`` an instant is read as its date there, and an ``as_of`` instant is
    kept (the calculator counts its date and tells the seconds left from it).
    :raises ClockError: naming ``field``.
    """
    if isinstance(value, str) and len(value) > 10:
        instant = parse_instant(value, field)
        if instants or end:
            return instant
        return local_date(instant, time_zone)
    day = parse_date(value, field)
    if not instants:
        return day
    return end_of(day, time_zone) if end else start_of(day, time_zone)


def _read_players(data: Any) -> tuple[Player, Player]:
    if not isinstance(data, dict) or len(data) != 2:
        raise ClockError("players must be an object with exactly two players", field="players")
    players = []
    for pid, info in data.items():
        if info is None:
            info = {}
        if not isinstance(info, dict):
            raise ClockError(f"players.{pid} must be an object", field=f"players.{pid}")
        for key in info:
            if key not in _PLAYER_KEYS:
                raise ClockError(f"players.{pid}.{key} is not a player field (known: {', '.join(_PLAYER_KEYS)})",
                                 field=f"players.{pid}.{key}")
        notice = info.get("notice_received_on")
        field = f"players.{pid}.notice_received_on"
        vacation, allowance = _read_vacation(info.get("vacation"), f"players.{pid}.vacation")
        players.append(Player(pid, None if notice is None else parse_date(notice, field),
                              read_ranges(info.get("leave"), f"players.{pid}.leave"),
                              read_calendar(info.get("calendar"), f"players.{pid}.calendar"), vacation, allowance,
                              read_spans(info.get("pauses"), f"players.{pid}.pauses", by=True)))
    return players[0], players[1]


def _read_vacation(data: Any, field: str):
    """``players.<id>.vacation``: ``{"allowance_hours": N, "taken": [{"from", "to", "automatic"}]}``."""
    if data is None:
        return (), None
    if not isinstance(data, dict) or not set(data) <= {"allowance_hours", "taken"}:
        raise ClockError(f"{field} must be an object with allowance_hours and taken", field=field)
    allowance = data.get("allowance_hours")
    if allowance is not None and (allowance.__class__ is not int or allowance < 0):
        raise ClockError(f"{field}.allowance_hours must be a whole number >= 0, got {allowance!r}",
                         field=f"{field}.allowance_hours")
    return read_spans(data.get("taken"), f"{field}.taken", automatic=True), allowance


def _event_date(index: int, kind: str, data: dict, key: str, dates: dict[str, date],
                required: bool) -> date | None:
    value = data.get(key)
    if value is None:
        if required:
            raise EventError(index, kind, f"{key} is required", field=key)
        return None
    try:
        return dates[value]
    except (KeyError, TypeError):
        pass
    try:
        parsed = parse_date(value, key)
    except ClockError as error:
        raise EventError(index, kind, error.message, field=key) from None
    dates[value] = parsed
    return parsed


def _whole(index: int, kind: str, data: dict, key: str) -> int:
    value = data.get(key)
    if value is None:
        raise EventError(index, kind, f"{key} is required", field=key)
    if value.__class__ is not int:  # bool is an int subclass and never a count
        raise EventError(index, kind, f"{key} must be a whole number, got {value!r}", field=key)
    return value


def _reason(index: int, kind: str, data: dict, enum, default=None):
    value = data.get("reason", default)
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(m.value for m in enum)
        raise EventError(index, kind, f"unknown reason {value!r} (known: {known})", field="reason") from None


def _event_moment(index: int, kind: str, data: dict, keys: tuple[str, str], dates: dict[str, date],
                  required: bool) -> date | None:
    """``received`` or ``sent``: the date ``<key>_on`` or the instant ``<key>_at`` (one of them).

    An instant stays an instant (aware, UTC); the calculator reads it as its date where it counts
    dates (:func:`as_dates`), and refuses a date where its count needs instants.
    """
    on, at = keys
    value = data.get(at)
    if value is None:
        return _event_date(index, kind, data, on, dates, required)
    if data.get(on) is not None:
        raise EventError(index, kind, f"{on} and {at} are both given: give the date or the instant", field=at)
    try:
        return parse_instant(value, at)
    except ClockError as error:
        raise EventError(index, kind, error.message, field=at) from None


_RECEIVED = ("received_on", "received_at")
_SENT = ("sent_on", "sent_at")


def _read_event(index: int, data: Any, dates: dict[str, date]) -> Move | Notice | Penalty | Delay | Credit:
    if not isinstance(data, dict):
        raise EventError(index, "?", "an event must be a JSON object")
    kind = data.get("type")
    allowed = _KEYS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        raise EventError(index, str(kind), f"unknown type {kind!r} (known: {', '.join(_KEYS)})", field="type")
    if not data.keys() <= allowed:
        key = next(k for k in data if k not in allowed)
        raise EventError(index, kind, f"{key!r} is not a field of a {kind} event", field=str(key))
    player = data.get("player")
    if not isinstance(player, str) or not player:
        raise EventError(index, kind, f"player must be a player id, got {player!r}", field="player")

    if kind == "move":
        # Fast path for the commonest event: an ordinary dated move whose dates
        # were seen before in this batch. Anything unusual takes the checked path.
        number = data.get("number")
        received_text, sent_text = data.get("received_on"), data.get("sent_on")
        if received_text.__class__ is str and sent_text.__class__ is str:
            received, sent = dates.get(received_text), dates.get(sent_text)
            if (number.__class__ is int and received is not None and sent is not None
                    and "void" not in data and "variant" not in data):
                return Move(player, number, received, sent)
        void = data.get("void", False)
        if void is not False and void is not True:
            raise EventError(index, kind, f"void must be true or false, got {void!r}", field="void")
        variant = data.get("variant")
        if variant is not None:
            try:
                variant = Variant(variant)
            except ValueError:
                raise EventError(index, kind, f"unknown variant {variant!r} (known: accepted, conditional)",
                                 field="variant") from None
        return Move(player, _whole(index, kind, data, "number"),
                    _event_moment(index, kind, data, _RECEIVED, dates, False),
                    _event_moment(index, kind, data, _SENT, dates, False), void, variant)
    if kind == "notice":
        return Notice(player, _whole(index, kind, data, "move"), _reason(index, kind, data, NoticeReason),
                      _event_moment(index, kind, data, _RECEIVED, dates, True),
                      _event_moment(index, kind, data, _SENT, dates, True))
    if kind == "penalty":
        return Penalty(player, _whole(index, kind, data, "move"), _reason(index, kind, data, PenaltyReason))
    if kind == "gift":  # its amount and its bound are checked by charging and corr.clock.gifts, which know the rules
        value = data.get("at")
        if value is None:
            raise EventError(index, kind, "at is required", field="at")
        try:
            at = parse_date(value, "at") if isinstance(value, str) and len(value) == 10 else parse_instant(value, "at")
        except ClockError as error:
            raise EventError(index, kind, error.message, field="at") from None
        return Gift(player, at, _whole(index, kind, data, "days"), data.get("reset_byoyomi", False))
    if kind == "credit":  # its amounts are checked by charging, which knows the count
        return Credit(player, _whole(index, kind, data, "move"),
                      _whole(index, kind, data, "days") if "days" in data else 0,
                      _whole(index, kind, data, "seconds") if "seconds" in data else 0)
    days = _whole(index, kind, data, "days")
    if days < 0:
        raise EventError(index, kind, f"days must be a whole number >= 0, got {days}", field="days")
    return Delay(player, _whole(index, kind, data, "move"), days,
                 _reason(index, kind, data, DelayReason, DelayReason.LATE_REPEAT.value))


def write_game(game: Game, as_of: date | None = None) -> dict:
    """The game file object of ``game``; :func:`read_game` reads it back unchanged."""
    out: dict[str, Any] = {"ruleset": game.ruleset.as_dict(), "official_start": moment_text(game.official_start)}
    if game.time_zone != DEFAULT_TIME_ZONE:
        out["time_zone"] = game.time_zone
    if as_of is not None:
        out["as_of"] = moment_text(as_of)
    out["players"] = {p.id: _write_player(p) for p in game.players}
    out["events"] = [write_event(e) for e in game.events]
    if game.long_moves:  # ICCF Playing Rules 3b (issue 40): written only when given, as before
        out["long_moves"] = [{"player": player, "move": move} for player, move in game.long_moves]
    return out


def _write_player(player: Player) -> dict:
    out: dict[str, Any] = {}
    if player.notice_received_on is not None:
        out["notice_received_on"] = player.notice_received_on.isoformat()
    if player.leave:
        out["leave"] = [r.as_json() for r in player.leave]
    if player.calendar is not None:
        out["calendar"] = player.calendar.as_json()
    if player.vacation or player.allowance_hours is not None:
        out["vacation"] = {"taken": [s.as_json() for s in player.vacation]}
        if player.allowance_hours is not None:
            out["vacation"]["allowance_hours"] = player.allowance_hours
    if player.pauses:
        out["pauses"] = [s.as_json() for s in player.pauses]
    return out


def write_event(event: Move | Notice | Penalty | Delay | Credit) -> dict:
    """One event as a game file object (dates as ``YYYY-MM-DD``, absent ones left out)."""
    if isinstance(event, Move):
        out: dict[str, Any] = {"type": "move", "player": event.player, "number": event.number}
        if event.received_on is not None:
            out.update(_dated("received", event.received_on))
        if event.sent_on is not None:
            out.update(_dated("sent", event.sent_on))
        if event.void:
            out["void"] = True
        if event.variant is not None:
            out["variant"] = event.variant.value
        return out
    if isinstance(event, Notice):
        return {"type": "notice", "player": event.player, "move": event.move, "reason": event.reason.value,
                **_dated("received", event.received_on), **_dated("sent", event.sent_on)}
    if isinstance(event, Penalty):
        return {"type": "penalty", "player": event.player, "move": event.move, "reason": event.reason.value}
    if isinstance(event, Gift):
        out = {"type": "gift", "player": event.player, "at": moment_text(event.at), "days": event.days}
        if event.reset_byoyomi:
            out["reset_byoyomi"] = True
        return out
    if isinstance(event, Credit):
        out = {"type": "credit", "player": event.player, "move": event.move, "days": event.days}
        if event.seconds:
            out["seconds"] = event.seconds
        return out
    return {"type": "delay", "player": event.player, "move": event.move, "days": event.days,
            "reason": event.reason.value}


def _dated(key: str, value: date) -> dict[str, str]:
    """``{"<key>_on": "YYYY-MM-DD"}`` for a date, ``{"<key>_at": RFC 3339}`` for an instant."""
    if isinstance(value, datetime):
        return {f"{key}_at": rfc3339(value) or ""}
    return {f"{key}_on": value.isoformat()}


def as_dates(game: Game) -> Game:
    """``game`` with every instant of its events read as its date in the game's zone (the ``dates`` count
    of a file that gave instants: article 50.4.4 measures dates)."""
    tz = game.time_zone

    def day(value):
        return local_date(value, tz) if isinstance(value, datetime) else value

    events = tuple(e._replace(received_on=day(e.received_on), sent_on=day(e.sent_on))
                   if isinstance(e, (Move, Notice)) else e._replace(at=day(e.at)) if isinstance(e, Gift) else e
                   for e in game.events)
    return Game(official_start=day(game.official_start), players=game.players, events=events,
                ruleset=game.ruleset, time_zone=tz)


__all__ = ["read_game", "write_game", "write_event", "parse_date", "read_moment", "as_dates"]
