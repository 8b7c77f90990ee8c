"""Words for the pages: a tournament's real time control, the ledger's kinds."""

from __future__ import annotations


def time_control_text(ruleset) -> str:
    """The time control a tournament's games actually get, in one line (any system or preset)."""
    tc = ruleset.time_control
    if tc is None:
        return (f"{ruleset.moves_per_control} moves in {ruleset.days_per_control} days, accumulated (50.4.3);"
                f" time trouble at {ruleset.time_trouble_days} days left")
    data = tc if isinstance(tc, dict) else tc.as_json()
    system = data.get("system", "")
    extras = []
    if data.get("max_per_move"):
        extras.append(f"at most {data['max_per_move']} days a move")
    if data.get("double_after"):
        extras.append(f"days count double beyond {data['double_after']}")
    if system == "periods":
        stages = ", then ".join(f"{s.get('moves')} moves in {s.get('time')} days" for s in data.get("stages", []))
        text = stages + (", repeated" if data.get("repeat_last") else "") + (
            ", accumulated" if data.get("cumulative", True) else "")
    elif system == "fischer":
        text = f"Fischer: {data.get('initial')} days + {data.get('increment')} a move"
        if data.get("max"):
            text += f", at most {data['max']} on the clock"
    elif system == "per_move":
        text = f"{data.get('time')} days a move"
    elif system == "byoyomi":
        text = (f"Japanese byo-yomi: {data.get('main')} days, then {data.get('periods')} periods of"
                f" {data.get('period_time')} day(s)")
    elif system == "canadian":
        text = (f"Canadian byo-yomi: {data.get('main')} days, then {data.get('moves')} moves in"
                f" {data.get('period_time')} days")
    elif system == "sudden_death":
        text = f"sudden death: {data.get('time')} days for the game"
    elif system == "delay":
        text = f"FIDE delay: {data.get('initial', data.get('main'))} days, {data.get('delay')} free a move"
    else:
        text = system.replace("_", " ") or "custom control"
    return "; ".join([text, *extras])


LEDGER_KINDS = {
    "move": "move",
    "void_move": "void move (impossible or illegible)",
    "variant_move": "variant move",
    "pending_move": "thinking now (move not sent yet)",
    "notice": "notice or repeat",
    "penalty": "penalty",
    "delay": "delay",
}


def ledger_kind(kind: str) -> str:
    return LEDGER_KINDS.get(kind, kind.replace("_", " "))


FIELD_WORDS = {
    "received_on": "the received date", "sent_on": "the sent date", "number": "the move number",
    "notation": "the move", "days": "the days", "move": "the move charged", "note": "the note",
    "reason": "the reason", "mail": "the mail", "player": "the player", "event": "the event",
    "termination": "how the game ended", "result": "the result",
}


def plain(message: str) -> str:
    """A service's message with its field names in words: ``sent_on 2026-01-15 is before received_on ...``
    becomes ``the sent date 2026-01-15 is before the received date ...``."""
    import re

    text = re.sub(r"\b(" + "|".join(k for k in FIELD_WORDS if "_" in k) + r")\b",
                  lambda m: FIELD_WORDS[m.group(1)], message)
    return text[:1].upper() + text[1:]
