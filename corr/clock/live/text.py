"""A live clock explained in words and JSON: what ``manage.py clock`` prints for a live game file."""

from __future__ import annotations

import json
from typing import Any

from .clock import LiveClock, LivePlayer, live_clock
from .gamefile import ms_instant, read_live_game


def compute_live_file(data: Any, *, now_ms: int | None, default_now_ms: int) -> LiveClock:
    """The clock of one live game object at ``now_ms``, else the file's ``now``, else ``default_now_ms``."""
    ruleset, events, file_now = read_live_game(data)
    now = now_ms if now_ms is not None else file_now if file_now is not None else default_now_ms
    return live_clock(ruleset, events, now)


def live_json(clock: LiveClock) -> dict[str, Any]:
    """``manage.py clock --json`` for a live game: the clock and its ledger, instants in ISO 8601."""
    out = clock.as_json()
    out["now"] = ms_instant(clock.now_ms)
    out["ledger"] = [{**line.as_json(), "at": ms_instant(line.at_ms)} for line in clock.ledger]
    return out


def _clock(ms: int | None) -> str:
    if ms is None:
        return "-"
    sign = "-" if ms < 0 else ""
    ms = abs(ms)
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{sign}{hours}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def player_line(side: str, player: LivePlayer) -> str:
    """A player's line of the table: the clock as h:mm:ss.mmm, then every field of the one mapping
    (:meth:`LivePlayer.fields`, what ``--json`` and the API send) as ``name value``, each value written
    as JSON writes it (``null``, ``true``), so the text and the JSON say the same thing."""
    fields = ", ".join(f"{name} {json.dumps(value)}" for name, value in player.fields().items())
    flag = f", flag fell at {ms_instant(player.flag_at_ms)}" if player.flag_at_ms is not None else ""
    return f"{side}: {_clock(player.remaining_ms)} left{flag}; {fields}"


def parse_player_line(line: str) -> tuple[str, dict[str, Any]]:
    """(side, fields) read back from :func:`player_line`'s text: what a reader of the table sees."""
    side, rest = line.split(": ", 1)
    fields = {}
    for item in rest.split("; ", 1)[1].split(", "):
        name, value = item.split(" ", 1)
        fields[name] = json.loads(value)
    return side, fields


def render_live(clock: LiveClock) -> str:
    """A live game's ledger (ms charged per move, what each arbiter action did) and both clocks."""
    lines = [f"live game at {ms_instant(clock.now_ms)}: "
             + (f"{clock.running}'s clock running" if clock.running else
                "paused" if clock.paused else "no clock running") + f", {clock.to_move} to move"]
    lines.append(f"{'at':<25} {'event':<8} {'player':<6} {'charged_ms':>11} {'clock after':>14}  note")
    for line in clock.ledger:
        lines.append(f"{ms_instant(line.at_ms):<25} {line.kind:<8} {line.player or '-':<6} {line.charged_ms:>11}"
                     f" {_clock(line.remaining_ms):>14}  {line.note}")
    for side, player in clock.players.items():
        lines.append(player_line(side, player))
    if clock.next_flag_at_ms is not None:
        lines.append(f"next flag: {ms_instant(clock.next_flag_at_ms)} if {clock.to_move} does not move")
    if clock.late_arrival_deadline_ms is not None:
        lines.append(f"late arrival: {clock.to_move} loses at {ms_instant(clock.late_arrival_deadline_ms)}"
                     " without a first move")
    if clock.forfeit is not None:
        f = clock.forfeit
        lines.append(f"forfeit: {f['player']} ({f['reason']}, {f['rule']}) at {ms_instant(f['at_ms'])}")
    if clock.ended_by_move is not None:
        end = clock.ended_by_move
        lines.append(f"the game ended with {end['player']}'s move {end['number']} at {ms_instant(end['at_ms'])}:"
                     " complete without the press, the clocks stopped (002 6.7 a)")
    if clock.both_fallen_order_unknown:
        lines.append("both flags fell and which first cannot be told: play on (002 6.11)")
    return "\n".join(lines)
