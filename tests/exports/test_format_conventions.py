"""Each format's own conventions (issue 26), read back by the real readers: pgn-extract, python-chess, pydraughts,
sgfmill. PGN: ``Mode`` ICS/PM/EM/OTB, ``[%ccsnt]`` per move, SAN; PDN: the GameType's results, no empty tags;
SGF: ``RE`` with how the game was won."""

from __future__ import annotations

import io
import subprocess
from datetime import date, datetime, timezone

import chess.pgn
import pytest
from draughts.PDN import PDNReader
from sgfmill import sgf

from corr.formats.pgn_stamps import games_from_pgn
from corr.games import services

from ..commands.test_clock_pgn import PGN_EXTRACT, needs_pgn_extract
from ..conftest import TODAY
from .test_exports import export, play

pytestmark = pytest.mark.django_db


def server_moves(game, users, moves):
    """Server moves at given instants (UTC): ``(player, notation, instant)``."""
    numbers = {"white": 0, "black": 0}
    for player, notation, at in moves:
        numbers[player] += 1
        services.move_submit(game=game, by=users[player], number=numbers[player], notation=notation,
                             today=at.date(), now=at)


@pytest.fixture
def instant_game(arbiter, anna, boris, frozen):
    tournament = services.tournament_create(by=arbiter, name="ICCF cup", official_start=date(2026, 2, 20),
                                            mode="server", preset="iccf_10_50", time_zone="Europe/Moscow")
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    server_moves(game, {"white": anna, "black": boris},
                 [("white", "e2-e4", datetime(2026, 2, 21, 9, 30, 5, tzinfo=timezone.utc)),
                  ("black", "c5", datetime(2026, 2, 22, 20, 59, 59, tzinfo=timezone.utc)),
                  ("white", "Ng1-f3", datetime(2026, 2, 24, 7, 0, 0, tzinfo=timezone.utc))])
    return game


def test_a_server_game_is_ics_with_instant_stamps_in_san(api, instant_game, anna):
    text = export(api(anna), instant_game, "pgn").content.decode()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.errors == [] and game.headers["Mode"] == "ICS"
    nodes = list(game.mainline())
    assert [n.san() for n in nodes] == ["e4", "c5", "Nf3"]
    # The instants in the tournament's zone (Moscow, UTC+3), to the second.
    assert [n.comment.split("]")[0] + "]" for n in nodes] == [
        "[%ccsnt 2026.02.21,12:30:05]", "[%ccsnt 2026.02.22,23:59:59]", "[%ccsnt 2026.02.24,10:00:00]"]
    # Typed Ng1-f3: the server stores every move in SAN (issue 36), so no "typed" note is left to add.
    assert not any("typed" in node.comment for node in nodes)
    # corr's own reader of stamped PGN takes them back as the instants stored.
    file = games_from_pgn(text, ruleset={}, time_zone="Europe/Moscow")[0]
    assert [e.get("sent_at") for e in file["events"][:3]] == [
        "2026-02-21T09:30:05Z", "2026-02-22T20:59:59Z", "2026-02-24T07:00:00Z"]


@needs_pgn_extract
def test_pgn_extract_reads_the_export_without_a_complaint(api, instant_game, anna, tmp_path):
    path = tmp_path / "game.pgn"
    path.write_bytes(export(api(anna), instant_game, "pgn").content)
    done = subprocess.run([PGN_EXTRACT, "-s", str(path)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert '[Mode "ICS"]' in done.stdout and "1. e4" in done.stdout and "[%ccsnt" in done.stdout


def test_a_postal_game_is_pm_by_post_and_em_by_e_mail(api, arbiter, anna, boris, postal_game, frozen):
    users = {"white": anna, "black": boris}
    play(api, postal_game, users, [("white", "d4", None, "2026-01-12")])
    assert '[Mode "PM"]' in export(api(anna), postal_game, "pgn").content.decode()
    by_mail = services.tournament_create(by=arbiter, name="E-mail cup", official_start=date(2026, 1, 10),
                                         mode="postal", presumed_transit_days=0)
    game = services.game_create(by=arbiter, tournament=by_mail, white=anna, black=boris, today=TODAY)
    play(api, game, users, [("white", "d4", None, "2026-01-12")])
    text = export(api(anna), game, "pgn").content.decode()
    assert '[Mode "EM"]' in text and "1. d4 {[%ccsnt 2026.01.12] received -;" in text


@pytest.mark.parametrize("moves, game_type, result, variant", [
    ([("white", "c3-d4", None, "2026-01-12")], "25", "1-0", "russian"),
    ([("white", "32-28", None, "2026-01-12")], "20", "2-0", "standard"),  # pydraughts: international
])
def test_pdn_results_follow_the_game_type_and_empty_tags_are_left_out(api, arbiter, anna, boris, frozen, moves,
                                                                      game_type, result, variant):
    tournament = services.tournament_create(by=arbiter, name="Шашки", official_start=date(2026, 1, 10),
                                            mode="postal", kind="draughts", presumed_transit_days=4)
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    play(api, game, {"white": anna, "black": boris}, moves)
    services.game_finish(game=game, by=arbiter, result="1-0", termination="black resigned", today=TODAY)
    text = export(api(anna), game, "pdn").content.decode()
    assert "[Round" not in text and '""' not in text
    read = PDNReader(pdn_text=text).games[0]
    assert read.variant == variant and read.tags["GameType"] == game_type
    assert read.tags["Result"] == result and text.rstrip().endswith(result)


@pytest.mark.parametrize("result, termination, re", [
    ("1-0", "black lost on time: control 1 exceeded", "W+T"),
    ("0-1", "white lost by late arrival (003 12.7)", "B+F"),
    ("0-1", "white resigned", "B+R"),
    ("1/2-1/2", "draw agreed", "0"),
    ("1-0", "adjudicated", "W+"),
])
def test_sgf_says_how_the_game_was_won(api, postal, arbiter, anna, boris, frozen, result, termination, re):
    game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, first="black", kind="go",
                                today=TODAY)
    services.game_finish(game=game, by=arbiter, result=result, termination=termination, today=TODAY)
    read = sgf.Sgf_game.from_bytes(export(api(anna), game, "sgf").content)
    assert read.get_root().get("RE") == re


def test_a_finished_go_game_with_passes_reads_back_in_sgfmill_with_its_result(api, postal, arbiter, anna, boris,
                                                                             frozen):
    game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, first="black", kind="go",
                                today=TODAY)
    play(api, game, {"white": anna, "black": boris},
         [("black", "Q16", None, "2026-01-12"), ("white", "pass", "2026-01-16", "2026-01-18"),
          ("black", "pass", "2026-01-22", "2026-01-25")])
    services.game_finish(game=game, by=arbiter, result="0-1", termination="white resigned", today=TODAY)
    content = export(api(anna), game, "sgf").content
    read = sgf.Sgf_game.from_bytes(content)
    # FF[4]'s pass is an empty value (B[], W[]), not FF[3]'s tt.
    assert [n.get_raw(c) for n, c in zip(read.get_main_sequence()[2:], "WB", strict=True)] == [b"", b""]
    assert b"[tt]" not in content
    assert read.get_root().get("RE") == "B+R"
    assert [n.get_move() for n in read.get_main_sequence()[1:]] == [("b", (15, 15)), ("w", None), ("b", None)]
