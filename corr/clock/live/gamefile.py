"""The live game file: a live game as JSON, instants in ISO 8601, read strictly and written back.

``{"ruleset": {"time_control": {..., "unit": "seconds"}}, "now": "2026-11-30T10:05:00Z", "events": [
{"type": "start", "at": "2026-11-30T10:00:00Z"}, {"type": "move", "player": "white", "number": 1,
"at": "2026-11-30T10:00:05.250Z", "lag_ms": 40}, {"type": "pause", "at": ...}, {"type": "resume",
"at": ...}, {"type": "adjust", "player": "black", "seconds": -60, "at": ..., "reason": "..."},
{"type": "illegal", "player": "white", "at": ...}, {"type": "gap", "from": ..., "to": ...}]}``.

``now`` is optional (``manage.py clock`` then takes the current time). Instants carry a time zone
(``Z`` or an offset) and at most millisecond precision; everything else is as strict as the
correspondence game file (:mod:`corr.clock.gamefile`). ``read_live_game(write_live_game(...))`` gives
the same events back.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from ..errors import ClockError, EventError
from ..rules import Ruleset
from ..units import Unit, ms_to_seconds, seconds_to_ms
from .events import LiveAdjust, LiveEvent, LiveExcuse, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart

_TOP_KEYS = frozenset({"ruleset", "now", "events", "meta", "players"})
_KEYS = {
    "start": {"type", "at", "handicap_stones"},
    "move": {"type", "player", "number", "at", "lag_ms", "notation", "ends_game"},
    "pause": {"type", "at", "reason", "player"},
    "resume": {"type", "at", "reason"},
    "adjust": {"type", "player", "seconds", "at", "reason"},
    "illegal": {"type", "player", "at", "reason"},
    "gap": {"type", "from", "to"},
    "excuse": {"type", "player", "at", "reason"},
}


def is_live_game(data: Any) -> bool:
    """True for a game object whose ruleset counts in seconds (a live game file)."""
    if not isinstance(data, dict):
        return False
    ruleset = data.get("ruleset")
    control = ruleset.get("time_control") if isinstance(ruleset, dict) else None
    return isinstance(control, dict) and control.get("unit") == Unit.SECONDS.value


def instant_ms(value: Any, field: str) -> int:
    """An ISO 8601 instant with its time zone, as integer ms since the epoch. :raises ClockError: naming it."""
    if not isinstance(value, str):
        raise ClockError(f"{field} must be an ISO 8601 instant such as 2026-11-30T10:00:05.250Z, got {value!r}",
                         field=field)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        raise ClockError(f"{field} must be an ISO 8601 instant such as 2026-11-30T10:00:05.250Z, got {value!r}",
                         field=field) from None
    if moment.tzinfo is None:
        raise ClockError(f"{field} needs a time zone (Z or +hh:mm): {value!r} could be any instant", field=field)
    if moment.microsecond % 1000:
        raise ClockError(f"{field} is finer than the millisecond: {value!r}", field=field)
    delta = moment - datetime(1970, 1, 1, tzinfo=timezone.utc)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def ms_instant(ms: int) -> str:
    """Integer ms since the epoch as an ISO 8601 UTC instant (``2026-11-30T10:00:05.250Z``)."""
    moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc).replace(microsecond=(ms % 1000) * 1000)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (f".{ms % 1000:03d}Z" if ms % 1000 else "Z")


def read_live_game(data: Any) -> tuple[Ruleset, tuple[LiveEvent, ...], int | None]:
    """Read one live game object: (ruleset, events, ``now`` in ms or None).

    :raises ClockError: (or :class:`EventError`) naming the field for anything malformed.
    """
    if not isinstance(data, dict):
        raise ClockError("a game must be a JSON object")
    for key in data:
        if key not in _TOP_KEYS:
            raise ClockError(f"{key!r} is not a live game file field (known: {', '.join(sorted(_TOP_KEYS))})",
                             field=str(key))
    ruleset = Ruleset.from_mapping(data.get("ruleset"))
    now = instant_ms(data["now"], "now") if data.get("now") is not None else None
    raw = data.get("events", [])
    if not isinstance(raw, list):
        raise ClockError("events must be a list", field="events")
    return ruleset, tuple(_read_event(i, e) for i, e in enumerate(raw)), now


def _read_event(index: int, data: Any) -> LiveEvent:
    if not isinstance(data, dict):
        raise EventError(index, "?", "an event must be a JSON object")
    kind = data.get("type")
    allowed = _KEYS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        raise EventError(index, str(kind), f"unknown type {kind!r} (known: {', '.join(_KEYS)})", field="type")
    for key in data:
        if key not in allowed:
            raise EventError(index, kind, f"{key!r} is not a field of a {kind} event", field=str(key))

    def at(key: str = "at") -> int:
        if key not in data:
            raise EventError(index, kind, f"{key} is required", field=key)
        try:
            return instant_ms(data[key], key)
        except ClockError as error:
            raise EventError(index, kind, error.message, field=key) from None

    if kind == "start":
        return LiveStart(at(), handicap_stones=data.get("handicap_stones", 0))
    if kind == "move":
        return LiveMove(data.get("player"), data.get("number"), at(), data.get("lag_ms", 0),
                        data.get("ends_game", False))
    if kind == "pause":
        return LivePause(at(), data.get("player"))
    if kind == "resume":
        return LiveResume(at())
    if kind == "adjust":
        seconds = data.get("seconds")
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds < 0:
            sign, seconds = -1, -seconds
        else:
            sign = 1
        try:
            delta = sign * seconds_to_ms(seconds, "seconds")
        except ClockError as error:
            raise EventError(index, kind, error.message, field="seconds") from None
        return LiveAdjust(data.get("player"), delta, at())
    if kind == "illegal":
        return LiveIllegal(data.get("player"), at())
    if kind == "excuse":
        return LiveExcuse(data.get("player"), at())
    return LiveGap(at("from"), at("to"))


def write_live_event(event: LiveEvent) -> dict[str, Any]:
    """One event as a live game file object; :func:`read_live_game` reads it back unchanged."""
    if isinstance(event, LiveStart):
        start: dict[str, Any] = {"type": "start", "at": ms_instant(event.at_ms)}
        if event.handicap_stones:  # issue 40: Go's free handicap, black's stones placed on no running clock
            start["handicap_stones"] = event.handicap_stones
        return start
    if isinstance(event, LiveMove):
        out: dict[str, Any] = {"type": "move", "player": event.player, "number": event.number,
                               "at": ms_instant(event.at_ms)}
        if event.lag_ms:
            out["lag_ms"] = event.lag_ms
        if event.ends_game:
            out["ends_game"] = True
        return out
    if isinstance(event, LivePause):
        pause: dict[str, Any] = {"type": "pause", "at": ms_instant(event.at_ms)}
        if event.player is not None:
            pause["player"] = event.player
        return pause
    if isinstance(event, LiveResume):
        return {"type": "resume", "at": ms_instant(event.at_ms)}
    if isinstance(event, LiveAdjust):
        sign = -1 if event.delta_ms < 0 else 1
        return {"type": "adjust", "player": event.player, "seconds": sign * ms_to_seconds(abs(event.delta_ms)),
                "at": ms_instant(event.at_ms)}
    if isinstance(event, LiveIllegal):
        return {"type": "illegal", "player": event.player, "at": ms_instant(event.at_ms)}
    if isinstance(event, LiveExcuse):
        return {"type": "excuse", "player": event.player, "at": ms_instant(event.at_ms)}
    return {"type": "gap", "from": ms_instant(event.from_ms), "to": ms_instant(event.to_ms)}


def write_live_game(ruleset: Ruleset, events: tuple[LiveEvent, ...] | list[LiveEvent],
                    now_ms: int | None = None) -> dict[str, Any]:
    """The live game file object of a game; :func:`read_live_game` reads it back unchanged."""
    out: dict[str, Any] = {"ruleset": ruleset.as_dict()}
    if now_ms is not None:
        out["now"] = ms_instant(now_ms)
    out["events"] = [write_live_event(e) for e in events]
    return out
