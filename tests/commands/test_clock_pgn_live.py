"""corr's commands of a live game's clock (issue 37, :mod:`corr.formats.live_stamps`): every event written and read
back as the live game file has it, the refusals naming the game and the command, and ``manage.py clock`` on a
live PGN with and without a live preset. Pure: no database."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from corr.clock.live import LiveAdjust, LiveExcuse, LiveGap, LiveIllegal, LiveMove, LivePause, LiveResume, LiveStart
from corr.clock.live.gamefile import write_live_event
from corr.clock.presets import preset_ruleset
from corr.formats.live_files import live_games
from corr.formats.live_stamps import LiveStampError, live_command, live_game_file, now_command

from .test_clock_pgn import PGN_EXTRACT, ROOT, clock, needs_pgn_extract

T0 = 1_772_366_400_000  # 2026-03-01T12:00:00Z in ms
EVENTS = [
    LiveStart(T0), LiveMove("white", 1, T0 + 10_000), LiveMove("black", 1, T0 + 14_500, lag_ms=250),
    LivePause(T0 + 74_500), LiveResume(T0 + 674_500), LiveAdjust("black", 60_000, T0 + 674_500),
    LiveAdjust("white", -30_250, T0 + 674_500), LiveIllegal("white", T0 + 700_000),
    LiveGap(T0 + 710_000, T0 + 720_000), LiveExcuse("black", T0 + 730_000), LivePause(T0 + 740_000, "black"),
    LiveResume(T0 + 750_000), LiveMove("white", 2, T0 + 760_001, ends_game=True),
]


def test_every_event_written_as_a_command_reads_back_as_the_live_game_file_has_it():
    comments = [" ".join(live_command(e) for e in EVENTS[:3]), "words between; " + live_command(EVENTS[3]),
                " ".join(live_command(e) for e in EVENTS[4:]), now_command(T0 + 761_000)]
    data = live_game_file(comments, ruleset={"x": 1}, label="game 1 (a - b)", meta={"white": "a"})
    assert data == {"ruleset": {"x": 1}, "now": "2026-03-01T12:12:41.000Z",
                    "events": [write_live_event(e) for e in EVENTS], "meta": {"white": "a"}}
    assert comments[0] == ("[%ccbegin 2026-03-01T12:00:00.000Z] [%ccpress white 1 2026-03-01T12:00:10.000Z]"
                           " [%ccpress black 1 2026-03-01T12:00:14.500Z] [%cclag 250]")
    assert live_command(EVENTS[6]) == "[%ccadjust white -30.25 2026-03-01T12:11:14.500Z]"
    assert live_command(EVENTS[10]) == "[%ccstop black 2026-03-01T12:12:20.000Z]"
    assert live_command(EVENTS[-1]) == "[%ccend white 2 2026-03-01T12:12:40.001Z]"


REFUSALS = {
    "a colour": ("[%ccbegin 2026-03-01T12:00:00.000Z] [%ccpress red 1 2026-03-01T12:00:10.000Z]",
                 "game 1 (a - b): [%ccpress red 1 2026-03-01T12:00:10.000Z] is not [%ccpress PLAYER NUMBER AT]"),
    "an instant": ("[%ccbegin 2026-03-01T12:00:00.000Z] [%ccpause 2026-03-01 12:00]",
                   "game 1 (a - b): [%ccpause 2026-03-01 12:00] is not [%ccpause AT]"),
    "a zone": ("[%ccbegin 2026-03-01T12:00:00]",
               "game 1 (a - b): [%ccbegin 2026-03-01T12:00:00]: '2026-03-01T12:00:00' is not an instant"
               " (2026-03-01T12:00:10.250Z)"),
    "seconds": ("[%ccbegin 2026-03-01T12:00:00.000Z] [%ccadjust black 60 2026-03-01T12:00:10.000Z]",
                "game 1 (a - b): [%ccadjust black 60 2026-03-01T12:00:10.000Z]: '60' is not signed seconds"
                " (+60, -30, +0.5)"),
    "a lag alone": ("[%ccbegin 2026-03-01T12:00:00.000Z] [%cclag 250]",
                    "game 1 (a - b): [%cclag 250] follows no press ([%ccpress] or [%ccend])"),
    "no start": ("[%ccpress white 1 2026-03-01T12:00:10.000Z]",
                 "game 1 (a - b): no [%ccbegin] command: a live game's file from corr says when its clocks started"
                 " (and every press, pause and adjustment after it)"),
}


@pytest.mark.parametrize(("comment", "message"), REFUSALS.values(), ids=REFUSALS.keys())
def test_a_command_that_cannot_be_read_is_refused_naming_game_and_command(comment, message):
    with pytest.raises(LiveStampError) as refused:
        live_game_file([comment], ruleset={}, label="game 1 (a - b)", meta={})
    assert str(refused.value) == message


LIVE_PGN = """[Event "Live cup"]
[White "anna"]
[Black "boris"]
[Result "*"]

