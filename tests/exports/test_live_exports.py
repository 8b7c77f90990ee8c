"""Exports of a live game: its moves with the clock after each press, read back by python-chess, pydraughts
and sgfmill; its ledger as CSV. The game is played through the API on the injected server clock."""

from __future__ import annotations

import csv
import io

import chess.pgn
import pytest
from django.test import Client
from draughts.PDN import PDNReader
from sgfmill import sgf

from corr.clock.presets import PRESETS
from corr.games import services

from ..live.conftest import MIN, START, START_MS, S

pytestmark = pytest.mark.django_db(transaction=True)


def tournament(arbiter, ruleset: dict, kind: str = "chess"):
    return services.tournament_create(by=arbiter, name="Live cup", official_start=START.date(), mode="live",
                                      ruleset=ruleset, kind=kind)


def press(api, user, game_id: int, number: int, notation: str = "", **extra) -> dict:
    r = api(user).post(f"/api/games/{game_id}/moves/", {"number": number, "notation": notation, **extra},
                       format="json")
    assert r.status_code == 201, r.json()
    return r.json()["live"]


def download(user, game_id: int, format: str) -> tuple[str, bytes]:
    """The game page's download (``/games/<id>/export/<format>/``), as a signed-in browser gets it."""
    client = Client()
    client.force_login(user)
    r = client.get(f"/games/{game_id}/export/{format}/")
    assert r.status_code == 200, r.content[:300]
    return r["Content-Type"], r.content


def api_export(api, user, game_id: int, format: str) -> bytes:
    r = api(user).get(f"/api/games/{game_id}/export/{format}/")
    assert r.status_code == 200, r.content[:300]
    return r.content


FISCHER_90_30 = {"time_control": {"system": "fischer", "unit": "seconds", "initial": 5400, "increment": 30}}


