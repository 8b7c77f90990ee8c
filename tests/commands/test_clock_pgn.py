"""A server's PGN with ``[%ccsnt]`` stamps: read as game files, and ``manage.py clock FILE.pgn``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corr.clock.presets import preset_ruleset
from corr.formats.pgn_stamps import PgnStampError, games_from_pgn

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "commands" / "data" / "iccf_stamped.pgn"
ICCF = preset_ruleset("iccf_10_50", None)
# Debian installs pgn-extract in /usr/games, which a plain PATH may leave out.
PGN_EXTRACT = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")
# Skipped on a developer's machine without it; under CI (CI=true, set by .ci/run) the test runs and fails.
needs_pgn_extract = pytest.mark.skipif(PGN_EXTRACT is None and not os.environ.get("CI"),
                                       reason="pgn-extract is not installed (apt-get install pgn-extract; .ci/run"
                                              " installs it)")


def moves(*rows: tuple) -> list[dict]:
    """Move events from rows (player, number, received, sent): a None is a key left out; ``_at`` keys."""
    events = []
    for player, number, received, sent in rows:
        event = {"type": "move", "player": player, "number": number}
        if received is not None:
            event["received_at"] = received
        if sent is not None:
            event["sent_at"] = sent
        events.append(event)
    return events


def pgn(body: str, *, white: str = "A", black: str = "B", result: str = "*", date: str = "2019.04.10",
        extra: str = "") -> str:
    """One game's PGN: the seven tags (``date`` for Date) and ``body``, its moves and comments."""
    return (f'[Event "Test"]\n[Site "ICCF"]\n[Date "{date}"]\n[Round "-"]\n[White "{white}"]\n'
            f'[Black "{black}"]\n[Result "{result}"]\n{extra}\n{body} {result}\n\n')


def shuffle(stamps: list[str]) -> str:
    """Legal moves (knights out and back) with one comment each: ``stamps[i]`` after the i-th move."""
    san = ["Nf3", "Nf6", "Ng1", "Ng8"]
    parts = []
    for ply, stamp in enumerate(stamps):
        number = f"{ply // 2 + 1}. " if ply % 2 == 0 else ""
        comment = f" {{{stamp}}}" if stamp else ""
        parts.append(f"{number}{san[ply % 4]}{comment}")
    return " ".join(parts)


# --- the ICCF fixture: two games of one section, one drawn, one going on -------------------------------

FINISHED = {
    "ruleset": ICCF,
    "official_start": "2019-04-10",
    "players": {"white": {}, "black": {}},
    "meta": {"white": "Mäkinen, Eero", "black": "Rossi, Paolo", "event": "WS/O/1089 (ICCF)", "site": "ICCF",
             "round": "-", "result": "1/2-1/2"},
    # Each stamp is the move's sent instant and the partner's receipt; no pending move after 1/2-1/2.
    "events": moves(
        ("white", 1, None, "2019-04-11T19:29:00Z"),
        ("black", 1, "2019-04-11T19:29:00Z", "2019-04-12T08:00:00Z"),
        ("white", 2, "2019-04-12T08:00:00Z", "2019-04-12T21:15:00Z"),
        ("black", 2, "2019-04-12T21:15:00Z", "2019-04-14T10:02:00Z"),
        ("white", 3, "2019-04-14T10:02:00Z", "2019-04-15T06:47:00Z"),
        ("black", 3, "2019-04-15T06:47:00Z", "2019-04-18T17:30:00Z"),
        ("white", 4, "2019-04-18T17:30:00Z", "2019-04-19T07:55:00Z"),
        ("black", 4, "2019-04-19T07:55:00Z", "2019-04-23T12:41:00Z"),
        ("white", 5, "2019-04-23T12:41:00Z", "2019-04-24T20:03:00Z"),
        ("black", 5, "2019-04-24T20:03:00Z", "2019-04-30T09:18:00Z"),
        ("white", 6, "2019-04-30T09:18:00Z", "2019-05-02T18:36:00Z"),
        ("black", 6, "2019-05-02T18:36:00Z", "2019-05-03T07:12:00Z"),
        ("white", 7, "2019-05-03T07:12:00Z", "2019-05-03T19:50:00Z"),
        ("black", 7, "2019-05-03T19:50:00Z", "2019-05-09T11:27:00Z"),
        ("white", 8, "2019-05-09T11:27:00Z", "2019-05-10T05:44:00Z"),
        ("black", 8, "2019-05-10T05:44:00Z", "2019-05-10T13:09:00Z"),
        ("white", 9, "2019-05-10T13:09:00Z", "2019-05-14T22:31:00Z"),
        ("black", 9, "2019-05-14T22:31:00Z", "2019-05-20T16:58:00Z"),
        ("white", 10, "2019-05-20T16:58:00Z", "2019-05-21T08:20:00Z"),
        ("black", 10, "2019-05-21T08:20:00Z", "2019-05-28T10:05:00Z"),
    ),
}

