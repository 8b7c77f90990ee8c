"""A plain reference for ``manage.py clock --json``: article 50.4 in one loop, from the rules.

Usage: python bench/reference.py FILE > OUT   (FILE: a JSON list of game files)

Written from the rules (seed 004, article 50.4) and the output format of docs/calculator.md, not
from the engine, and importing nothing of ``corr``: it loads the whole file, computes
every player's account and the ledger in one loop per game, and dumps the JSON list. The
bench checks that its output equals the command's and compares their times.

Coverage: the subset :func:`gamegen.generate_mixed_game` writes, and nothing more. Rulesets
with the 50.4 numbers only (no ``time_control``, no holidays, weekends or leave); start
notices (50.4.6); moves, void moves, accepted and conditional variants (50.4.8), a pending
move last; notices of an impossible or illegible move (50.4.7, no repeats); penalties and
delays. It trusts its input: no validation (the engine's checks are the engine's cost).
"""

from __future__ import annotations

import sys
from datetime import date, timedelta

import orjson

DAY = 86_400

RULESET = {"moves_per_control": 10, "days_per_control": 30, "grace_days": 3, "first_penalty_days": 5,
           "repeat_penalty_days": 10, "time_trouble_days": 5, "late_notice_start_days": 3}


def game_clock(game: dict) -> dict:
    rules = RULESET | (game.get("ruleset") or {})
    n, d, grace = rules["moves_per_control"], rules["days_per_control"], rules["grace_days"]
    official = date.fromisoformat(game["official_start"])
    as_of = date.fromisoformat(game["as_of"])
    players = {}
    for pid, info in game["players"].items():
        notice = (info or {}).get("notice_received_on")
        start = official
        if notice is not None:  # 50.4.6: the third day after a late notice of the start
            start = max(official, date.fromisoformat(notice) + timedelta(days=rules["late_notice_start_days"]))
        players[pid] = {"start": start, "made": 0, "charges": [], "thinking": 0, "penalty": 0, "penalties": 0,
                        "delay": 0, "accepted": None, "pending": None, "starts": {}, "extra": {}}
    ledger = []
    for index, event in enumerate(game["events"]):
        pid = event["player"]
        p = players[pid]
        kind = event["type"]
        if kind == "move":
            number = event["number"]
            variant = event.get("variant")
            if variant is not None:  # 50.4.8: a variant move costs nothing itself
                p["made"] = number
                if variant == "accepted":
                    p["accepted"] = number
                    note = "accepted from the partner's variant: later time is charged here"
                else:
                    p["accepted"] = None
                    note = "played from the player's own conditional variant: costs nothing"
                ledger.append(line(pid, number, "variant_move", 0, 0, "50.4.8", index, note))
                continue
            # 50.4.8: the receiver's time goes on the last accepted move until they move themselves.
            charged_to = p["accepted"] or number
            received = event.get("received_on")
            received = None if received is None else date.fromisoformat(received)
            counted_from = p["start"] if received is None else max(received, p["start"])  # 50.4.5
            p["starts"][number] = counted_from  # where the flag's day is counted from, if it falls in this move
            sent = event.get("sent_on")
            if sent is None:  # the pending move: its days run to the as-of date
                running = max(0, (as_of - counted_from).days)
                charge(p, charged_to, running)
                p["thinking"] += running
                p["pending"] = (counted_from, running)
                note = f"move {number} running since {counted_from}"
                if charged_to != number:
                    note += f", charged to accepted variant move {charged_to}"
                ledger.append(line(pid, charged_to, "pending_move", running, 0,
                                   "50.4.8" if charged_to != number else "50.4.4", index, note))
                continue
            sent = date.fromisoformat(sent)
            days = max(0, (sent - counted_from).days)  # 50.4.4: received to sent
            before_start = 0 if received is None else max(0, (sent - received).days - days)
            charge(p, charged_to, days)
            p["thinking"] += days
            notes = []
            if event.get("void"):  # its days count; the corrected move carries its number
                notes.append(f"void move {number}: its days count, but it is not a move made")
            else:
                p["made"] = number
                p["accepted"] = None
            if before_start:
                rule = "50.4.5"
                late = " (late notice, 50.4.6)" if p["start"] != official else ""
                notes.append(f"{before_start} day(s) before the player's start {p['start']} not counted{late}")
            elif charged_to != number:
                rule = "50.4.8"
                notes.append(f"charged to accepted variant move {charged_to} (move {number} sent)")
            else:
                rule = "50.4.4"
            ledger.append(line(pid, charged_to, "void_move" if event.get("void") else "move", days, before_start,
                               rule, index, "; ".join(notes)))
        elif kind == "notice":  # 50.4.7: up to the grace days of the answer are not counted
            received, sent = date.fromisoformat(event["received_on"]), date.fromisoformat(event["sent_on"])
            counted_from = max(received, p["start"])
            counted = max(0, (sent - counted_from).days)
            days = max(0, counted - grace)
            charge(p, event["move"], days)
            p["extra"][event["move"]] = p["extra"].get(event["move"], 0) + days
            p["thinking"] += days
            ledger.append(line(pid, event["move"], "notice", days, (sent - received).days - days, "50.4.7", index,
                               f"{event['reason']} notice: {counted} counted day(s) from {counted_from} to {sent},"
                               f" of which up to {grace} are not counted"))
        elif kind == "penalty":  # 50.4.9 the first fault in the game, 50.4.10 every later one
            first = p["penalties"] == 0
            days = rules["first_penalty_days"] if first else rules["repeat_penalty_days"]
            p["penalties"] += 1
            p["penalty"] += days
            charge(p, event["move"], days)
            p["extra"][event["move"]] = p["extra"].get(event["move"], 0) + days
            ledger.append(line(pid, event["move"], "penalty", days, 0, "50.4.9" if first else "50.4.10", index,
                               f"{event['reason']}: {'first' if first else 'repeated'} penalty in this game"))
        else:  # 50.4.11: the whole delay
            days = event["days"]
            p["delay"] += days
            charge(p, event["move"], days)
            p["extra"][event["move"]] = p["extra"].get(event["move"], 0) + days
            ledger.append(line(pid, event["move"], "delay", days, 0, "50.4.11", index,
                               f"{event.get('reason', 'late_repeat')}: whole delay added by the arbiter"))
    accounts = {pid: account(p, n, d, rules["time_trouble_days"], as_of) for pid, p in players.items()}
    return {"as_of": as_of.isoformat(), "players": accounts, "ledger": ledger}


