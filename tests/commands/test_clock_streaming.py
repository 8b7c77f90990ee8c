"""``manage.py clock`` reads and writes a few megabytes at a time, and a dead worker fails the run."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from datetime import date
from pathlib import Path

import pytest

from corr.management import clock_input
from corr.management.clock_runner import CommandFailed, clocks_json, run

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from gamegen import generate_game, generate_mixed_game  # noqa: E402

TODAY = date(2026, 11, 29)


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 2 KiB: a list of a few games is cut into many pieces, some games longer than a block."""
    monkeypatch.setattr(clock_input, "BLOCK_BYTES", 2048)
    monkeypatch.setattr(clock_input, "_TAIL_BYTES", 512)


def games(n: int, seed: int = 3) -> list[dict]:
    rng = random.Random(seed)
    return [generate_mixed_game(rng, events=30) for _ in range(n)]


def run_bytes(data: bytes, **options) -> bytes:
    out = io.BytesIO()
    run({"file": "-", "json": True, **options}, today=TODAY, stdin=io.BytesIO(data), stdout=out)
    return out.getvalue()


def test_a_list_read_in_pieces_gives_the_whole_read_result(small_blocks):
    batch = games(40)
    expected = clocks_json(batch, as_of=None, today=TODAY) + b"\n"
    assert run_bytes(json.dumps(batch, indent=1).encode()) == expected
    assert run_bytes(json.dumps(batch).encode()) == expected


def test_brackets_inside_strings_do_not_mislead_the_cuts(small_blocks):
    batch = games(12)
    for game in batch:  # an informational notation with brackets, unbalanced: the count is off from here on
        next(e for e in game["events"] if e["type"] == "move")["notation"] = "{[ e4"
    assert run_bytes(json.dumps(batch).encode()) == clocks_json(batch, as_of=None, today=TODAY) + b"\n"


def test_json_lines_give_the_list_result(small_blocks):
    batch = games(15)
    lines = b"\n".join(json.dumps(g).encode() for g in batch) + b"\n\n"
    assert run_bytes(lines, jsonl=True) == clocks_json(batch, as_of=None, today=TODAY) + b"\n"


def test_broken_json_after_a_bad_game_is_reported_as_broken_json(small_blocks):
    batch = games(20)
    batch[2]["official_start"] = "bad"
    text = json.dumps(batch).encode()[:-40]  # cut short: not JSON
    with pytest.raises(CommandFailed) as caught:
        run_bytes(text)
    assert str(caught.value).startswith("- is not valid JSON: ")
    whole = io.BytesIO()
    with pytest.raises(CommandFailed) as bad_game:
        run({"file": "-", "json": True}, today=TODAY, stdin=io.BytesIO(json.dumps(batch).encode()), stdout=whole)
    assert str(bad_game.value).startswith("game 2, official_start must be a date")
    assert whole.getvalue() == b""


def test_a_failed_run_leaves_a_regular_file_as_it_was(tmp_path):
    batch = games(30)
    batch[25]["events"][3]["number"] = 99
    path = tmp_path / "out.json"
    path.write_bytes(b"kept\n")
    source = tmp_path / "in.json"
    source.write_text(json.dumps(batch))
    with open(path, "ab") as out, pytest.raises(CommandFailed):
        run({"file": str(source), "json": True}, today=TODAY, stdin=io.BytesIO(), stdout=out)
    assert path.read_bytes() == b"kept\n"


def test_the_plain_module_gives_what_django_gives(tmp_path):
    batch = games(5)
    source = tmp_path / "in.json"
    source.write_text(json.dumps(batch))
    env = dict(os.environ, DEBUG="1")
    plain = subprocess.run([sys.executable, "-m", "corr.management.clock_runner", str(source), "--json"], cwd=ROOT,
                           capture_output=True, env=env, check=True).stdout
    django = subprocess.run([sys.executable, "manage.py", "clock", str(source), "--json", "-v", "1"], cwd=ROOT,
                            capture_output=True, env=env, check=True).stdout
    assert plain == django
    assert json.loads(plain)[0]["as_of"] == batch[0]["as_of"]


def test_a_killed_worker_fails_the_run_with_one_line_and_no_output(tmp_path):
    rng = random.Random(5)
    source = tmp_path / "in.json"
    source.write_text(json.dumps([generate_game(rng, 120) for _ in range(6000)]))
    command = subprocess.Popen([sys.executable, "manage.py", "clock", str(source), "--json", "--workers", "2"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=dict(os.environ, DEBUG="1"))
    children = Path(f"/proc/{command.pid}/task/{command.pid}/children")
    deadline = time.monotonic() + 60
    workers: list[str] = []
    while not workers and time.monotonic() < deadline and command.poll() is None:
        workers = children.read_text().split() if children.exists() else []
        time.sleep(0.05)
    assert workers, "the command started no worker"
    os.kill(int(workers[0]), signal.SIGKILL)
    stdout, stderr = command.communicate(timeout=120)  # a hang fails here
    assert command.returncode == 3
    assert stdout == b""
    lines = stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "a worker process died" in lines[0]


def test_a_worker_dead_without_the_pool_noticing_is_caught_by_the_watch():
    """A worker killed while sending its result leaves the executor waiting on the rest of the message; the
    runner's own watch (each worker's exit status, every half second) still ends the wait with the error."""
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from corr.management.clock_runner import _abandon, _outcome

    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
    try:
        assert pool.submit(int, "7").result(timeout=30) == 7  # the workers are up
        victim = next(iter(pool._processes.values()))
        os.kill(victim.pid, signal.SIGKILL)
        never = Future()  # a result that will never come, whatever the executor notices
        raised: list = []

        def wait():
            try:
                _outcome(pool, never)
            except BrokenProcessPool as error:
                raised.append(error)

        waiter = threading.Thread(target=wait, daemon=True)  # a broken watch hangs: the join's timeout tells
        waiter.start()
        waiter.join(timeout=10)
        assert raised, "the wait did not end when a worker died"
    finally:
        _abandon(pool)
