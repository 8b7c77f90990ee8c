"""Generate realistic game files for benchmarks and property tests (pure, seeded)."""

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