ONGOING = {
    "ruleset": ICCF,
    "official_start": "2019-04-10",
    "players": {"white": {}, "black": {}},
    "meta": {"white": "Rossi, Paolo", "black": "Okafor, Chidi", "event": "WS/O/1089 (ICCF)", "site": "ICCF",
             "round": "-", "result": "*"},
    "events": moves(
        ("white", 1, None, "2019-04-10T22:04:00Z"),
        ("black", 1, "2019-04-10T22:04:00Z", "2019-04-13T09:41:00Z"),
        ("white", 2, "2019-04-13T09:41:00Z", "2019-04-14T18:20:00Z"),
        ("black", 2, "2019-04-14T18:20:00Z", "2019-04-16T07:03:00Z"),
        ("white", 3, "2019-04-16T07:03:00Z", "2019-04-20T12:55:00Z"),
        ("black", 3, "2019-04-20T12:55:00Z", "2019-04-21T15:37:00Z"),
        ("white", 4, "2019-04-21T15:37:00Z", "2019-04-27T08:10:00Z"),
        ("black", 4, "2019-04-27T08:10:00Z", "2019-04-29T19:46:00Z"),
        ("white", 5, "2019-04-29T19:46:00Z", "2019-05-06T10:22:00Z"),
        ("black", 5, "2019-05-06T10:22:00Z", "2019-05-07T06:58:00Z"),
        ("white", 6, "2019-05-07T06:58:00Z", "2019-05-12T21:33:00Z"),
        ("black", 6, "2019-05-12T21:33:00Z", "2019-05-16T14:14:00Z"),
        ("white", 7, "2019-05-16T14:14:00Z", "2019-05-22T09:40:00Z"),
        # 7.dxc5 was the last move and the result is *: black is on move since its stamp.
        ("black", 7, "2019-05-22T09:40:00Z", None),
    ),
}


def test_it_reads_a_finished_and_an_ongoing_iccf_game_as_two_game_files():
    assert games_from_pgn(FIXTURE.read_text(encoding="utf-8"), ruleset=ICCF) == [FINISHED, ONGOING]


def test_the_ruleset_is_copied_into_every_game_as_given():
    games = games_from_pgn(FIXTURE.read_text(encoding="utf-8"), ruleset={"days_per_control": 30})
    assert [g["ruleset"] for g in games] == [{"days_per_control": 30}] * 2


def test_a_time_zone_turns_the_local_stamps_into_utc_instants_and_is_written_down():
    text = pgn(shuffle(["[%ccsnt 2019.04.11,01:30]", "[%ccsnt 2019.04.11,19:29]"]))
    (game,) = games_from_pgn(text, ruleset={}, time_zone="Europe/Moscow")
    assert game["time_zone"] == "Europe/Moscow"
    # Moscow is UTC+3 all year since 2014: 01:30 there is 22:30 the day before in UTC.
    assert game["events"] == moves(("white", 1, None, "2019-04-10T22:30:00Z"),
                                   ("black", 1, "2019-04-10T22:30:00Z", "2019-04-11T16:29:00Z"),
                                   ("white", 2, "2019-04-11T16:29:00Z", None))


def test_utc_is_the_default_and_writes_no_time_zone():
    text = pgn(shuffle(["[%ccsnt 2019.04.11,19:29]"]))
    assert "time_zone" not in games_from_pgn(text, ruleset={})[0]
    assert "time_zone" not in games_from_pgn(text, ruleset={}, time_zone="UTC")[0]


def test_seconds_a_space_after_the_comma_and_other_commands_in_the_comment_are_read():
    text = pgn(shuffle(["[%ccsnt 2019.04.11,19:29:07]", "[%clk 49:23:11] [%ccsnt 2019.04.12, 8:00] a note"]))
    assert [e.get("sent_at") for e in games_from_pgn(text, ruleset={})[0]["events"]] == [
        "2019-04-11T19:29:07Z", "2019-04-12T08:00:00Z", None]


