"""Calculator throughput on mixed games with the ledger, as ``manage.py clock`` computes them, against a floor.

The games are :func:`gamegen.generate_mixed_game`'s (~125 events: start notices, void moves,
notices, penalties, delays, variants) and the engine builds every account and the ledger
(``compute(..., with_ledger=True)``: the rows the command prints). The floor walks the same parsed
events and only sums the date differences of those that have two dates: the least any calculator
must do. Both run in this process, interleaved, best of several rounds, so the ratio survives a
noisy machine; the ratio judged is the CPU-time one (steadier on a shared machine), the wall-time
one is given beside it.

The row says which build of the calculator it measured (``corr.clock.BUILD``: ``mypyc``, the
compiled modules ``make venv`` builds, or ``pure``). When that is the compiled build, the pure
modules are measured too, in a child process (``CORR_PURE_PYTHON=1``), on a row of their own: the
fallback's figure, with no target of its own.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from common import Row
from gamegen import generate_mixed_game

from corr.clock import BUILD, Move, Notice, compute, read_game

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


def measure(games: int, events: int = 125) -> dict:
    """Best-of-rounds wall and CPU seconds of the floor and the engine on ``games`` mixed games."""
    rng = random.Random(6)
    parsed = [read_game(generate_mixed_game(rng, events)) for _ in range(games)]
    count = sum(len(game.events) for game, _ in parsed)
    best = {"engine_wall": float("inf"), "floor_wall": float("inf"),
            "engine_cpu": float("inf"), "floor_cpu": float("inf")}
    accounts = 0
    gc.collect()
    gc.disable()  # as the command runs: the calculator's values hold no cycles
    try:
        for _ in range(ROUNDS):
            for name, work in (("floor", floor_pass), ("engine", engine_pass)):
                wall, cpu = time.perf_counter(), time.process_time()
                result = work(parsed)
                best[f"{name}_wall"] = min(best[f"{name}_wall"], time.perf_counter() - wall)
                best[f"{name}_cpu"] = min(best[f"{name}_cpu"], time.process_time() - cpu)
                if name == "engine":
                    accounts = result
    finally:
        gc.enable()
    return best | {"games": games, "events": count, "accounts": accounts, "build": BUILD}


def _row(m: dict, *, judged: bool) -> Row:
    cpu_ratio = m["engine_cpu"] / m["floor_cpu"]
    wall_ratio = m["engine_wall"] / m["floor_wall"]
    count, games = m["events"], m["games"]
    return Row(name=f"calculator with the ledger, {m['build']} build: accounts per second ({games:,} mixed games,"
                    f" {count / games:.0f} events each)",
               figure=round(m["accounts"] / m["engine_wall"]), floor=round(m["accounts"] / m["floor_wall"]),
               unit="accounts/s", ratio=round(cpu_ratio, 2),
               target="engine CPU time <= 3x floor CPU time" if judged else "none (the pure-Python fallback)",
               met=cpu_ratio <= 3 if judged else None,
               note=f"build {m['build']}; CPU ratio {cpu_ratio:.2f}, wall ratio {wall_ratio:.2f}; engine"
                    f" {m['engine_cpu'] * 1e9 / count:.0f} ns CPU an event,"
                    f" floor {m['floor_cpu'] * 1e9 / count:.0f} ns;"
                    " floor: the same loop summing the events' date differences")


def run(*, games: int, events: int = 125) -> list[Row]:
    rows = [_row(measure(games, events), judged=True)]
    if BUILD != "pure":  # the fallback measured too, in a process that imports the sources
        here = Path(__file__).resolve().parent
        done = subprocess.run([sys.executable, str(here / "calculator.py"), str(games), str(events)],
                              env=dict(os.environ, CORR_PURE_PYTHON="1", PYTHONPATH=str(here.parent)),
                              capture_output=True, text=True,
                              check=True, cwd=here.parent)
        rows.append(_row(json.loads(done.stdout), judged=False))
    return rows


if __name__ == "__main__":  # the pure build's figures, for run() above
    print(json.dumps(measure(int(sys.argv[1]), int(sys.argv[2]))))
