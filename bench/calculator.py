"""Calculator throughput on mixed games with the ledger, as ``manage.py clock`` computes them, against a floor.

The games are :func:`gamegen.generate_mixed_game`'s (~125 events: start notices, void moves,
notices, penalties, delays, variants) and the engine builds every account and the ledger
(``compute(..., with_ledger=True)``). The floor walks the same parsed events and only sums
the date differences of those that have two dates: the least any calculator must do. Both
run in this process, interleaved, best of several rounds, so the ratio survives a noisy
machine.
"""

from __future__ import annotations

import gc
import random
import time

from common import Row
from gamegen import generate_mixed_game

from corr.clock import Move, Notice, compute, read_game

ROUNDS = 5


def floor_pass(games) -> int:
    total = 0
    for game, _ in games:
        for event in game.events:
            if event.__class__ is Move or event.__class__ is Notice:  # penalties and delays carry no dates
                sent, received = event.sent_on, event.received_on
                if sent is not None and received is not None:
                    total += (sent - received).days
    return total


def engine_pass(games) -> int:
    accounts = 0
    for game, as_of in games:
        clock = compute(game, as_of, with_ledger=True)
        accounts += len(clock.accounts)
    return accounts


def run(*, games: int, events: int = 125) -> list[Row]:
    rng = random.Random(6)
    parsed = [read_game(generate_mixed_game(rng, events)) for _ in range(games)]
    count = sum(len(game.events) for game, _ in parsed)
    best_engine = best_floor = float("inf")
    gc.collect()
    gc.disable()  # as the command runs: the calculator's values hold no cycles
    try:
        for _ in range(ROUNDS):
            started = time.perf_counter()
            floor_pass(parsed)
            best_floor = min(best_floor, time.perf_counter() - started)
            started = time.perf_counter()
            accounts = engine_pass(parsed)
            best_engine = min(best_engine, time.perf_counter() - started)
    finally:
        gc.enable()
    ratio = best_engine / best_floor
    return [Row(name=f"calculator with the ledger: accounts per second ({games:,} mixed games,"
                     f" {count / games:.0f} events each)",
                figure=round(accounts / best_engine), floor=round(accounts / best_floor), unit="accounts/s",
                ratio=round(ratio, 2), target="engine time <= 3x floor time", met=ratio <= 3,
                note=f"engine {best_engine * 1e9 / count:.0f} ns an event, floor {best_floor * 1e9 / count:.0f} ns;"
                     " floor: the same loop summing the events' date differences")]
