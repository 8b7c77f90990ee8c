"""A game's start from the servers' tags (``UTCDate``/``UTCTime``, chess.com's ``StartTime``) and chess.com's
daily clocks (``[%clk]``) read by ``manage.py clock FILE.pgn`` (issue 37)."""

from __future__ import annotations

import io
import json
import re
import subprocess
from datetime import timedelta
from pathlib import Path

import chess.pgn
import pytest

from corr.clock.presets import preset_ruleset
from corr.formats.pgn_stamps import PgnStampError, games_from_pgn

from .test_clock_pgn import PGN_EXTRACT, clock, needs_pgn_extract, pgn, shuffle

DAILY = Path(__file__).parent / "data" / "chesscom_daily.pgn"
"""A chess.com daily game as its export writes it: 3 days a move, started at 15:02:11 UTC, black on move 9."""
CHESSCOM_3 = preset_ruleset("chesscom_days_3", None)
THREE_DAYS = 3 * 86400


def run_json(path, *args) -> dict:
    done = clock(path, "--preset", "chesscom_days_3", "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def duration(note: str) -> timedelta:
    """The exact duration a ledger note says: ``2 d 19 h 49 min 55 s: counted exactly`` (a zero part left out)."""
    said = note.split(": ")[-2]  # a pending move's note opens with "move 9 running since ...: "
    units = {"d": "days", "h": "hours", "min": "minutes", "s": "seconds"}
    return timedelta(**{units[unit]: int(n) for n, unit in re.findall(r"(\d+) (d|h|min|s)\b", said)})


def test_a_chesscom_daily_game_starts_at_its_utc_time_and_flags_nobody_at_move_1():
    out = run_json(DAILY, "--as-of", "2026-03-16T04:25:07Z")
    # Started 2026-03-02 15:02:11 UTC; white's e4 with 4:10:05 left of 72 h: 67:49:55 of thinking, sent
    # 2026-03-05 10:52:06. Counted from 00:00 of the Date tag it would be 82:52:06, over 3 days: a false flag.
    assert out["players"]["white"]["start"] == "2026-03-02T15:02:11Z"
    first = out["ledger"][0]
    assert (first["player"], first["move"]) == ("white", 1)
    assert duration(first["note"]) == timedelta(hours=67, minutes=49, seconds=55)
    assert out["players"]["white"]["overstepped"] is None and out["players"]["black"]["overstepped"] is None


def test_every_move_costs_what_chesscom_s_clock_says_and_the_time_left_is_the_servers():
    game = chess.pgn.read_game(io.StringIO(DAILY.read_text()))
    clocks = [node.clock() for node in game.mainline()]  # python-chess's own reading of [%clk]
    out = run_json(DAILY, "--as-of", "2026-03-16T04:25:07Z")
    moves = [line for line in out["ledger"] if line["kind"] == "move"]
    assert len(moves) == len(clocks) == 17
    assert [duration(line["note"]).total_seconds() for line in moves] == [THREE_DAYS - c for c in clocks]
    # White's h3 was sent 2026-03-15 18:25:07 (the start plus the 17 moves' thinking); 10 hours later black
    # has 62 of the 72 hours left, as chess.com's clock shows.
    black = out["players"]["black"]
    assert black["on_move"] and black["remaining_seconds"] == 62 * 3600
    assert black["flag_at"] == "2026-03-18T18:25:07Z"


@needs_pgn_extract
def test_the_daily_fixture_is_valid_pgn_for_pgn_extract():
    done = subprocess.run([PGN_EXTRACT, "-s", str(DAILY)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


STAMPED = shuffle(["[%ccsnt 2026.03.05,10:52:06]", "[%ccsnt 2026.03.05,11:49:26]"])
"""White's first move 67:49:55 after a 15:02:11 start, stamped: 82:52:06 after 00:00 of the Date."""


@pytest.mark.parametrize("tags", [
    '[UTCDate "2026.03.02"]\n[UTCTime "15:02:11"]',  # lichess, chess.com, corr's live exports
    '[UTCDate "2026.03.02"]\n[Timezone "UTC"]\n[StartTime "15:02:11"]',  # chess.com's StartTime alone
])
def test_the_start_tags_of_a_stamped_pgn_are_the_games_start(tmp_path, tags):
    path = tmp_path / "game.pgn"
    path.write_text(pgn(STAMPED, date="2026.03.02", extra=tags))
    out = run_json(path, "--as-of", "2026-03-05T12:00:00Z")
    assert out["players"]["white"]["start"] == "2026-03-02T15:02:11Z"
    assert out["players"]["white"]["overstepped"] is None


def test_without_start_tags_the_date_is_the_start_at_midnight(tmp_path):
    path = tmp_path / "game.pgn"
    path.write_text(pgn(STAMPED, date="2026.03.02"))
    out = run_json(path, "--as-of", "2026-03-05T12:00:00Z")
    assert out["players"]["white"]["start"] == "2026-03-02T00:00:00Z"
    assert out["players"]["white"]["overstepped"]["through_move"] == 1  # 82:52:06 > 72 h


def test_a_start_time_in_another_zone_is_not_read_with_utc_date():
    text = pgn(STAMPED, date="2026.03.02",
               extra='[UTCDate "2026.03.02"]\n[Timezone "Europe/Paris"]\n[StartTime "16:02:11"]')
    assert games_from_pgn(text, ruleset=CHESSCOM_3)[0]["official_start"] == "2026-03-02"


@pytest.mark.parametrize("text, message", [
    (pgn(STAMPED, extra='[UTCDate "2026.03.06"]\n[UTCTime "09:00:00"]'),
     "game 1 (A - B), move 1. (white): [%ccsnt 2026.03.05,10:52:06] is before the game's start"
     " (UTCDate/UTCTime 2026.03.06,09:00:00 UTC)"),
    (pgn(STAMPED, extra='[UTCDate "2026.03.02"]\n[UTCTime "25:00:00"]'),
     'game 1 (A - B): [UTCDate "2026.03.02"] [UTCTime "25:00:00"] is no instant (YYYY.MM.DD and HH:MM:SS,'
     " in UTC)"),
    (DAILY.read_text().replace("1/259200", "1/86400"),
     'game 1 (anna_k - boris1987): [TimeControl "1/86400"] is 1 day, 0:00:00 a move; the ruleset is not that'
     " many days per move (--preset chesscom_days_N)"),
    (DAILY.read_text().replace("4:10:05", "72:10:05"),
     "game 1 (anna_k - boris1987), ply 1: the clock after the move is more than the 3 days, 0:00:00 a move"),
])
def test_it_refuses_a_start_or_a_daily_clock_it_cannot_use(text, message):
    with pytest.raises(PgnStampError) as raised:
        games_from_pgn(text, ruleset=CHESSCOM_3)
    assert str(raised.value) == message
