"""``manage.py clock`` explains a live game file (issue 16): its ledger in ms and both clocks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from corr.clock.live import live_clock
from corr.clock.live.gamefile import read_live_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "clock" / "example_live_game.json"


def clock(*args, stdin=None):
    env = dict(os.environ, DEBUG="1")
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), "clock", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_the_json_of_a_live_game_is_the_live_clock_of_its_events():
    done = clock(str(EXAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    ruleset, events, now = read_live_game(json.loads(EXAMPLE.read_text()))
    expected = live_clock(ruleset, events, now)
    assert result["players"]["white"]["remaining_ms"] == expected.players["white"].remaining_ms
    # White: 60 - (5.25 - 0.04 of lag) + 2 = 56.79 s after move 1; paused 16-20 s; at 10:01:00 it has run
    # 1 + 40 s more: 56.79 - 41 = 15.79 s.
    assert result["players"]["white"]["remaining_ms"] == 15_790
    assert result["now"] == "2026-11-30T10:01:00Z"
    moves = [line for line in result["ledger"] if line["kind"] == "move"]
    assert [m["charged_ms"] for m in moves] == [5210, 9750]


def test_now_on_the_command_line_overrides_the_file_and_the_table_explains_each_event():
    done = clock(str(EXAMPLE), "--now", "2026-11-30T10:01:30Z")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("live game at 2026-11-30T10:01:30Z: white's clock running")
    assert any("lag 40 ms, 40 forgiven" in line for line in lines)
    # 15.79 s were left at 10:01:00: the flag fell at 10:01:15.790.
    assert any(line.startswith("2026-11-30T10:01:15.790Z  flag") for line in lines)


def test_a_bad_live_file_fails_with_one_line_naming_the_event():
    data = json.loads(EXAMPLE.read_text())
    data["events"][2]["player"] = "white"  # white moves twice
    done = clock("-", stdin=json.dumps(data))
    assert done.returncode == 2 and done.stdout == ""
    assert "event 2 (move): white moved but black is to move" in done.stderr


def test_an_instant_without_a_time_zone_is_refused():
    done = clock(str(EXAMPLE), "--now", "2026-11-30T10:01:30")
    assert done.returncode == 2 and "--now needs a time zone" in done.stderr


def test_a_file_mixing_live_and_correspondence_games_is_refused():
    live = json.loads(EXAMPLE.read_text())
    postal = json.loads((ROOT / "tests" / "clock" / "example_game.json").read_text())
    done = clock("-", stdin=json.dumps([live, postal]))
    assert done.returncode == 2 and "mixes live games" in done.stderr


def test_a_live_game_after_correspondence_games_is_refused_too():
    # The list is streamed: the correspondence games before it are computed, then the live one refused.
    live = json.loads(EXAMPLE.read_text())
    postal = json.loads((ROOT / "tests" / "clock" / "example_game.json").read_text())
    for json_flag in ((), ("--json",)):
        done = clock("-", *json_flag, stdin=json.dumps([postal, postal, live]))
        assert done.returncode == 2 and done.stdout == ""
        assert "mixes live games" in done.stderr
