"""``manage.py clock FILE --with EVENTS.json`` (issue 41): the differences hypothetical events would make, in the
words the API's preview gives, and the clock as it would be with ``--json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from corr.clock.batch import compute_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "clock" / "example_game.json"
# Black's move 3, received 02-10, is pending on 03-01 with 3 days left (a delay of 4 already charged); the
# events (docs/calculator.md's): a penalty of 5 days and a delay of 20 on it.
EVENTS = ROOT / "tests" / "clock" / "example_events.json"
PENALTY_AND_DELAY = json.loads(EVENTS.read_text())


def clock(*args):
    return subprocess.run([sys.executable, "-W", "ignore", str(ROOT / "manage.py"), "clock", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.fixture
def events():
    return EVENTS


def test_it_prints_what_the_events_would_change(events):
    run = clock(str(EXAMPLE), "--with", str(events))
    assert run.returncode == 0, run.stderr
    # 3 days left; a penalty of 5 and a delay of 20 more: 22 over the 30 days (52 used).
    assert run.stdout.splitlines() == [
        "an overstep case would open: black, control 1, 52 of 30 days (Correspondence rules 50.4.3)",
        "black: 22 days over the control instead of 3 days left",
        "black: no deadline (now 2026-03-04)"]


def test_with_json_it_prints_the_clock_with_the_events_and_the_changes(events):
    run = clock(str(EXAMPLE), "--with", str(events), "--json")
    assert run.returncode == 0, run.stderr
    game = json.loads(EXAMPLE.read_text())
    with_events = game | {"events": game["events"] + PENALTY_AND_DELAY}
    assert json.loads(run.stdout)["clock"] == json.loads(json.dumps(
        compute_file(with_events, as_of=None, today=None).as_json()))
    assert len(json.loads(run.stdout)["changes"]) == 3


def test_a_bad_event_fails_with_one_line_naming_it_and_prints_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"type": "move"}]')
    run = clock(str(EXAMPLE), "--with", str(bad))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.strip().splitlines()[-1] == "CommandError: event 10 (move): player must be a player id, got None"
