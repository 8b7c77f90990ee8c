"""A ruleset's time control in the words and fields of the export formats (PGN, SGF).

Every number of a ruleset is in days; the formats count seconds (PGN's
``TimeControl``, SGF's ``TM``), so a day is 86400 seconds there. Read from the
ruleset's JSON (``Ruleset.as_dict()``), the calculator's public form.
"""

from __future__ import annotations

DAY_SECONDS = 86400


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def time_control_text(ruleset: dict) -> str:
    """One line a person reads: ``10 moves in 30 days, cumulative (article 50.4)``; fixed English words."""
    tc = ruleset.get("time_control")
    if tc is None:
        return (f"{ruleset['moves_per_control']} moves in {_days(ruleset['days_per_control'])}, cumulative "
                "(article 50.4)")
    system = tc["system"]
    if system == "periods":
        stages = ", then ".join(f"{s['moves']} moves in {_days(s['time'])}" for s in tc["stages"])
        text = stages + (", repeated" if tc.get("repeat_last") else "") + (
            ", cumulative" if tc.get("cumulative") else "")
    elif system == "fischer":
        text = f"Fischer: {_days(tc['initial'])} + {_days(tc['increment'])} per move"
        if tc.get("max") is not None:
            text += f", at most {_days(tc['max'])}"
    elif system == "per_move":
        text = f"{_days(tc['time'])} per move"
    elif system == "byoyomi":
        text = f"{_days(tc['main'])} + {tc['periods']} x {_days(tc['period_time'])} byo-yomi"
    elif system == "canadian":
        text = f"{_days(tc['main'])} + {tc['moves']} moves in {_days(tc['period_time'])} (Canadian)"
    elif system == "delay":
        text = f"{_days(tc['main'])}, {_days(tc['delay'])} delay per move"
    else:
        text = system
    if tc.get("double_after") is not None:
        text += f", double time after {_days(tc['double_after'])}"
    if tc.get("max_per_move") is not None:
        text += f", at most {_days(tc['max_per_move'])} per move"
    return text


def pgn_time_control(ruleset: dict) -> str:
    """The PGN standard's ``TimeControl`` (section 9.6.1) in seconds, or ``?`` where it has no form.

    ``moves/seconds`` per period (``10/2592000`` for 50.4's 10 moves in 30
    days), ``seconds+increment`` for Fischer, ``1/seconds`` for days per move.
    """
    tc = ruleset.get("time_control")
    if tc is None:
        return f"{ruleset['moves_per_control']}/{ruleset['days_per_control'] * DAY_SECONDS}"
    system = tc["system"]
    if system == "periods":
        return ":".join(f"{s['moves']}/{s['time'] * DAY_SECONDS}" for s in tc["stages"])
    if system == "fischer":
        return f"{tc['initial'] * DAY_SECONDS}+{tc['increment'] * DAY_SECONDS}"
    if system == "per_move":
        return f"1/{tc['time'] * DAY_SECONDS}"
    return "?"


def main_time_seconds(ruleset: dict) -> int:
    """SGF's ``TM``: the time of the first period (or the main time) in seconds."""
    tc = ruleset.get("time_control")
    if tc is None:
        return ruleset["days_per_control"] * DAY_SECONDS
    for key in ("main", "initial", "time"):
        if tc.get(key) is not None:
            return tc[key] * DAY_SECONDS
    return tc["stages"][0]["time"] * DAY_SECONDS