{[%ccbegin 2026-03-01T12:00:00.000Z] clocks started}

1. e4 {[%clk 1:30:20] [%ccpress white 1 2026-03-01T12:00:10.000Z]} (1. d4 {[%ccpress white 1
2026-03-01T12:00:01.000Z]}) 1... e5 {[%clk 1:30:26.25] [%ccpress black 1 2026-03-01T12:00:14.000Z] [%cclag 250]}
{white 2 (no notation): [%ccpress white 2 2026-03-01T12:00:20.000Z]} ; [%ccpause 2026-03-01T12:00:21.000Z]
{[%ccnow 2026-03-01T12:00:30.000Z]} *
"""


def test_a_live_pgn_is_read_from_its_main_line_s_comments_across_an_empty_line():
    """pgn-extract's empty line after the first comment ends a game for python-chess, not here; a variation and a
    rest-of-line comment are no events; a move written in a comment (no notation) is."""
    (data,) = live_games(LIVE_PGN.encode(), LIVE_PGN, suffix="pgn", ruleset={"r": 1})
    assert [(e["type"], e.get("player"), e.get("at")) for e in data["events"]] == [
        ("start", None, "2026-03-01T12:00:00Z"), ("move", "white", "2026-03-01T12:00:10Z"),
        ("move", "black", "2026-03-01T12:00:14Z"), ("move", "white", "2026-03-01T12:00:20Z")]
    assert data["events"][2]["lag_ms"] == 250 and data["now"] == "2026-03-01T12:00:30.000Z"
    assert data["meta"]["white"] == "anna"


def test_the_command_computes_a_live_pgn_under_a_live_preset_at_its_now(tmp_path):
    path = tmp_path / "live.pgn"
    path.write_text(LIVE_PGN)
    done = clock(path, "--preset", "fide_classical_live", "--json")
    assert (done.returncode, done.stderr) == (0, "")
    result = json.loads(done.stdout)
    # White: 90 min - 10 s + 30 s, then - 6 s + 30 s; black: - 4 s + 0.25 s lag + 30 s, then 10 s running.
    assert result["now"] == "2026-03-01T12:00:30Z" and result["running"] == "black"
    assert (result["players"]["white"]["remaining_ms"], result["players"]["black"]["remaining_ms"]) == (
        5_400_000 + 20_000 + 24_000, 5_400_000 + 26_250 - 10_000)
    assert preset_ruleset("fide_classical_live", None)["time_control"]["unit"] == "seconds"


def test_a_live_pgn_under_a_correspondence_preset_is_refused_naming_the_live_presets(tmp_path):
    path = tmp_path / "live.pgn"
    path.write_text(LIVE_PGN)
    done = clock(path, "--preset", "iccf_10_50", "--json")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"CommandError: {path} is a live game's file ([%ccbegin], [%ccpress] ...): give a live"
                           " preset (--preset fide_classical_live, for instance), not iccf_10_50\n")


def test_reading_live_files_loads_no_django():
    done = subprocess.run([sys.executable, "-c", "import sys, corr.formats.live_files;"
                           "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


FIXTURE = ROOT / "tests" / "commands" / "data" / "corr_live.pgn"


def test_the_fixture_s_clk_after_each_press_is_the_clock_its_commands_compute():
    """docs/calculator.md's live example: the standard ``[%clk]`` python-chess reads after each move and the clock
    corr's commands give after that press are the same figures."""
    import chess.pgn

    text = FIXTURE.read_text()
    game = chess.pgn.read_game(io.StringIO(text))
    done = clock(FIXTURE, "--preset", "fide_classical_live", "--json")
    assert (done.returncode, done.stderr) == (0, "")
    presses = [line for line in json.loads(done.stdout)["ledger"] if line["kind"] == "move"]
    assert [n.clock() * 1000 for n in game.mainline()] == [line["remaining_ms"] for line in presses]


@needs_pgn_extract
def test_the_fixture_is_valid_pgn_for_pgn_extract():
    done = subprocess.run([PGN_EXTRACT, "-s", str(FIXTURE)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert "[%ccadjust black +60 2026-03-01T12:11:14.000Z]" in " ".join(done.stdout.split())  # rewrapped