def charge(p: dict, number: int, days: int) -> None:
    charges = p["charges"]
    while len(charges) < number:
        charges.append(0)
    charges[number - 1] += days


def line(player, move, kind, days, excluded, rule, event, note) -> dict:
    return {"player": player, "move": move, "kind": kind, "days": days, "excluded_days": excluded, "rule": rule,
            "event": event, "note": note}


def account(p: dict, n: int, d: int, trouble: int, as_of: date) -> dict:
    # 50.4.3: D days for every N moves, accumulated: the days charged to moves 1..kN are at most kD.
    # The current control holds the move the next days go to.
    next_number = p["accepted"] or p["made"] + 1
    current = (next_number + n - 1) // n
    charges = p["charges"]
    used = 0
    overstepped = None
    for k in range(1, current + 1):
        used += sum(charges[(k - 1) * n:k * n])
        if overstepped is None and used > k * d:
            overstepped = {"control": k, "through_move": k * n, "allowed_days": k * d, "used_days": used,
                           "at": fell_at(p, k, n, d)}
    remaining = current * d - used
    deadline = flag_at = None
    left_seconds = max(0, remaining) * DAY
    if p["pending"] is not None:
        counted_from, running = p["pending"]
        left_seconds = 0
        if remaining + running >= 0:
            last = counted_from + timedelta(days=remaining + running)
            deadline = last.isoformat()
            # The flag falls at 00:00 UTC after the deadline; as of the end of the as-of date, this far off.
            flag_at = f"{(last + timedelta(days=1)).isoformat()}T00:00:00Z"
            left_seconds = max(0, (last - as_of).days) * DAY
    total = p["thinking"] + p["penalty"] + p["delay"]  # 50.4.1
    return {"start": p["start"].isoformat(), "made": p["made"], "on_move": p["pending"] is not None,
            "thinking_days": p["thinking"], "penalty_days": p["penalty"], "delay_days": p["delay"],
            "total_days": total,
            "control": {"number": current, "through_move": current * n, "allowed_days": current * d,
                        "remaining_days": remaining},
            "deadline": deadline, "time_trouble": remaining <= trouble,  # 50.4.12
            "overstepped": overstepped, "flag_at": flag_at, "remaining_seconds": left_seconds}


def fell_at(p: dict, k: int, n: int, d: int) -> str | None:
    """00:00 of the first day over control ``k``: in the move whose days took the control past k·D, the
    day after the last it could afford, once the arbiter's days charged to it are taken first."""
    charges = p["charges"]
    used = sum(charges[:(k - 1) * n])
    for number in range((k - 1) * n + 1, k * n + 1):
        amount = charges[number - 1] if number <= len(charges) else 0
        if used + amount > k * d:
            break
        used += amount
    start = p["starts"].get(number)
    if start is None:
        return None
    left = k * d - used - p["extra"].get(number, 0)
    day = start if left < 0 else start + timedelta(days=left + 1)
    return f"{day.isoformat()}T00:00:00Z"


def main() -> None:
    with open(sys.argv[1], "rb") as fh:
        games = orjson.loads(fh.read())
    out = orjson.dumps([game_clock(g) for g in games])
    sys.stdout.buffer.write(out + b"\n")


if __name__ == "__main__":
    main()
