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
import statistics
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
              "nightly_games": 20_000, "nightly_large": 80_000, "nightly_near": 200,
              "live_burst": 50, "live_staggered": 10, "press_length_rounds": 1,
              "redis_down": ("10", "20", "3")},
    "full": {"calculator_games": 10_000, "command_games": 10_000, "command_rounds": 3, "http_seconds": 40,
             "nightly_games": 500_000, "nightly_large": 2_000_000, "nightly_near": 10_000,
             "live_burst": 300, "live_staggered": 40, "press_length_rounds": 5,
             "redis_down": ("40", "100", "7")},
}
NIGHTLY_DATABASE = os.environ.get("BENCH_NIGHTLY_DATABASE", "corr_bench_nightly")
"""The nightly section's PostgreSQL database, dropped and created for each measurement."""
SECTIONS = ("calculator", "http", "nightly", "live")


def nightly_date() -> str:
    """Today (UTC): the job warns only on its tournaments' today; an earlier date is a catch-up run."""
    return datetime.now(timezone.utc).date().isoformat()


def section(script: str, *args: str, database: str, settings: str = "corr.settings") -> str:
    recreate_database(database, settings)
    env = service_env({"DATABASE_URL": database_url(database), "DJANGO_SETTINGS_MODULE": settings})
    done = subprocess.run([PY, str(HERE / script), *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{script} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


def rounds_text(run: dict) -> str:
    """Each alternating round of a nightly run as ``floor/job`` seconds, in order."""
    return ", ".join(f"{floor:.2f}/{job:.2f}" for floor, job in zip(run["floor_runs"], run["job_runs"], strict=True))


def nightly_rows(size: dict, scale_out: bool = True) -> list[Row]:
    """The nightly job on ``nightly_games`` and on ``nightly_large`` games (issue 42: 500,000 and 2,000,000), the
    same ``nightly_near`` due in both: its time follows the games due, not the games."""
    games, large, near, on = size["nightly_games"], size["nightly_large"], size["nightly_near"], nightly_date()
    one = json.loads(section("nightly_load.py", "--games", str(games), "--near", str(near), "--date", on,
                             *(["--scale-out"] if scale_out else []), database=NIGHTLY_DATABASE))
    two = json.loads(section("nightly_load.py", "--games", str(large), "--near", str(near), "--date", on,
                             database=NIGHTLY_DATABASE))
    ratio = one["ratio_median"]
    growth = two["job_seconds"] / one["job_seconds"] - 1
    rows = [
        Row(name=f"data generator: {games:,} running games of ~{one['events_per_game']} events"
                 f" ({near:,} near a deadline)",
            figure=round(one["load_seconds"], 1), floor=None, unit="s", ratio=None, target="minutes", met=None,
            note=f"{large:,} games: {two['load_seconds']:.1f} s (COPY, events by INSERT ... SELECT)"),
        Row(name=f"nightly job: {games:,} games, {one['selected_players']:,} players selected",
            figure=round(one["job_seconds"], 3), floor=round(one["floor_seconds"], 3), unit="s",
            ratio=round(ratio, 2), target="<= 2x the same-writes floor in every round",
            met=one["ratio_max"] <= 2,
            note=f"created {one['totals']}; floor: the same writes in bare set-based SQL, no re-check"
                 f" ({one['floor_written']}); medians of {len(one['job_runs'])} alternating rounds (floor, job),"
                 f" ratio of each job run over the floor run before it: median {ratio:.2f}"
                 f" (min {one['ratio_min']:.2f}, max {one['ratio_max']:.2f}); the job's first run (catalogues"
                 f" loaded; a round of each before the counted ones) {one['job_first_seconds']:.3f} s;"
                 f" rounds (floor/job s): {rounds_text(one)}"),
        Row(name=f"nightly job: {large:,} games, same {near:,} near", figure=round(two["job_seconds"], 3),
            floor=round(one["job_seconds"], 3), unit="s", ratio=round(1 + growth, 2),
            target=f"{large // games}x the games changes the time by < 20%, <= 2x its floor in every round",
            met=abs(growth) < 0.2 and two["ratio_max"] <= 2,
            note=f"floor {two['floor_seconds']:.3f} s at {large:,} games, job/floor median {two['ratio_median']:.2f}"
                 f" (min {two['ratio_min']:.2f}, max {two['ratio_max']:.2f});"
                 f" rounds (floor/job s): {rounds_text(two)}"),
    ]
    if not scale_out:
        return rows
    c1, c2 = one["celery_seconds"]["1"], one["celery_seconds"]["2"]
    return rows + [
        Row(name=f"nightly job through Celery: 2 worker processes vs 1 ({games:,} games)", figure=round(c2, 3),
            floor=round(c1, 3), unit="s", ratio=round(c1 / c2, 2), target="(speed-up, reported)", met=None,
            note=f"chunks of {one['chunk']} games; 1 process {c1:.2f} s, 2 processes {c2:.2f} s"),
    ]


def live_rows(size: dict) -> list[Row]:
    live = json.loads(section("live_flags.py", "--games", str(size["live_burst"]), "--staggered",
                              str(size["live_staggered"]),
                              database=os.environ.get("BENCH_LIVE_FLAGS_DATABASE", "corr_bench_live")))
    scheduled, floor, sweep, burst = live["scheduled_ms"], live["floor_ms"], live["sweep_ms"], live["burst"]
    loaded = live["loaded_ms"]
    sweep_ms = live["sweep_seconds"] * 1000
    noop_ratio = burst["noop_tasks_per_second"] / burst["flags_per_second"]
    games, moves, rounds = size["redis_down"]
    down = json.loads(section("live_redis_down.py", "--games", games, "--moves", moves, "--rounds", rounds,
                              database=os.environ.get("BENCH_REDIS_DOWN_DATABASE", "corr_bench_redis_down")))
    length = json.loads(section("live_press_length.py", "--rounds", str(size["press_length_rounds"]),
                                database=os.environ.get("BENCH_LIVE_PRESS_DATABASE", "corr_bench_live_press")))
    ups = [r["p50_ms"] for r in down["rounds"] if r["redis"] == "up"]
    downs = [r["p50_ms"] for r in down["rounds"] if r["redis"] == "down"]
    return [
        Row(name="live press over HTTP at presses 561-600 vs 41-80 (p50, gunicorn, 1 client)",
            figure=statistics.median(length["long_p50_ms"]), floor=statistics.median(length["short_p50_ms"]),
            unit="ms (p50)", ratio=length["ratio_median"], target=f"<= {length['target']}x at every round",
            met=length["ratio_max"] <= length["target"],
            note=f"ratio median {length['ratio_median']} (min {length['ratio_min']}, max {length['ratio_max']}) over"
                 f" {length['rounds']} alternating rounds, two fresh games a round; p99 {length['long_p99_ms']} vs"
                 f" {length['short_p99_ms']} ms (issue 42: a press reads the snapshot and the events after it)"),
        Row(name=f"live move answered with Redis stopped vs up (p50, daphne, {down['games']} games, 1 client)",
            figure=round(statistics.median(downs), 1), floor=round(statistics.median(ups), 1), unit="ms (p50)",
            ratio=down["ratio_median"], target="<= 1.5x the p50 with Redis up", met=down["ratio_max"] <= 1.5,
            note=f"ratio median {down['ratio_median']} (min {down['ratio_min']}, max {down['ratio_max']}) over"
                 f" {len(downs)} down rounds of {down['moves_per_round']} moves, each against the up rounds beside"
                 f" it; one client waiting on each answer (not saturated)"),
        Row(name=f"live flag recorded after its instant, scheduled check ({scheduled['n']} flags, no client)",
            figure=scheduled["p95"], floor=floor["p95"], unit="ms (p95)",
            ratio=round(scheduled["p95"] / max(floor["p95"], 1), 1), target="<= 100 ms",
            met=scheduled["p95"] <= 100,
            note=f"median {scheduled['median']} ms, max {scheduled['max']} ms; floor: a no-op eta task on the same"
                 f" worker (median {floor['median']} ms)"),
        Row(name=f"live flag recorded after its instant, games of {loaded['events_min']}+ events while"
                 f" {loaded['traffic_presses_per_s']} presses/s arrive ({loaded['n']} flags)",
            figure=loaded["p95"], floor=floor["p95"], unit="ms (p95)",
            ratio=round(loaded["p95"] / max(floor["p95"], 1), 1),
            target="<= 100 ms", met=loaded["p95"] <= 100,
            note=f"median {loaded['median']} ms, max {loaded['max']} ms; the timers of the process that takes the"
                 " moves, as in a web server (issue 27)"),
        Row(name=f"live flag recorded after its instant, scheduled check lost: the sweep ({sweep['n']} flags)",
            figure=sweep["max"], floor=sweep_ms, unit="ms (max)", ratio=round(sweep["max"] / sweep_ms, 2),
            target=f"<= the sweep interval ({live['sweep_seconds']} s)", met=sweep["max"] <= sweep_ms,
            note=f"median {sweep['median']} ms"),
        Row(name=f"live flags one worker process records, a burst of {burst['games']} at one instant",
            figure=round(burst["flags_per_second"]), floor=round(burst["noop_tasks_per_second"]), unit="flags/s",
            ratio=round(noop_ratio, 1), target="(reported)", met=None,
            note=(f"floor: no-op eta tasks on the same worker; {burst['within_100ms']} of the burst within 100 ms."
                  " Measured on games with no move and an idle worker; long games under load have a row of their"
                  " own, games under a socket load bench/live_load.py's (make bench-live)")),
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
    parser.add_argument("--nightly-only", type=int, metavar="GAMES",
                        help="only the nightly rows, on GAMES games (1%% near) and on --nightly-large, printed,"
                             " not written")
    parser.add_argument("--nightly-large", type=int, metavar="GAMES",
                        help="with --nightly-only: the larger run's games, the same near (default 4x GAMES)")
    parser.add_argument("--only", choices=SECTIONS, action="append",
                        help="run only this section (repeatable); the results go to results-SECTION.json")
    args = parser.parse_args()
    only = args.only or list(SECTIONS)
    size = SIZES["quick" if args.quick else "full"]
    started = time.perf_counter()
    rows: list[Row] = []
    if args.nightly_only:
        print_table(nightly_rows({"nightly_games": args.nightly_only,
                                  "nightly_large": args.nightly_large or 4 * args.nightly_only,
                                  "nightly_near": args.nightly_only // 100}, scale_out=False))
        return 0

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
    if "calculator" in only:
        import calculator
        import clock_command

        rows += calculator.run(games=size["calculator_games"])
        rows += clock_command.run(games=size["command_games"], rounds=size["command_rounds"])
    if "http" in only:
        # The HTTP bench's server runs bench.settings: corr plus the floor's table and endpoint (bench/floorapp).
        rows += [Row(**r) for r in json.loads(section(
            "http_load.py", str(size["http_seconds"]),
            database=os.environ.get("BENCH_HTTP_DATABASE", "corr_bench_http"), settings="bench.settings"))]
    if "nightly" in only:
        rows += nightly_rows(size)
    if "live" in only:
        rows += live_rows(size)
    print_table(rows)
    name = "results" + ("-quick" if args.quick else "") + ("" if args.only is None else "-" + "-".join(only))
    out = HERE / f"{name}.json"
    kept = kept_results(json.loads(out.read_text()) if out.exists() else {})
    out.write_text(json.dumps({
        "date": date.today().isoformat(), "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.node()}: {os.cpu_count()} cores, {platform.python_implementation()}"
                   f" {platform.python_version()}, {platform.platform()}",
        "mode": "quick" if args.quick else "full", "seconds": round(time.perf_counter() - started, 1),
        "rows": [r.as_json() for r in rows], **kept}, indent=2) + "\n")
    print(f"\nwritten {out.relative_to(ROOT)} in {time.perf_counter() - started:.0f} s")
    return 0


RUN_KEYS = ("date", "at", "machine", "mode", "seconds", "rows")
"""The keys of a results file that a run of this script writes anew."""


def kept_results(previous: dict) -> dict:
    """What a run keeps of the results file it rewrites: every key but its own (``RUN_KEYS``).

    The live benches' results (``live_*``: bench/live_load.py, bench/live_engine.py) and the dated measurements
    that docs/benchmarks.md quotes (``issue42_*`` and the like) share the file and are kept as they are.
    """
    return {key: value for key, value in previous.items() if key not in RUN_KEYS}


if __name__ == "__main__":
    sys.exit(main())
