"""``manage.py clock --json`` against a plain reference, and its memory as the games grow.

Usage: python bench/clock_command.py [--games N] [--rounds R]   (prints the rows as JSON)

The command and ``bench/reference.py`` (article 50.4 in one loop, written from the rules) run
on the same file of mixed games (:func:`gamegen.generate_mixed_game`), each in a fresh process,
in R alternating rounds (reference, command, ...): each round's ratio is the command's run over the
reference's run just before it, quoted as the median with min-max, and the figures are the rounds'
medians; both outputs must be identical. Wall and CPU time (user +
system, children included) and peak RSS are read with ``getrusage(RUSAGE_CHILDREN)`` in a
wrapper process around each run, so no run's peak hides another's. Peak memory is then
compared on ten times the games (the same games repeated), and ``--workers 2`` against one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import ROOT, Row  # noqa: E402
from gamegen import generate_mixed_game  # noqa: E402

MEASURE = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
with open(sys.argv[1], "wb") as out:
    done = subprocess.run(sys.argv[2:], stdout=out)
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kib": usage.ru_maxrss,
                  "exit": done.returncode}))
"""


def measure(command: list[str], out: Path) -> dict:
    """One run of ``command`` (stdout to ``out``) in a wrapper of its own: wall, CPU, peak RSS."""
    env = dict(os.environ, DEBUG="1")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run([sys.executable, "-c", MEASURE, str(out), *command], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    if result["exit"]:
        raise RuntimeError(f"{' '.join(command)} exited {result['exit']}: {done.stderr[-2000:]}")
    return result


def write_games(path: Path, games: list[bytes], repeat: int = 1) -> None:
    """A JSON list of the games (already encoded), ``repeat`` times over, written piece by piece."""
    with open(path, "wb") as fh:
        fh.write(b"[")
        for r in range(repeat):
            for i, game in enumerate(games):
                fh.write(b"," + game if r or i else game)
        fh.write(b"]")


def same_output(a: Path, b: Path) -> str:
    if a.read_bytes() == b.read_bytes():
        return "byte-identical"
    if json.loads(a.read_bytes()) == json.loads(b.read_bytes()):
        return "equal after parsing"
    raise AssertionError(f"the command's output differs from the reference's ({a}, {b})")


def run(*, games: int = 10_000, rounds: int = 3, events: int = 125) -> list[Row]:
    import orjson

    rng = random.Random(13)
    encoded = [orjson.dumps(generate_mixed_game(rng, events)) for _ in range(games)]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        source, big = tmp / "games.json", tmp / "games-x10.json"
        write_games(source, encoded)
        clock = [sys.executable, str(ROOT / "manage.py"), "clock", str(source), "--json"]
        reference = [sys.executable, str(HERE / "reference.py"), str(source)]
        runs: dict[str, list[dict]] = {"reference": [], "clock": []}
        for _ in range(rounds):
            for name, command in (("reference", reference), ("clock", clock)):
                runs[name].append(measure(command, tmp / f"{name}.out"))
        identical = same_output(tmp / "clock.out", tmp / "reference.out")
        workers = measure([*clock, "--workers", "2"], tmp / "workers.out")
        if (tmp / "workers.out").read_bytes() != (tmp / "clock.out").read_bytes():
            raise AssertionError("--workers 2 gave another output than one process")
        write_games(big, encoded, repeat=10)
        big_run = measure([sys.executable, str(ROOT / "manage.py"), "clock", str(big), "--json"], tmp / "big.out")
    c, r = ({key: statistics.median(m[key] for m in runs[name]) for key in ("wall", "cpu", "rss_kib")}
            for name in ("clock", "reference"))
    walls = [a["wall"] / b["wall"] for a, b in zip(runs["clock"], runs["reference"], strict=True)]
    cpus = [a["cpu"] / b["cpu"] for a, b in zip(runs["clock"], runs["reference"], strict=True)]
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    memory = big_run["rss_kib"] / c["rss_kib"]
    return [
        Row(name=f"manage.py clock --json: {games:,} mixed games of ~{events} events vs the plain reference",
            figure=round(c["wall"], 2), floor=round(r["wall"], 2), unit="s", ratio=round(wall, 2),
            target="<= 1.25x the reference (wall and CPU)", met=wall <= 1.25 and cpu <= 1.25,
            note=f"CPU {c['cpu']:.2f} s vs {r['cpu']:.2f} s: {cpu:.2f}x (min {min(cpus):.2f}, max {max(cpus):.2f});"
                 f" wall ratio min {min(walls):.2f}, max {max(walls):.2f}; medians of {rounds} alternating rounds;"
                 f" outputs {identical}; reference: bench/reference.py"),
        Row(name=f"manage.py clock --json: peak memory, {10 * games:,} games vs {games:,}",
            figure=round(big_run["rss_kib"] / 1024, 1), floor=round(c["rss_kib"] / 1024, 1), unit="MiB",
            ratio=round(memory, 2), target="<= 1.5x", met=memory <= 1.5,
            note=f"{10 * games:,} games in {big_run['wall']:.1f} s; reference peak at {games:,}:"
                 f" {r['rss_kib'] / 1024:.0f} MiB (it reads the whole file)"),
        Row(name=f"manage.py clock --json --workers 2 vs one process ({games:,} games)",
            figure=round(workers["wall"], 2), floor=round(c["wall"], 2), unit="s",
            ratio=round(workers["wall"] / c["wall"], 2), target="(reported: workers are opt-in)", met=None,
            note=f"CPU {workers['cpu']:.2f} s vs {c['cpu']:.2f} s; same output"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps([r.as_json() for r in run(games=args.games, rounds=args.rounds)]))


if __name__ == "__main__":
    main()
