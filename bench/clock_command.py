"""Time ``manage.py clock --json`` on 10,000 games of 120 events (issue: the calculator).

Usage: python bench/clock_command.py [--games N] [--events E]
Prints the wall time of the whole command (start-up, reading, computing, writing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gamegen import generate_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=120)
    args = parser.parse_args()
    rng = random.Random(1)
    games = [generate_game(rng, args.events) for _ in range(args.games)]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(games, fh)
        path = fh.name
    env = dict(os.environ, DEBUG="1")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "clock", path, "--json"],
                          env=env, stdout=subprocess.DEVNULL, check=True)
    seconds = time.perf_counter() - started
    os.unlink(path)
    print(json.dumps({"games": args.games, "events_per_game": args.events, "seconds": round(seconds, 3),
                      "exit": done.returncode}))


if __name__ == "__main__":
    main()
