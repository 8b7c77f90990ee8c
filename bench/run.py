"""``make bench``: the benchmark suite. Prints a table and writes it as JSON.

Every figure is compared with a floor measured in the same run on the same
machine, and judged by their ratio: the machines are shared and noisy, so
only ratios are stable. ``--quick`` runs small sizes (the CI smoke test: it
checks that every benchmark runs, not the targets).

Needs PostgreSQL (127.0.0.1:5432, trust) and Redis (127.0.0.1:6379), as CI has.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import date, datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import PY, ROOT, Row, database_url, recreate_database, service_env  # noqa: E402

SIZES = {
    "quick": {"calculator_games": 1000, "command_games": 1000, "command_rounds": 1, "http_seconds": 3,
              "nightly_games": 20_000, "nightly_near": 200},
    "full": {"calculator_games": 10_000, "command_games": 10_000, "command_rounds": 3, "http_seconds": 12,
             "nightly_games": 1_000_000, "nightly_near": 10_000},
}
NIGHTLY_DATE = "2026-11-29"
SECTIONS = ("calculator", "http", "nightly")


def section(script: str, *args: str, database: str) -> str:
    recreate_database(database)
    env = service_env({"DATABASE_URL": database_url(database)})
    done = subprocess.run([PY, str(HERE / script), *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{script} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


def nightly_rows(size: dict) -> list[Row]:
    games, near = size["nightly_games"], size["nightly_near"]
    one = json.loads(section("nightly_load.py", "--games", str(games), "--near", str(near), "--date", NIGHTLY_DATE,
                             "--scale-out", database="corr_bench_nightly"))
    two = json.loads(section("nightly_load.py", "--games", str(2 * games), "--near", str(near), "--date",
                             NIGHTLY_DATE, database="corr_bench_nightly"))
    ratio = one["job_seconds"] / one["floor_seconds"]
    growth = two["job_seconds"] / one["job_seconds"] - 1
    c1, c2 = one["celery_seconds"]["1"], one["celery_seconds"]["2"]
    return [
        Row(name=f"data generator: {games:,} running games ({near:,} near a deadline)",
            figure=round(one["load_seconds"], 1), floor=None, unit="s", ratio=None, target="minutes", met=None,
            note=f"{2 * games:,} games: {two['load_seconds']:.1f} s (COPY)"),
        Row(name=f"nightly job: {games:,} games, {one['selected_players']:,} players selected",
            figure=round(one["job_seconds"], 3), floor=round(one["floor_seconds"], 3), unit="s",
            ratio=round(ratio, 1), target="<= 10x floor", met=ratio <= 10,
            note=f"created {one['totals']}; floor: bare SQL selecting the same rows and inserting one per player"),
        Row(name=f"nightly job: {2 * games:,} games, same {near:,} near", figure=round(two["job_seconds"], 3),
            floor=round(one["job_seconds"], 3), unit="s", ratio=round(1 + growth, 2),
            target="doubling the games changes the time by < 20%", met=abs(growth) < 0.2,
            note=f"floor {two['floor_seconds']:.3f} s at {2 * games:,} games"),
        Row(name=f"nightly job through Celery: 2 worker processes vs 1 ({games:,} games)", figure=round(c2, 3),
            floor=round(c1, 3), unit="s", ratio=round(c1 / c2, 2), target="(speed-up, reported)", met=None,
            note=f"chunks of {one['chunk']} games; 1 process {c1:.2f} s, 2 processes {c2:.2f} s"),
    ]


def print_table(rows: list[Row]) -> None:
    print(f"{'benchmark':<86} {'figure':>12} {'floor':>12} {'ratio':>7}  target (met)")
    for r in rows:
        met = "" if r.met is None else ("yes" if r.met else "NO")
        floor = "" if r.floor is None else f"{r.floor:,}"
        ratio = "" if r.ratio is None else f"{r.ratio}"
        print(f"{r.name[:86]:<86} {r.figure:>12,} {floor:>12} {ratio:>7}  {r.target} {met}".rstrip())
        if r.note:
            print(f"{'':<4}{r.unit}; {r.note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for the CI smoke test")
    parser.add_argument("--only", choices=SECTIONS, action="append",
                        help="run only this section (repeatable); the results go to results-SECTION.json")
    args = parser.parse_args()
    only = args.only or list(SECTIONS)
    size = SIZES["quick" if args.quick else "full"]
    started = time.perf_counter()
    rows: list[Row] = []

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
    if "calculator" in only:
        import calculator
        import clock_command

        rows += calculator.run(games=size["calculator_games"])
        rows += clock_command.run(games=size["command_games"], rounds=size["command_rounds"])
    if "http" in only:
        rows += [Row(**r) for r in json.loads(section("http_load.py", str(size["http_seconds"]),
                                                      database="corr_bench_http"))]
    if "nightly" in only:
        rows += nightly_rows(size)
    print_table(rows)
    name = "results" + ("-quick" if args.quick else "") + ("" if args.only is None else "-" + "-".join(only))
    out = HERE / f"{name}.json"
    out.write_text(json.dumps({
        "date": date.today().isoformat(), "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.node()}: {os.cpu_count()} cores, {platform.python_implementation()}"
                   f" {platform.python_version()}, {platform.platform()}",
        "mode": "quick" if args.quick else "full", "seconds": round(time.perf_counter() - started, 1),
        "rows": [r.as_json() for r in rows]}, indent=2) + "\n")
    print(f"\nwritten {out.relative_to(ROOT)} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
