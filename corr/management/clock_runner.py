"""Running ``manage.py clock`` over large batches: streaming, on every core.

The calculator is pure and each game independent, so a federation's batch is
split into chunks computed by forked worker processes; each worker returns its
games already encoded as JSON. The result is byte for byte the one a single
process gives (the tests compare them). Cyclic garbage collection is paused
while a batch runs: the calculator's values hold no cycles, so collecting
finds nothing and, on a million events, costs about half the run.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from contextlib import contextmanager
from datetime import date
from functools import partial

import orjson

from corr.clock import ClockError, GameClock
from corr.clock.batch import compute_file, render_files

# Below this many games one process is faster than starting workers.
PARALLEL_MIN_GAMES = 2000
CHUNK_GAMES = 500

_batch: list = []  # the games, inherited by forked workers instead of pickled to them


def _encode(clock: GameClock) -> bytes:
    return orjson.dumps(clock.as_json())


def _work(bounds: tuple[int, int], as_of: date | None, today: date) -> tuple[bool, object]:
    lo, hi = bounds
    try:
        return True, render_files(_batch[lo:hi], as_of=as_of, today=today, first_index=lo, render=_encode)
    except ClockError as error:
        return False, (str(error), error.field)


@contextmanager
def no_cyclic_gc():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def workers_available() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def clocks_json(data, *, as_of: date | None, today: date, workers: int | None = None) -> bytes:
    """The ``--json`` output for one game object or a list of them.

    :raises ClockError: for the first bad game (lowest index), as a single run would.
    """
    global _batch
    with no_cyclic_gc():
        if not isinstance(data, list):
            return orjson.dumps(compute_file(data, as_of=as_of, today=today).as_json(),
                                option=orjson.OPT_INDENT_2)
        workers = workers or workers_available()
        chunks = [(lo, min(lo + CHUNK_GAMES, len(data))) for lo in range(0, len(data), CHUNK_GAMES)]
        work = partial(_work, as_of=as_of, today=today)
        _batch = data
        try:
            if workers > 1 and len(data) >= PARALLEL_MIN_GAMES and "fork" in multiprocessing.get_all_start_methods():
                with multiprocessing.get_context("fork").Pool(workers) as pool:
                    results = pool.map(work, chunks, chunksize=1)
            else:
                results = [work(bounds) for bounds in chunks]
        finally:
            _batch = []
        parts: list[bytes] = []
        for ok, value in results:
            if not ok:
                message, field = value
                raise ClockError(message, field=field)
            parts.extend(value)
        return b"[" + b",".join(parts) + b"]"