def test_date_only_stamps_are_dates_for_the_calculator_to_judge():
    text = pgn(shuffle(["[%ccsnt 2019.04.11]", "[%ccsnt 2019.04.15]"]))
    assert games_from_pgn(text, ruleset={})[0]["events"] == [
        {"type": "move", "player": "white", "number": 1, "sent_on": "2019-04-11"},
        {"type": "move", "player": "black", "number": 1, "received_on": "2019-04-11", "sent_on": "2019-04-15"},
        {"type": "move", "player": "white", "number": 2, "received_on": "2019-04-15"},
    ]


def test_white_is_on_move_after_a_move_of_black():
    text = pgn(shuffle(["[%ccsnt 2019.04.11,10:00]", "[%ccsnt 2019.04.12,10:00]", "[%ccsnt 2019.04.13,10:00]",
                        "[%ccsnt 2019.04.14,10:00]"]))
    assert games_from_pgn(text, ruleset={})[0]["events"][-1] == {
        "type": "move", "player": "white", "number": 3, "received_at": "2019-04-14T10:00:00Z"}


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2"])
def test_a_game_with_a_result_has_no_pending_move(result):
    text = pgn(shuffle(["[%ccsnt 2019.04.11,10:00]", "[%ccsnt 2019.04.12,10:00]"]), result=result)
    (game,) = games_from_pgn(text, ruleset={})
    assert [e["player"] for e in game["events"]] == ["white", "black"]
    assert game["meta"]["result"] == result


def test_event_date_stands_in_for_an_unknown_date():
    text = pgn(shuffle(["[%ccsnt 2019.04.11,10:00]"]), date="????.??.??", extra='[EventDate "2019.04.01"]\n')
    assert games_from_pgn(text, ruleset={})[0]["official_start"] == "2019-04-01"


def test_equal_stamps_are_in_order_and_a_variation_is_not_a_move():
    # ICCF's server stamps a premove and its reply in the same minute (59.gxh6 gxh6 of a real game).
    body = ("1. Nf3 {[%ccsnt 2019.04.11,06:54]} (1. e4 {[%ccsnt 2019.04.01,00:00]}) "
            "Nf6 {[%ccsnt 2019.04.11,06:54]}")
    (game,) = games_from_pgn(pgn(body, result="1-0"), ruleset={})
    assert game["events"] == moves(("white", 1, None, "2019-04-11T06:54:00Z"),
                                   ("black", 1, "2019-04-11T06:54:00Z", "2019-04-11T06:54:00Z"))


def test_the_second_pass_of_the_hour_the_clocks_go_back_follows_the_first():
    # Berlin, 27 October 2019: 03:00 CEST became 02:00 CET. 02:50 (CEST, 00:50Z) then 02:10 is the
    # second 02:10 (CET, 01:10Z): the first one (00:10Z) would go back in time.
    text = pgn(shuffle(["[%ccsnt 2019.10.27,02:50]", "[%ccsnt 2019.10.27,02:10]"]), date="2019.10.01")
    events = games_from_pgn(text, ruleset={}, time_zone="Europe/Berlin")[0]["events"]
    assert [e.get("sent_at") for e in events] == ["2019-10-27T00:50:00Z", "2019-10-27T01:10:00Z", None]


# --- refusals: one line naming the game and the move ------------------------------------------------

