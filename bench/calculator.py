"""Calculator throughput: accounts per second on games of 120 events, against a floor loop.

The floor walks the same parsed events and only sums their date differences:
the least any calculator must do. Both run in this process, interleaved, best
of several rounds, so the ratio survives a noisy machine.
"""

from __future__ import annotations

import gc
import random
import time

from common import Row
from gamegen import generate_game

from corr.clock import compute, read_game

ROUNDS = 5


def floor_pass(games) -> int:
    total = 0
    for game, _ in games:
        for event in game.events:
            sent, received = event.sent_on, event.received_on
            if sent is not None and received is not None:
                total += (sent - received).days
    return total


def engine_pass(games) -> int:
    accounts = 0
    for game, as_of in games:
        accounts += len(compute(game, as_of).accounts)
    return accounts


def run(*, games: int, events: int = 120) -> list[Row]:
    rng = random.Random(6)
    parsed = [read_game(generate_game(rng, events)) for _ in range(games)]
    best_engine = best_floor = float("inf")
    gc.collect()
    for _ in range(ROUNDS):
        started = time.perf_counter()
        floor_pass(parsed)
        best_floor = min(best_floor, time.perf_counter() - started)
        started = time.perf_counter()
        accounts = engine_pass(parsed)
        best_engine = min(best_engine, time.perf_counter() - started)
    ratio = best_engine / best_floor
    return [Row(name=f"calculator: accounts per second ({games:,} games of {events} events)",
                figure=round(accounts / best_engine), floor=round(accounts / best_floor), unit="accounts/s",
                ratio=round(ratio, 2), target="engine time <= 3x floor time", met=ratio <= 3,
                note="floor: the same loop summing the events' date differences")]
