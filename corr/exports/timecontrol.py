"""A ruleset's time control in the words and fields of the export formats (PGN, PDN, SGF).

A ruleset counts in days (correspondence) or, for a live tournament, in seconds
(``"unit": "seconds"``, issue 16; fractional to the millisecond). The formats
count seconds (PGN's ``TimeControl``, SGF's ``TM``): a day is 86400 seconds
there, and a control in seconds is written as it is. Read from the ruleset's
JSON (``Ruleset.as_dict()``), the calculator's public form.
"""

from __future__ import annotations

DAY_SECONDS = 86400


def is_seconds(tc: dict | None) -> bool:
    """Whether a ``time_control`` counts in seconds (a live control) rather than days."""
    return tc is not None and tc.get("unit") == "seconds"


def _number(value: float) -> str:
    """A number of seconds as the formats write it: whole when it is (``30``), else to the ms (``0.25``)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0")


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def duration_text(seconds: float) -> str:
    """``1 h 30 min``, ``30 s``, ``0.25 s``: an amount in seconds in fixed English words."""
    ms = round(seconds * 1000)
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    parts = [f"{hours} h"] if hours else []
    if minutes:
        parts.append(f"{minutes} min")
    if rest or not parts:
        parts.append(f"{_number(rest / 1000)} s")
    return " ".join(parts)


def clock_text(ms: int) -> str:
    """A clock reading ``H:MM:SS`` (``1:29:57``; ``0:00:04.250`` with the milliseconds when there are
    any), the form of the PGN supplement's ``[%clk]`` (2001, section 4) that lichess and chess.com write."""
    hours, rest = divmod(max(0, ms), 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours}:{minutes:02d}:{seconds:02d}" + (f".{millis:03d}".rstrip("0") if millis else "")


def _stages_text(stages, amount) -> str:
    out = []
    for s in stages:
        text = (f"the rest of the game in {amount(s['time'])}" if s.get("moves") is None
                else f"{s['moves']} moves in {amount(s['time'])}")
        if s.get("increment"):
            text += f" + {amount(s['increment'])} per move"
        if s.get("delay"):
            text += f" ({amount(s['delay'])} delay per move)"
        out.append(text)
    return ", then ".join(out)


def time_control_text(ruleset: dict) -> str:
    """One line a person reads: ``10 moves in 30 days, cumulative (article 50.4)``, ``Fischer: 1 h 30 min + 30 s
    per move``; fixed English words (a file is read by programs as well as people)."""
    tc = ruleset.get("time_control")
    if tc is None:
        return (f"{ruleset['moves_per_control']} moves in {_days(ruleset['days_per_control'])}, cumulative "
                "(article 50.4)")
    amount = duration_text if is_seconds(tc) else _days

    def main(value) -> str:  # a byo-yomi's main time: an amount, or stages in moves (Go 12.2)
        return _stages_text(value, amount) if isinstance(value, list) else amount(value)

    system = tc["system"]
    if system == "periods":
        text = _stages_text(tc["stages"], amount) + (", repeated" if tc.get("repeat_last") else "") + (
            ", cumulative" if tc.get("cumulative") else "")
    elif system == "sudden_death":
        text = f"sudden death: {amount(tc['time'])} for the game"
    elif system == "fischer":
        text = f"Fischer: {amount(tc['initial'])} + {amount(tc['increment'])} per move"
        if tc.get("max") is not None:
            text += f", at most {amount(tc['max'])}"
    elif system == "per_move":
        text = f"{amount(tc['time'])} per move"
    elif system == "byoyomi":
        text = f"{main(tc['main'])} + {tc['periods']} x {amount(tc['period_time'])} byo-yomi"
    elif system == "canadian":
        text = f"{main(tc['main'])} + {tc['moves']} moves in {amount(tc['period_time'])} (Canadian)"
    elif system == "delay":
        text = f"{amount(tc['main'])}, {amount(tc['delay'])} delay per move"
    else:
        text = system
    if tc.get("double_after") is not None:
        text += f", double time after {_days(tc['double_after'])}"
    if tc.get("max_per_move") is not None:
        text += f", at most {amount(tc['max_per_move'])} per move"
    return text


def _in_seconds(tc: dict | None):
    """The function turning an amount of ``tc`` into seconds (days times 86400; seconds as they are)."""
    if is_seconds(tc):
        return lambda value: value
    return lambda value: value * DAY_SECONDS


def pgn_time_control(ruleset: dict) -> str:
    """The PGN standard's ``TimeControl`` (section 9.6.1) in seconds, or ``?`` where it has no form.

    ``moves/seconds`` per period (``10/2592000`` for 50.4's 10 moves in 30 days; ``40/7200:3600`` for 40
    moves in 2 hours then the rest in 1 hour), ``seconds`` for sudden death, ``seconds+increment`` for
    Fischer (``5400+30``), ``1/seconds`` for a time per move. A period of moves with an increment
    (FIDE 6.2's classical control) is ``40/5400+30:1800+30``: the 1994 standard has no field for it,
    and this is the form python-chess reads (``chess.pgn.parse_time_control``) and others write.
    """
    tc = ruleset.get("time_control")
    if tc is None:
        return f"{ruleset['moves_per_control']}/{ruleset['days_per_control'] * DAY_SECONDS}"
    seconds = _in_seconds(tc)
    system = tc["system"]
    if system == "periods":
        fields = []
        for s in tc["stages"]:
            if s.get("delay"):
                return "?"  # a delay has no field in the standard
            field = _number(seconds(s["time"]))
            if s.get("moves") is not None:
                field = f"{s['moves']}/{field}"
            if s.get("increment"):
                field += f"+{_number(seconds(s['increment']))}"
            fields.append(field)
        return ":".join(fields)
    if system == "sudden_death":
        return _number(seconds(tc["time"]))
    if system == "fischer":
        return f"{_number(seconds(tc['initial']))}+{_number(seconds(tc['increment']))}"
    if system == "per_move":
        return f"1/{_number(seconds(tc['time']))}"
    return "?"


def main_time_seconds(ruleset: dict) -> float:
    """SGF's ``TM``: the time of the first period (or the main time) in seconds."""
    tc = ruleset.get("time_control")
    if tc is None:
        return ruleset["days_per_control"] * DAY_SECONDS
    seconds = _in_seconds(tc)
    for key in ("main", "initial", "time"):
        value = tc.get(key)
        if isinstance(value, list):  # a main time in stages of moves (Go 12.2): its first stage
            return seconds(value[0]["time"])
        if value is not None:
            return seconds(value)
    return seconds(tc["stages"][0]["time"])


def sgf_overtime(ruleset: dict) -> str:
    """SGF's ``OT`` (overtime): ``5x30 byo-yomi``, ``15/300 Canadian`` for a live control, the form KGS and
    the Go programs that read it (CGoban, Sabaki) write; otherwise the control in words."""
    tc = ruleset.get("time_control")
    if is_seconds(tc) and tc["system"] == "byoyomi":
        return f"{tc['periods']}x{_number(tc['period_time'])} byo-yomi"
    if is_seconds(tc) and tc["system"] == "canadian":
        return f"{tc['moves']}/{_number(tc['period_time'])} Canadian"
    return time_control_text(ruleset)
