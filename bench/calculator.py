"""Calculator throughput on mixed games with the ledger, as ``manage.py clock`` computes them, against a floor.

The games are :func:`gamegen.generate_mixed_game`'s (~125 events: start notices, void moves,
notices, penalties, delays, variants) and the engine builds every account and the ledger
(``compute(..., with_ledger=True)``: the rows the command prints). The floor walks the same parsed
events and only sums the date differences of those that have two dates: the least any calculator
must do. Both run in this process in alternating rounds (floor, engine, floor, ...): each round's
ratio is the engine's run over the floor's run just before it, and the row quotes the median of
those ratios with their min-max, so a stall of a shared machine weighs on one round, not on the
figure. The ratio judged is the CPU-time one (steadier on a shared machine), the wall-time one is
given beside it; the figures are the medians of the rounds.

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
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import Row, spread
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
    """Wall and CPU seconds of the floor and the engine on ``games`` mixed games, ``ROUNDS`` alternating rounds.

    Returns the medians of each side's seconds (``engine_wall``, ``floor_cpu``, ...) and the round-by-round
    ratios, engine over the floor run just before it (``cpu_ratio``, ``wall_ratio``: median, min, max).
    """
    rng = random.Random(6)
    parsed = [read_game(generate_mixed_game(rng, events)) for _ in range(games)]
    count = sum(len(game.events) for game, _ in parsed)
    runs: dict[str, list[float]] = {"engine_wall": [], "floor_wall": [], "engine_cpu": [], "floor_cpu": []}
    accounts = 0
    gc.collect()
    gc.disable()  # as the command runs: the calculator's values hold no cycles
    try:
        for _ in range(ROUNDS):
            for name, work in (("floor", floor_pass), ("engine", engine_pass)):
                wall, cpu = time.perf_counter(), time.process_time()
                result = work(parsed)
                runs[f"{name}_wall"].append(time.perf_counter() - wall)
                runs[f"{name}_cpu"].append(time.process_time() - cpu)
                if name == "engine":
                    accounts = result
    finally:
        gc.enable()
    ratios = {f"{kind}_ratio": spread([engine / floor for engine, floor
                                       in zip(runs[f"engine_{kind}"], runs[f"floor_{kind}"], strict=True)])
              for kind in ("cpu", "wall")}
    medians = {key: statistics.median(values) for key, values in runs.items()}
    return medians | ratios | {"rounds": ROUNDS, "games": games, "events": count, "accounts": accounts,
                               "build": BUILD}


def _row(m: dict, *, judged: bool) -> Row:
    cpu, wall = m["cpu_ratio"], m["wall_ratio"]
    cpu_ratio = cpu["median"]
    count, games = m["events"], m["games"]
    return Row(name=f"calculator with the ledger, {m['build']} build: accounts per second ({games:,} mixed games,"
                    f" {count / games:.0f} events each)",
               figure=round(m["accounts"] / m["engine_wall"]), floor=round(m["accounts"] / m["floor_wall"]),
               unit="accounts/s", ratio=round(cpu_ratio, 2),
               target="engine CPU time <= 3x floor CPU time" if judged else "none (the pure-Python fallback)",
               met=cpu_ratio <= 3 if judged else None,
               note=f"build {m['build']}; medians of {m['rounds']} alternating rounds: CPU ratio {cpu_ratio:.2f}"
                    f" (min {cpu['min']:.2f}, max {cpu['max']:.2f}), wall ratio {wall['median']:.2f}"
                    f" (min {wall['min']:.2f}, max {wall['max']:.2f}); engine"
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
