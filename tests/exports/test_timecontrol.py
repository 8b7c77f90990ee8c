"""The time control fields of the exports: seconds as they are for a live control, days times 86400 otherwise."""

from __future__ import annotations

import chess.pgn
import pytest

from corr.clock.presets import PRESETS
from corr.clock.rules import Ruleset
from corr.exports.timecontrol import clock_text, main_time_seconds, pgn_time_control, sgf_overtime, time_control_text


def ruleset(data: dict) -> dict:
    """The ruleset's JSON as the exports read it (parsed and written back by the calculator)."""
    return Ruleset.from_mapping(data).as_dict()


def live(**tc) -> dict:
    return ruleset({"time_control": {"unit": "seconds", **tc}})


@pytest.mark.parametrize("data, expected, parts", [
    # FIDE 6.2, 90 min + 30 s a move: the standard's "seconds+increment" (9.6.1, fifth kind).
    (live(system="fischer", initial=5400, increment=30), "5400+30", [(0, 5400, 30)]),
    # FIDE classical: 40 moves in 90 min then 30 min, 30 s from move 1 in both periods.
    (PRESETS["fide_classical_live"], "40/5400+30:1800+30", [(40, 5400, 30), (0, 1800, 30)]),
    (PRESETS["draughts_live"], "40/7200:3600", [(40, 7200, 0), (0, 3600, 0)]),
    (live(system="sudden_death", time=300), "300", [(0, 300, 0)]),
    (live(system="per_move", time=30), "1/30", [(1, 30, 0)]),
    (live(system="fischer", initial=180, increment=0.5), "180+0.5", [(0, 180, 0.5)]),
    # Days: 86400 seconds each, as before.
    ({}, "10/2592000", [(10, 2592000, 0)]),
    (PRESETS["iccf_fischer_30_3"], "2592000+259200", [(0, 2592000, 259200)]),
    (PRESETS["fide_classical_days"], "40/7776000+86400:2592000+86400", [(40, 7776000, 86400), (0, 2592000, 86400)]),
])
def test_pgn_time_control_counts_seconds_and_python_chess_reads_it_back(data, expected, parts):
    text = pgn_time_control(ruleset(data))
    assert text == expected
    read = chess.pgn.parse_time_control(text)
    assert [(p.moves, p.time, p.increment) for p in read.parts] == parts


def test_no_pgn_form_is_a_question_mark():
    assert pgn_time_control(ruleset(PRESETS["go_byoyomi_live"])) == "?"
    assert pgn_time_control(live(system="delay", main=300, delay=5)) == "?"


@pytest.mark.parametrize("data, tm, ot", [
    (PRESETS["go_byoyomi_live"], 3600, "5x30 byo-yomi"),
    (PRESETS["go_canadian_live"], 3600, "15/300 Canadian"),
    (live(system="byoyomi", main=0.5, periods=3, period_time=10.25), 0.5, "3x10.25 byo-yomi"),
    (PRESETS["dgs_byoyomi"], 30 * 86400, "30 days + 5 x 1 day byo-yomi"),
    # A main time in moves (Go 12.2): the first stage's time, not the list.
    (PRESETS["go_main_moves_canadian"], 60 * 86400, "40 moves in 60 days + 15 moves in 20 days (Canadian)"),
])
def test_sgf_main_time_in_seconds_and_overtime(data, tm, ot):
    data = ruleset(data)
    assert main_time_seconds(data) == tm
    assert sgf_overtime(data) == ot


def test_the_text_of_a_live_control_says_durations():
    assert time_control_text(ruleset(PRESETS["fide_classical_live"])) == (
        "40 moves in 1 h 30 min + 30 s per move, then the rest of the game in 30 min + 30 s per move, cumulative")
    assert time_control_text(live(system="fischer", initial=5400, increment=30)) == (
        "Fischer: 1 h 30 min + 30 s per move")
    assert time_control_text(live(system="sudden_death", time=30)) == "sudden death: 30 s for the game"
    assert "day" not in time_control_text(ruleset(PRESETS["go_canadian_live"]))


@pytest.mark.parametrize("ms, text", [(5_397_000, "1:29:57"), (4_250, "0:00:04.25"), (0, "0:00:00"),
                                      (36_000_001, "10:00:00.001"), (-5, "0:00:00")])
def test_clock_text_is_what_python_chess_reads_as_the_same_seconds(ms, text):
    assert clock_text(ms) == text
    node = chess.pgn.Game().add_variation(chess.Move.from_uci("e2e4"), comment=f"[%clk {text}]")
    assert node.clock() == max(ms, 0) / 1000