REFUSALS = {
    "no stamps at all": (
        pgn(shuffle(["[%ccsnt 2019.04.11,10:00]"])) + pgn(shuffle(["", ""]), white="Smith", black="Jones"),
        "game 2 (Smith - Jones): no [%ccsnt] stamps: corr needs each move's sent date (or, for a daily game,"
        " TimeControl 1/N, UTCDate and UTCTime, and a [%clk] after every move)"),
    "a move without a stamp": (
        pgn(shuffle(["[%ccsnt 2019.04.11,10:00]", "a fine move", "[%ccsnt 2019.04.13,10:00]"])),
        "game 1 (A - B), move 1... (black): no [%ccsnt] stamp (the other moves have one)"),
    "a stamp back in time": (
        pgn(shuffle([f"[%ccsnt 2019.04.{10 + ply // 2:02},{9 + ply % 2:02}:00]" for ply in range(22)]
                    + ["[%ccsnt 2019.05.02,09:00]", "[%ccsnt 2019.05.01,10:00]"])),
        "game 1 (A - B), move 12... (black): [%ccsnt 2019.05.01,10:00] is before the previous stamp"
        " 2019.05.02,09:00"),
    "a date-only stamp back in time": (
        pgn(shuffle(["[%ccsnt 2019.04.12,09:00]", "[%ccsnt 2019.04.11]"])),
        "game 1 (A - B), move 1... (black): [%ccsnt 2019.04.11] is before the previous stamp 2019.04.12,09:00"),
    "no such month": (
        pgn(shuffle(["[%ccsnt 2019.13.01]"])),
        "game 1 (A - B), move 1. (white): [%ccsnt 2019.13.01] is not a stamp"
        " (YYYY.MM.DD, YYYY.MM.DD,HH:MM or YYYY.MM.DD,HH:MM:SS)"),
    "no such hour": (
        pgn(shuffle(["[%ccsnt 2019.04.11,25:00]"])),
        "game 1 (A - B), move 1. (white): [%ccsnt 2019.04.11,25:00] is not a stamp"
        " (YYYY.MM.DD, YYYY.MM.DD,HH:MM or YYYY.MM.DD,HH:MM:SS)"),
    "words": (
        pgn(shuffle(["[%ccsnt 11 April 2019]"])),
        "game 1 (A - B), move 1. (white): [%ccsnt 11 April 2019] is not a stamp"
        " (YYYY.MM.DD, YYYY.MM.DD,HH:MM or YYYY.MM.DD,HH:MM:SS)"),
    "two stamps on a move": (
        pgn(shuffle(["[%ccsnt 2019.04.11,10:00] [%ccsnt 2019.04.12,10:00]"])),
        "game 1 (A - B), move 1. (white): 2 [%ccsnt] stamps, one sent date expected"),
    "no official start": (
        pgn(shuffle(["[%ccsnt 2019.04.11,10:00]"]), date="2019.??.??"),
        "game 1 (A - B): no Date or EventDate tag with a whole date: corr needs the official start"),
    "an illegal move": (
        pgn("1. e4 {[%ccsnt 2019.04.11,10:00]} Qxe4 {[%ccsnt 2019.04.12,10:00]}"),
        "game 1 (A - B): illegal san: 'Qxe4' in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
    "no game": ("% nothing but an escaped line\n",
                "no PGN game found (a game starts with tags such as [Event \"...\"] and its moves)"),
}


@pytest.mark.parametrize("text, message", REFUSALS.values(), ids=REFUSALS.keys())
def test_it_refuses_with_one_line_naming_the_game_and_the_move(text, message):
    with pytest.raises(PgnStampError) as caught:
        games_from_pgn(text, ruleset={})
    assert str(caught.value) == message


def test_it_refuses_a_local_time_the_clocks_skipped():
    # Berlin, 31 March 2019: 02:00 CET became 03:00 CEST; 02:30 never was (a wrong --time-zone, likely).
    text = pgn(shuffle(["[%ccsnt 2019.03.31,02:30]"]), date="2019.03.01")
    with pytest.raises(PgnStampError, match=r"^game 1 \(A - B\), move 1\. \(white\): \[%ccsnt 2019.03.31,02:30\]"
                                            r" is no time in Europe/Berlin"):
        games_from_pgn(text, ruleset={}, time_zone="Europe/Berlin")


def test_it_refuses_an_unknown_time_zone():
    with pytest.raises(PgnStampError, match="time zone must be an IANA name such as Europe/Moscow, got 'Mars/Olympus'"):
        games_from_pgn(FIXTURE.read_text(encoding="utf-8"), ruleset={}, time_zone="Mars/Olympus")


def test_reading_pgn_loads_no_django():
    done = subprocess.run([sys.executable, "-c", "import sys, corr.formats.pgn_stamps;"
                           "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# --- the fixture is PGN as another program reads it (Debian's pgn-extract) ------------------------------

@needs_pgn_extract
def test_the_fixture_is_valid_pgn_for_pgn_extract():
    # pgn-extract exits 0 even on a bad game: its complaints go to standard error.
    done = subprocess.run([PGN_EXTRACT, "-s", str(FIXTURE)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.count("[Event ") == 2


@needs_pgn_extract
def test_pgn_extract_s_rewrapped_comments_give_the_same_game_files():
    # It writes "{ [%ccsnt 2019.05.03,07:12] }" and breaks lines inside comments.
    done = subprocess.run([PGN_EXTRACT, "-s", str(FIXTURE)], capture_output=True, text=True, check=True)
    assert "[%ccsnt\n" in done.stdout
    assert games_from_pgn(done.stdout, ruleset=ICCF) == [FINISHED, ONGOING]


# --- manage.py clock FILE.pgn --------------------------------------------------------------------------

DATE_ONLY = pgn(shuffle(["[%ccsnt 2019.04.11]", "[%ccsnt 2019.04.15]", "[%ccsnt 2019.04.18]"]),
                white="Ivanov, Ivan", black="Petrov, Pyotr")


def clock(*args, stdin=None):
    env = dict(os.environ, DEBUG="1")
    return subprocess.run([sys.executable, "manage.py", "clock", *map(str, args)], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_the_command_computes_a_date_stamped_pgn_under_a_preset(tmp_path):
    path = tmp_path / "cup.pgn"
    path.write_text(DATE_ONLY)
    done = clock(path, "--preset", "rus_50_4", "--json", "--as-of", "2019-05-01")
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert set(players) == {"white", "black"}
    # From the official start 04-10: white 04-10..04-11 (1) + 04-15..04-18 (3) = 4 days; black
    # 04-11..04-15 (4) + on move since 04-18 until 05-01 (13) = 17.
    assert (players["white"]["thinking_days"], players["white"]["on_move"]) == (4, False)
    assert (players["black"]["thinking_days"], players["black"]["on_move"]) == (17, True)


def test_the_command_gives_a_list_for_a_pgn_of_two_games_and_reads_standard_input_with_pgn(tmp_path):
    done = clock("-", "--pgn", "--preset", "rus_50_4", "--json", "--as-of", "2019-05-01", stdin=DATE_ONLY * 2)
    assert done.returncode == 0, done.stderr
    assert [sorted(game["players"]) for game in json.loads(done.stdout)] == [["black", "white"]] * 2


def test_a_pgn_extension_in_capitals_is_pgn(tmp_path):
    path = tmp_path / "CUP.PGN"
    path.write_text(DATE_ONLY)
    assert clock(path, "--preset", "rus_50_4", "--as-of", "2019-05-01").returncode == 0


CLI_REFUSALS = {
    "no preset": ([], "CommandError: --preset is required for a PGN file: a PGN does not say its time control"
                      " (--preset iccf_10_50, for instance)"),
    "an unknown preset": (["--preset", "fide_blitz"], "CommandError: preset must be one of rus_50_4, iccf_10_50,"),
    "an unknown zone": (["--preset", "rus_50_4", "--time-zone", "Europe/Atlantis"],
                        "CommandError: --time-zone must be an IANA time zone name such as Europe/Moscow,"
                        " got 'Europe/Atlantis'"),
}


@pytest.mark.parametrize("args, start", CLI_REFUSALS.values(), ids=CLI_REFUSALS.keys())
def test_the_command_refuses_bad_options_with_one_line_and_nothing_printed(tmp_path, args, start):
    path = tmp_path / "cup.pgn"
    path.write_text(DATE_ONLY)
    done = clock(path, *args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(start) and done.stderr.count("\n") == 1, done.stderr


def test_the_command_refuses_a_bad_pgn_game_with_its_line(tmp_path):
    path = tmp_path / "cup.pgn"
    path.write_text(DATE_ONLY + pgn(shuffle(["", ""]), white="Smith", black="Jones"))
    done = clock(path, "--preset", "rus_50_4", "--json")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("CommandError: game 2 (Smith - Jones): no [%ccsnt] stamps: corr needs each move's"
                           " sent date (or, for a daily game, TimeControl 1/N, UTCDate and UTCTime, and a [%clk]"
                           " after every move)\n")


def test_preset_is_refused_for_a_json_game_file():
    done = clock(ROOT / "tests" / "clock" / "example_game.json", "--preset", "rus_50_4")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("CommandError: --preset is for PGN input only (FILE.pgn or --pgn): a game file has its"
                           " own\n")


def test_the_calculator_page_command_audits_the_iccf_fixture():
    done = clock("tests/commands/data/iccf_stamped.pgn", "--preset", "iccf_10_50", "--json",
                 "--as-of", "2019-06-22T09:39:59Z")
    assert done.returncode == 0, done.stderr
    finished, ongoing = json.loads(done.stdout)
    assert finished["players"]["black"]["overstepped"] is None
    # Black's move 7, received 2019-05-22T09:40Z with 41 of 50 days left (20 whole days, then 21 that
    # cost 2 each: 30 days in all, ICCF 2.4.2) is over 31 x 24 h after it arrived, and not a second before.
    black = ongoing["players"]["black"]
    assert (black["flag_at"], black["overstepped"], black["remaining_seconds"]) == ("2019-06-22T09:40:00Z", None, 1)
    late = json.loads(clock("tests/commands/data/iccf_stamped.pgn", "--preset", "iccf_10_50", "--json",
                            "--as-of", "2019-06-22T09:40:00Z").stdout)[1]["players"]["black"]
    assert late["overstepped"]["at"] == "2019-06-22T09:40:00Z"
