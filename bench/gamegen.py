"""Generate realistic game files for benchmarks and property tests (pure, seeded).

:func:`generate_game` writes plain alternating moves; :func:`generate_mixed_game` writes
what real postal games hold beside them (article 50.4): late start notices (50.4.6),
moves received before a player's start (50.4.5), void moves answered by a notice and
followed by a penalty (50.4.7, 50.4.9, 50.4.10), conditional variants (50.4.8), the
arbiter's delays (50.4.11) and other rulesets' numbers. Every game it writes is valid.
"""

from __future__ import annotations

import random
from datetime import date, timedelta


def generate_game(rng: random.Random, events: int = 120, pending: bool = True) -> dict:
    """One postal game of ``events`` alternating moves with transit and thinking gaps.

    The last event is the pending move of the player to move when ``pending``.
    """
    start = date(2025, 1, 1) + timedelta(days=rng.randrange(300))
    players = ("white", "black")
    made = {"white": 0, "black": 0}
    day = start
    out = []
    received = None
    for i in range(events):
        player = players[i % 2]
        think = rng.randrange(0, 6)
        transit = rng.randrange(1, 8)
        made[player] += 1
        move = {"type": "move", "player": player, "number": made[player]}
        if received is not None:
            move["received_on"] = received.isoformat()
        if pending and i == events - 1:
            out.append(move)
            break
        sent = day + timedelta(days=think)
        move["sent_on"] = sent.isoformat()
        out.append(move)
        day = sent + timedelta(days=transit)
        received = day
    as_of = max(day, start) + timedelta(days=1)
    return {"official_start": start.isoformat(), "as_of": as_of.isoformat(),
            "players": {"white": {}, "black": {}}, "events": out}


_RULESETS = (
    None,  # most games carry no ruleset: article 50.4's numbers
    {"moves_per_control": 10, "days_per_control": 30, "grace_days": 3, "first_penalty_days": 5,
     "repeat_penalty_days": 10, "time_trouble_days": 5, "late_notice_start_days": 3},
    {"moves_per_control": 10, "days_per_control": 40},
    {"moves_per_control": 5, "days_per_control": 20, "grace_days": 2, "time_trouble_days": 3},
)


def generate_mixed_game(rng: random.Random, events: int = 125, pending: bool = True) -> dict:
    """One postal game of about ``events`` events (at least that many), of every kind the rules know.

    Dispatches alternate between the players (a dated move or a notice answers the partner's
    last one); variant moves, penalties and delays fall between them. The last event is the
    pending move of the player to move when ``pending``.
    """
    start = date(2025, 1, 1) + timedelta(days=rng.randrange(300))
    names = ("white", "black")
    players: dict[str, dict] = {"white": {}, "black": {}}
    late = None
    if rng.random() < 0.3:  # 50.4.6: one player was notified of the start late
        late = rng.choice(names)
        players[late]["notice_received_on"] = (start + timedelta(days=rng.randrange(1, 12))).isoformat()
    made = {"white": 0, "black": 0}
    out: list[dict] = []
    arrival: date | None = None  # when the partner's last dispatch reaches the player to move
    last_day = start
    turn = 0

    def dispatch(player: str, event: dict, sent: date) -> None:
        nonlocal arrival, last_day, turn
        event["sent_on"] = sent.isoformat()
        out.append(event)
        arrival = sent + timedelta(days=rng.randrange(1, 8))
        last_day = max(last_day, arrival)
        turn += 1

    def answer_date(player: str) -> date:
        if arrival is None:  # white's first move: counted from the start
            return start + timedelta(days=rng.randrange(0, 4))
        return arrival + timedelta(days=rng.randrange(0, 6))

    def move(player: str, **extra) -> dict:
        event = {"type": "move", "player": player, "number": made[player] + 1, **extra}
        if arrival is not None:
            event["received_on"] = arrival.isoformat()
        return event

    while len(out) < events - 1:
        player = names[turn % 2]
        partner = names[(turn + 1) % 2]
        roll = rng.random()
        if roll < 0.025 and arrival is not None and len(out) < events - 5:
            # 50.4.7, 50.4.9: a void move, the partner's notice, the penalty, the corrected move.
            dispatch(player, move(player, void=True), answer_date(player))
            reason = rng.choice(("impossible_move", "illegible_move"))
            notice = {"type": "notice", "player": partner, "move": made[partner] + 1, "reason": reason,
                      "received_on": arrival.isoformat()}
            dispatch(partner, notice, answer_date(partner))
            out.append({"type": "penalty", "player": player, "move": made[player] + 1, "reason": reason})
            continue  # the player now sends the corrected move with the same number
        if roll < 0.05 and arrival is not None and len(out) < events - 4:
            # 50.4.8: a dated move carrying a variant the partner accepts, the player's conditional reply.
            dispatch(player, move(player), answer_date(player))
            made[player] += 1
            out.append({"type": "move", "player": partner, "number": made[partner] + 1, "variant": "accepted"})
            made[partner] += 1
            out.append({"type": "move", "player": player, "number": made[player] + 1, "variant": "conditional"})
            made[player] += 1
            continue  # the partner's next dated move answers the letter and is charged to the accepted move
        if roll < 0.065:
            out.append({"type": "delay", "player": player, "move": made[player] + 1,
                        "days": rng.randrange(1, 6), "reason": "late_repeat"})
        elif roll < 0.075:
            out.append({"type": "penalty", "player": player, "move": made[player] + 1,
                        "reason": rng.choice(("unregistered_mail", "address_error", "wrong_repetition"))})
        dispatch(player, move(player), answer_date(player))
        made[player] += 1
    player = names[turn % 2]
    if pending:
        out.append(move(player))
    else:
        dispatch(player, move(player), answer_date(player))
    as_of = last_day + timedelta(days=rng.randrange(1, 10))
    game = {"official_start": start.isoformat(), "as_of": as_of.isoformat(), "players": players, "events": out}
    ruleset = rng.choice(_RULESETS)
    if ruleset is not None:
        game = {"ruleset": ruleset, **game}
    return game
