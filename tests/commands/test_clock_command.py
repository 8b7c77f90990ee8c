"""``manage.py clock``: the arbiter's command, run as a real process."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from corr.management.clock_runner import clocks_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "clock" / "example_game.json"
sys.path.insert(0, str(ROOT / "bench"))
from gamegen import generate_game  # noqa: E402


def clock(*args, stdin=None):
    env = dict(os.environ, DEBUG="1")
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), "clock", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_json_output_is_the_calculator_result_for_the_file():
    done = clock(str(EXAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["as_of"] == "2026-03-01"
    assert result["players"]["black"]["deadline"] == "2026-03-04"
    assert result["players"]["white"]["total_days"] == 9


def test_as_of_on_the_command_line_overrides_the_file():
    done = clock(str(EXAMPLE), "--json", "--as-of", "2026-03-02")
    black = json.loads(done.stdout)["players"]["black"]
    # One more running day: 2 left, deadline unchanged.
    assert (black["control"]["remaining_days"], black["deadline"]) == (2, "2026-03-04")


def test_it_reads_standard_input_and_prints_a_table():
    done = clock("-", stdin=EXAMPLE.read_text())
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "as of 2026-03-01"
    black = next(line for line in lines if line.startswith("black "))
    assert "2026-03-04" in black and "REGISTERED MAIL (50.4.12)" in black
    assert any("(50.4.7)" in line for line in lines)


def test_a_list_gives_a_list_in_the_same_order():
    data = json.loads(EXAMPLE.read_text())
    other = dict(data, as_of="2026-02-20")
    done = clock("-", "--json", stdin=json.dumps([data, other]))
    results = json.loads(done.stdout)
    assert [r["as_of"] for r in results] == ["2026-03-01", "2026-02-20"]


@pytest.mark.parametrize("stdin, message", [
    ("{not json", "- is not valid JSON"),
    ('{"official_start": "2026-01-10", "players": {"a": {}, "b": {}}, '
     '"events": [{"type": "move", "player": "c", "number": 1}]}', "event 0 (move): unknown player 'c'"),
    ('[{"official_start": "2026-01-10", "players": {"a": {}, "b": {}}}, {"official_start": "x"}]',
     "game 1, official_start must be a date written YYYY-MM-DD"),
    ('{"official_start": "2026-01-10", "players": {"a": {}, "b": {}}, "events": ['
     '{"type": "move", "player": "a", "number": 1, "sent_on": "2026-01-12"},'
     '{"type": "move", "player": "b", "number": 1, "received_on": "0001-01-01", "sent_on": "2026-01-14"}]}',
     "event 1 (move): received_on 0001-01-01 is before a sent what it answers on 2026-01-12 (event 0)"),
    ('{"official_start": "2026-01-10", "players": {"a": {}, "b": {}}, "events": ['
     '{"type": "move", "player": "a", "number": 1, "sent_on": "2026-01-12"},'
     '{"type": "notice", "player": "b", "move": 1, "reason": "illegible_move", "received_on": "2026-01-11",'
     ' "sent_on": "2026-01-14"}]}',
     "event 1 (notice): received_on 2026-01-11 is before a sent what it answers on 2026-01-12 (event 0)"),
])
def test_bad_input_prints_one_line_on_stderr_nothing_on_stdout_and_exits_2(stdin, message):
    done = clock("-", "--json", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def test_a_bad_as_of_option_is_rejected():
    done = clock(str(EXAMPLE), "--as-of", "tomorrow")
    assert done.returncode == 2 and done.stdout == ""
    assert "--as-of must be a date written YYYY-MM-DD" in done.stderr


def test_parallel_workers_give_byte_for_byte_the_single_process_result():
    rng = random.Random(7)
    games = [generate_game(rng, 12) for _ in range(2100)]
    today = date(2026, 11, 29)
    assert clocks_json(games, as_of=None, today=today, workers=2) == \
        clocks_json(games, as_of=None, today=today, workers=1)


def test_parallel_workers_report_the_first_bad_game():
    rng = random.Random(8)
    games = [generate_game(rng, 12) for _ in range(2100)]
    games[1700]["events"][3]["number"] = 99
    games[1900]["official_start"] = "bad"
    with pytest.raises(Exception) as caught:
        clocks_json(games, as_of=None, today=date(2026, 11, 29), workers=2)
    assert str(caught.value).startswith("game 1700, event 3 (move): number 99 is out of sequence")
