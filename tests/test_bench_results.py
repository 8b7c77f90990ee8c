"""``make bench`` rewrites bench/results.json and keeps what other benches and earlier sessions recorded there."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_run():
    """bench/run.py as a module, the import path and modules it adds (bench/ first: ``common``...) taken back."""
    path, modules = list(sys.path), set(sys.modules)
    try:
        spec = importlib.util.spec_from_file_location("bench_run_under_test", BENCH / "run.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path[:] = path
        for name in set(sys.modules) - modules:
            del sys.modules[name]


def test_a_run_keeps_every_key_it_does_not_write_itself():
    previous = json.loads((BENCH / "results.json").read_text())
    kept = bench_run().kept_results(previous)
    own = {"date", "at", "machine", "mode", "seconds", "rows"}
    assert set(kept) == set(previous) - own
    assert any(key.startswith("issue42_") for key in kept) and "live_load" in kept, sorted(kept)
    assert all(kept[key] == previous[key] for key in kept)