def test_a_live_chess_game_reads_back_in_python_chess_with_the_clock_after_every_move(
        api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(tournament(arbiter, FISCHER_90_30))
    after = []  # each press's clock as the API answered it (ms)
    clock.advance_to(START_MS + 10 * S)
    after.append(press(api, anna, game_id, 1, "e4")["players"]["white"]["remaining_ms"])
    clock.advance(4_500)
    after.append(press(api, boris, game_id, 1, "e5", lag_ms=250)["players"]["black"]["remaining_ms"])
    clock.advance(60 * S)
    assert api(arbiter).post(f"/api/games/{game_id}/pause/", {"reason": "a phone rang"},
                             format="json").status_code == 201
    clock.advance(10 * MIN)  # no one's time (002 6.12)
    assert api(arbiter).post(f"/api/games/{game_id}/resume/", {}, format="json").status_code == 201
    clock.advance(60 * S)
    r = api(arbiter).post(f"/api/games/{game_id}/time-adjustments/",
                          {"player": "black", "seconds": 60, "reason": "sanction against white (003 17.4)"},
                          format="json")
    assert r.status_code == 201, r.json()
    clock.advance(60 * S)
    after.append(press(api, anna, game_id, 2, "Nf3")["players"]["white"]["remaining_ms"])
    clock.advance(20 * S)
    after.append(press(api, boris, game_id, 2, "Nc6")["players"]["black"]["remaining_ms"])
    clock.advance(5 * S)

    media, content = download(anna, game_id, "pgn")
    assert media == "application/x-chess-pgn; charset=utf-8"
    assert api_export(api, boris, game_id, "pgn") == content  # the API's file is the page's
    game = chess.pgn.read_game(io.StringIO(content.decode()))
    assert game.errors == []
    assert game.headers["TimeControl"] == "5400+30"
    assert game.headers["CorrTimeControl"] == "Fischer: 1 h 30 min + 30 s per move"
    assert (game.headers["UTCDate"], game.headers["UTCTime"], game.headers["Date"]) == (
        "2026.03.01", "12:00:00", "2026.03.01")
    assert game.headers["Mode"] == "OTB" and game.headers["Result"] == "*"  # PGN 9.8.1: over the board
    nodes = list(game.mainline())
    assert [n.san() for n in nodes] == ["e4", "e5", "Nf3", "Nc6"]
    # The clock after each press: 90 min - thinking (less the lag forgiven) + 30 s; the pause is no one's
    # time and the arbiter's minute is black's.
    assert [n.clock() for n in nodes] == [ms / 1000 for ms in after] == [
        5400 - 10 + 30, 5400 - 4.5 + 0.25 + 30, 5420 - 180 + 30, 5425.75 - 20 + 60 + 30]
    # corr's commands of the clock's events (issue 37) stand before the words, which keep their instants.
    assert ("[%clk 1:30:25.75] [%ccpress black 1 2026-03-01T12:00:14.500Z] [%cclag 250] at"
            " 2026-03-01T12:00:14.500Z") in nodes[1].comment
    # Rules by rulebook, in the files' fixed English (issue 25): not the project's seed numbers.
    assert ("[%ccpause 2026-03-01T12:01:14.500Z] clocks paused by the arbiter at 2026-03-01T12:01:14.500Z (FIDE Laws"
            " 6.12): a phone rang") in nodes[1].comment
    assert "black's clock +0:01:00 by the arbiter" in nodes[1].comment
    assert "sanction against white (Go rules 17.4)" in nodes[1].comment
    # After the last move: both clocks as of the download, white's running.
    assert "white 1:27:45, black 1:31:35.75; white to move, clock running" in nodes[-1].comment
    assert "clocks started at 2026-03-01T12:00:00.000Z" in game.comment


def test_a_flag_ends_the_file_with_the_result_and_the_fall(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(tournament(arbiter, {"time_control": {"system": "sudden_death", "unit": "seconds",
                                                                "time": 60}}))
    clock.advance_to(START_MS + 2 * S)
    press(api, anna, game_id, 1, "e4")
    clock.advance(2 * MIN)  # black's flag falls at 60 s, recorded by the scheduled check
    text = download(anna, game_id, "pgn")[1].decode()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.headers["Result"] == "1-0" and game.headers["TimeControl"] == "60"
    node = game.next()
    assert node.clock() == 58
    assert "black's flag fell at 2026-03-01T12:01:02.000Z" in node.comment
    assert "clocks at the end (2026-03-01T12:01:02.000Z): white 0:00:58, black 0:00:00 (flag fallen)" in node.comment


def test_a_move_made_without_notation_keeps_its_clock_in_the_comment(api, arbiter, anna, boris, clock,
                                                                   create_game):
    game_id = create_game(tournament(arbiter, FISCHER_90_30))
    clock.advance_to(START_MS + 3 * S)
    press(api, anna, game_id, 1, "d4")
    clock.advance(7 * S)
    press(api, boris, game_id, 1, "")  # the phone's "move made" button
    game = chess.pgn.read_game(io.StringIO(download(boris, game_id, "pgn")[1].decode()))
    assert game.errors == [] and [n.clock() for n in game.mainline()] == [5427]
    assert ("black 1 (no notation): [%clk 1:30:23] [%ccpress black 1 2026-03-01T12:00:10.000Z] at"
            " 2026-03-01T12:00:10.000Z") in game.next().comment


def test_a_live_draughts_game_reads_back_in_pydraughts_with_the_clocks(api, arbiter, anna, boris, clock,
                                                                     create_game):
    game_id = create_game(tournament(arbiter, PRESETS["draughts_live"], kind="draughts"))
    moves = [("c3-d4", anna, 12), ("f6-g5", boris, 30), ("g3-f4", anna, 95)]
    clock.advance_to(START_MS)
    numbers = {anna: 0, boris: 0}
    for notation, user, seconds in moves:
        clock.advance(seconds * S)
        numbers[user] += 1
        press(api, user, game_id, numbers[user], notation)
    media, content = download(boris, game_id, "pdn")
    assert media == "application/x-draughts-pdn; charset=utf-8"
    text = content.decode()
    read = PDNReader(pdn_text=text).games[0]
    assert read.moves == [m[0] for m in moves] and read.variant == "russian"
    assert read.tags["TimeControl"] == "40/7200:3600" and read.tags["UTCTime"] == "12:00:00"
    # 2 hours for 40 moves, no increment: white 7200 - 12 then - 95; black 7200 - 30.
    # PDN's clock command: the mover's clock after the press, whole seconds, lowercase (stopped).
    assert ("1. c3-d4 {[%clock w1:59:48] [%ccpress white 1 2026-03-01T12:00:12.000Z] at 2026-03-01T12:00:12.000Z}"
            " f6-g5 {[%clock b1:59:30] [%ccpress black 1 2026-03-01T12:00:42.000Z] at") in text
    assert ("2. g3-f4 {[%clock w1:58:13] [%ccpress white 2 2026-03-01T12:02:17.000Z] at 2026-03-01T12:02:17.000Z}"
            in text)


def sgf_times(node) -> dict:
    return {p: node.get(p) for p in ("BL", "WL", "OB", "OW") if node.has_property(p)}


def test_a_live_go_game_reads_back_in_sgfmill_with_time_left_and_periods(api, arbiter, anna, boris, clock,
                                                                       create_game):
    ruleset = {"time_control": {**PRESETS["go_byoyomi_live"]["time_control"], "main": 60}}  # 1 min, 5 x 30 s
    game_id = create_game(tournament(arbiter, ruleset, kind="go"))
    clock.advance_to(START_MS)
    plays = [("black", boris, "Q16", 20 * S), ("white", anna, "D4", 50 * S),  # 40 s and 10 s of main left
             ("black", boris, "D16", 55 * S),  # 15 s into its first period: all 5 left, the period anew
             ("white", anna, "Q4", 45 * S),  # 35 s over: the first period used up, 4 left
             ("black", boris, "pass", 29_500)]  # inside a period again: 5 left
    numbers = {"black": 0, "white": 0}
    for side, user, notation, thinking in plays:
        clock.advance(thinking)
        numbers[side] += 1
        press(api, user, game_id, numbers[side], notation)
    media, content = download(anna, game_id, "sgf")
    assert media == "application/x-go-sgf; charset=utf-8"
    assert api_export(api, anna, game_id, "sgf") == content
    read = sgf.Sgf_game.from_bytes(content)
    root = read.get_root()
    assert root.get("TM") == 60 and root.get("OT") == "5x30 byo-yomi"
    nodes = read.get_main_sequence()[1:]
    assert nodes[-1].get_move() == ("b", None) and nodes[-1].get_raw("B") == b""  # FF[4]'s pass, not tt
    assert [n.get_move()[0] for n in nodes] == ["b", "w", "b", "w", "b"]
    assert [sgf_times(n) for n in nodes] == [
        {"BL": 40}, {"WL": 10}, {"BL": 30, "OB": 5}, {"WL": 30, "OW": 4}, {"BL": 30, "OB": 5}]
    payload = api(anna).get(f"/api/games/{game_id}/").json()["live"]["players"]
    assert payload["white"]["periods_left"] == 4 and payload["black"]["periods_left"] == 5


def test_a_canadian_block_is_its_time_and_moves_left(api, arbiter, anna, boris, clock, create_game):
    ruleset = {"time_control": {**PRESETS["go_canadian_live"]["time_control"], "main": 10}}  # 10 s, 15 in 5 min
    game_id = create_game(tournament(arbiter, ruleset, kind="go"))
    clock.advance_to(START_MS + 4 * S)
    press(api, boris, game_id, 1, "Q16")
    clock.advance(30 * S)
    press(api, anna, game_id, 1, "D4")
    clock.advance(26 * S)
    press(api, boris, game_id, 2, "D16")
    root = sgf.Sgf_game.from_bytes(download(anna, game_id, "sgf")[1])
    assert root.get_root().get("OT") == "15/300 Canadian"
    nodes = root.get_main_sequence()[1:]
    # Black: 6 s of main left; white 20 s into its block (14 moves, 280 s left); black 6 + 20 into it.
    assert [sgf_times(n) for n in nodes] == [{"BL": 6}, {"WL": 280, "OW": 14}, {"BL": 280, "OB": 14}]


def test_the_ledger_of_a_live_game_as_csv(api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(tournament(arbiter, FISCHER_90_30))
    clock.advance_to(START_MS + 10 * S)
    press(api, anna, game_id, 1, "e4")
    clock.advance(3 * S)
    rows = list(csv.DictReader(io.StringIO(api_export(api, anna, game_id, "csv").decode())))
    assert [(r["kind"], r["player"], r["charged_ms"], r["remaining_ms"], r["at"]) for r in rows] == [
        ("start", "white", "0", str(5400 * S), "2026-03-01T12:00:00.000Z"),
        ("move", "white", str(10 * S), str(5420 * S), "2026-03-01T12:00:10.000Z")]


def test_a_live_game_page_offers_its_downloads(anna, arbiter, clock, create_game):
    game_id = create_game(tournament(arbiter, FISCHER_90_30))
    client = Client()
    client.force_login(anna)
    page = client.get(f"/games/{game_id}/").content.decode()
    assert f'href="/games/{game_id}/export/pgn/"' in page and f'href="/games/{game_id}/export/csv/"' in page
