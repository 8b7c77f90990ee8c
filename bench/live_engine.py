"""The live engine's cost per press as the game grows (issue 27): a press folded onto the kept snapshot, against
the incremental floor, at 50, 300, 1,000 and 3,000 presses.

Usage: python bench/live_engine.py [--rounds 7] [--presses 50,300,1000,3000] [--json] [--no-write]

A Fischer 300+3 game of N presses (each side thinking 1-4 s, lag 0-200 ms), played by the engine once. Measured
per press, in alternating rounds (engine, floor, engine, floor, ...) of the same presses:

- **press**: ``live_clock(ruleset, [the last move], now, snapshot=<the snapshot before it>)``, what the service
  does under the game's lock (corr/live/state.py ``fold_rows``), at N presses;
- **floor**: the same press on a bare incremental Fischer clock in plain Python (remaining -= thinking, +=
  increment, the side flipped): the least any incremental clock does;
- **replay**: the whole game replayed from its first event, the definition the snapshot is checked against
  (``tests/clock/test_live_snapshot.py``), for scale.

Reported per size: the median (min-max) over rounds of each round's mean per press, and the ratio of the press
at N presses over the press at the smallest N, each round against its own. Which build of the engine ran
(mypyc or pure) is printed: ``CORR_PURE_PYTHON=1`` runs the pure modules.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corr.clock import Ruleset  # noqa: E402
from corr.clock.build import in_use  # noqa: E402
from corr.clock.live import LiveMove, LiveStart, live_clock  # noqa: E402
from common import spread  # noqa: E402  (bench/, the script's own folder, is on the path)

FISCHER = Ruleset.from_mapping({"time_control": {"unit": "seconds", "system": "fischer", "initial": 300,
                                                 "increment": 3}})
REPEAT = 200
"""Presses folded per measurement (the same press, from the same snapshot: the engine keeps nothing between)."""


def game(presses: int, seed: int = 1) -> list:
    rng = random.Random(seed)
    events, at = [LiveStart(at_ms=0)], 0
    for k in range(presses):
        at += rng.randint(1000, 4000)
        events.append(LiveMove(player="white" if k % 2 == 0 else "black", number=k // 2 + 1, at_ms=at,
                               lag_ms=rng.randint(0, 200)))
    return events


class FloorClock:
    """A bare incremental Fischer clock: what one press must do at the least."""

    __slots__ = ("remaining", "running", "since")

    def __init__(self) -> None:
        self.remaining = {"white": 300_000, "black": 300_000}
        self.running, self.since = "white", 0

    def press(self, at_ms: int) -> None:
        side = self.running
        self.remaining[side] = self.remaining[side] - (at_ms - self.since) + 3_000
        self.running, self.since = ("black" if side == "white" else "white"), at_ms


def per_press_us(function, repeat: int = REPEAT) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - started) / repeat * 1e6


def measure(sizes: list[int], rounds: int) -> dict:
    cases = {}
    for n in sizes:
        events = game(n)
        before = live_clock(FISCHER, events[:-1], events[-2].at_ms)
        last, now = events[-1], events[-1].at_ms + 500
        assert live_clock(FISCHER, [last], now, snapshot=before.snapshot).players == \
            live_clock(FISCHER, events, now).players  # the fold is the replay
        floor = FloorClock()
        for e in events[1:-1]:
            floor.press(e.at_ms)
        cases[n] = (before.snapshot, last, now, floor, events)
    out = {n: {"press": [], "floor": [], "replay": []} for n in sizes}
    for _ in range(rounds):
        for n in sizes:
            for name, us in one_round(*cases[n]).items():
                out[n][name].append(us)
    smallest = sizes[0]
    result = {"build": in_use(), "rounds": rounds, "sizes": {}}
    for n in sizes:
        growth = [a / b for a, b in zip(out[n]["press"], out[smallest]["press"], strict=True)]
        result["sizes"][n] = {name: spread(values, 3) for name, values in out[n].items()} | {
            f"press_vs_{smallest}": spread(growth, 3),
            "press_vs_floor": spread([a / b for a, b in zip(out[n]["press"], out[n]["floor"], strict=True)], 3)}
    return result


def one_round(snapshot: dict, last, now: int, floor: FloorClock, events: list) -> dict[str, float]:
    """One round of one size: µs per press folded from the snapshot, on the floor, and per full replay."""
    saved = (dict(floor.remaining), floor.running, floor.since)

    def floor_press() -> None:
        floor.remaining, floor.running, floor.since = dict(saved[0]), saved[1], saved[2]
        floor.press(last.at_ms)

    return {"press": per_press_us(lambda: live_clock(FISCHER, [last], now, snapshot=snapshot)),
            "floor": per_press_us(floor_press),
            "replay": per_press_us(lambda: live_clock(FISCHER, events, now), repeat=max(1, 2000 // len(events)))}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--presses", default="50,300,1000,3000")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    parser.add_argument("--no-write", action="store_true", help="leave bench/results.json")
    args = parser.parse_args()
    result = measure([int(n) for n in args.presses.split(",")], args.rounds)
    if not args.json:
        smallest = min(result["sizes"])
        print(f"live engine ({result['build']} build), {args.rounds} alternating rounds, per press, median (min-max):")
        for n, r in result["sizes"].items():
            growth = r[f"press_vs_{smallest}"]
            print(f"  {n:>5} presses: press {r['press']['median']:.1f} µs ({r['press']['min']:.1f}-"
                  f"{r['press']['max']:.1f}), floor {r['floor']['median']:.2f} µs, press/floor"
                  f" {r['press_vs_floor']['median']:.0f}x, vs {smallest} presses {growth['median']:.2f}"
                  f" ({growth['min']:.2f}-{growth['max']:.2f}); the full replay {r['replay']['median'] / 1000:.2f} ms")
    print(json.dumps(result))
    if not args.no_write:
        store(result)


def store(result: dict) -> None:
    """Keep ``result`` as ``live_engine`` in bench/results.json, dated."""
    from datetime import UTC, datetime

    path = Path(__file__).resolve().parent / "results.json"
    stored = json.loads(path.read_text()) if path.exists() else {}
    stored["live_engine"] = {"at": datetime.now(UTC).isoformat(timespec="seconds"), **result}
    path.write_text(json.dumps(stored, indent=2) + "\n")


if __name__ == "__main__":
    main()
