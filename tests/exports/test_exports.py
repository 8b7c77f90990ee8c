"""Exports of a game: PGN, PDN and SGF read back by python-chess, pydraughts and sgfmill; the ledger as CSV."""

from __future__ import annotations

import csv
import io
from datetime import date

import chess.pgn
import pytest
from draughts.PDN import PDNReader
from sgfmill import common, sgf

from corr.exports.moves import COMMENT_PATTERN
from corr.games import services

from ..conftest import TODAY

pytestmark = pytest.mark.django_db

# (player, notation, received_on, sent_on) of a postal game (official start 01-10, 4 transit days).
CHESS = [("white", "e4", None, "2026-01-12"), ("black", "e5", "2026-01-16", "2026-01-18"),
         ("white", "Nf3", "2026-01-22", "2026-01-25"), ("black", "Nc6", "2026-01-29", "2026-02-01"),
         ("white", "Bb5", "2026-02-05", "2026-02-07")]


def play(api, game, users, moves):
    numbers = {"white": 0, "black": 0}
    for player, notation, received, sent in moves:
        numbers[player] += 1
        body = {"number": numbers[player], "notation": notation, "sent_on": sent, "mail": "email"}
        if received:
            body["received_on"] = received
        r = api(users[player]).post(f"/api/games/{game.pk}/moves/", body, format="json")
        assert r.status_code == 201, r.json()


def export(client, game, format):
    return client.get(f"/api/games/{game.pk}/export/{format}/")


def move_ledger(client, game) -> list[dict]:
    """The game page's ledger (the API's clock as of today): the lines of the moves, in order."""
    ledger = client.get(f"/api/games/{game.pk}/").json()["clock"]["ledger"]
    return [line for line in ledger if line["kind"] == "move"]


def facts(comments) -> list[tuple[str | None, str | None, int]]:
    out = []
    for comment in comments:
        m = COMMENT_PATTERN.search(comment)
        out.append((None if m["received"] == "-" else m["received"], None if m["sent"] == "-" else m["sent"],
                    int(m["days"])))
    return out


@pytest.fixture
def users(anna, boris):
    return {"white": anna, "black": boris}


def test_a_chess_game_reads_back_in_python_chess_with_its_moves_dates_and_days(api, postal_game, users, anna):
    play(api, postal_game, users, CHESS)
    r = export(api(anna), postal_game, "pgn")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/x-chess-pgn; charset=utf-8"
    assert r["Content-Disposition"] == f'attachment; filename="game-{postal_game.pk}.pgn"'
    game = chess.pgn.read_game(io.StringIO(r.content.decode()))
    assert game.errors == []
    headers = dict(game.headers)
    assert {k: headers[k] for k in ("Event", "Date", "Round", "White", "Black", "Result")} == {
        "Event": "Postal cup", "Date": "2026.01.10", "Round": "-", "White": "anna", "Black": "boris", "Result": "*"}
    assert headers["Site"].endswith(f"/games/{postal_game.pk}/")
    assert headers["TimeControl"] == "10/2592000"  # 10 moves in 30 days of 86400 s
    assert headers["CorrTimeControl"] == "10 moves in 30 days, cumulative (article 50.4)"
    nodes = list(game.mainline())
    assert [n.san() for n in nodes] == [m[1] for m in CHESS]
    days = [line["days"] for line in move_ledger(api(anna), postal_game)]
    assert facts(n.comment for n in nodes) == [(m[2], m[3], d) for m, d in zip(CHESS, days, strict=True)]
    # e4 01-10 -> 01-12: 2 days; e5 01-16 -> 01-18: 2; Nf3 01-22 -> 01-25: 3.
    assert days[:3] == [2, 2, 3]
    # Black's move 3 is pending: presumed received 02-07 + 4 = 02-11, 18 days by 03-01.
    assert "black's move 3 pending: received 2026-02-11; days so far 18" in nodes[-1].comment


def test_moves_are_written_in_san_with_the_typed_form_and_the_sent_stamp(api, postal_game, users, anna):
    # Contract change (issue 26): the movetext is SAN (PGN 8.2.3), what was typed stays in the comment.
    play(api, postal_game, users, [("white", "e2-e4", None, "2026-01-12"), ("black", "e7e5!", "2026-01-16",
                                                                           "2026-01-18")])
    text = export(api(anna), postal_game, "pgn").content.decode()
    # A postal move's receipt stands before its stamp (issue 37): black received e4 on 01-16.
    assert ("1. e4 {[%ccsnt 2026.01.12] typed e2-e4; received -; sent 2026-01-12; days 2} e5! {[%ccrd 2026.01.16]"
            " [%ccsnt 2026.01.18] typed e7e5!;") in text
    assert '[Mode "EM"]' not in text and '[Mode "PM"]' in text  # 4 days of transit: by post
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.errors == [] and [n.san() for n in game.mainline()] == ["e4", "e5"]


def test_an_unreadable_move_stops_the_movetext_and_the_rest_follows_in_a_comment(api, postal_game, users, anna):
    moves = [CHESS[0], CHESS[1], ("white", "Xx9", "2026-01-22", "2026-01-25"), ("black", "", "2026-01-29",
                                                                                "2026-02-01")]
    play(api, postal_game, users, moves)
    game = chess.pgn.read_game(io.StringIO(export(api(anna), postal_game, "pgn").content.decode()))
    assert game.errors == []
    nodes = list(game.mainline())
    assert [n.san() for n in nodes] == ["e4", "e5"]
    assert "movetext stops here: white's move 2 'Xx9' is not written in algebraic notation" in nodes[-1].comment
    assert "white 2 Xx9: received 2026-01-22; sent 2026-01-25; days 3" in nodes[-1].comment
    assert "black 2 (no notation): received 2026-01-29; sent 2026-02-01; days 3" in nodes[-1].comment


def test_an_illegal_move_stops_the_movetext_too(api, postal_game, users, anna):
    play(api, postal_game, users, [CHESS[0], ("black", "e4", "2026-01-16", "2026-01-18")])  # e4 is occupied
    game = chess.pgn.read_game(io.StringIO(export(api(anna), postal_game, "pgn").content.decode()))
    assert game.errors == [] and [n.san() for n in game.mainline()] == ["e4"]
    assert "'e4' is not a legal move in this position" in game.next().comment


def test_a_draughts_game_reads_back_in_pydraughts(api, arbiter, anna, boris, users, frozen):
    tournament = services.tournament_create(by=arbiter, name="Шашки", official_start=date(2026, 1, 10),
                                            mode="postal", kind="draughts", presumed_transit_days=4)
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    moves = [("white", "c3-d4", None, "2026-01-12"), ("black", "f6-g5", "2026-01-16", "2026-01-18"),
             ("white", "g3-f4", "2026-01-22", "2026-01-25")]
    play(api, game, users, moves)
    assert export(api(anna), game, "pgn").status_code == 404
    r = export(api(anna), game, "pdn")
    assert r.status_code == 200 and r["Content-Disposition"] == f'attachment; filename="game-{game.pk}.pdn"'
    text = r.content.decode()
    read = PDNReader(pdn_text=text).games[0]
    assert read.moves == [m[1] for m in moves]
    assert read.variant == "russian"  # algebraic moves: GameType 25
    assert read.tags["Event"] == "Шашки" and read.tags["White"] == "anna" and read.tags["Result"] == "*"
    days = [line["days"] for line in move_ledger(api(anna), game)]
    comments = [m.group(0) for m in COMMENT_PATTERN.finditer(text)]
    assert facts(comments) == [(m[2], m[3], d) for m, d in zip(moves, days, strict=True)]


def test_a_go_game_reads_back_in_sgfmill_with_its_time_control(api, postal, arbiter, anna, boris, users, frozen):
    game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, first="black", kind="go",
                                today=TODAY)
    moves = [("black", "Q16", None, "2026-01-12"), ("white", "D4", "2026-01-16", "2026-01-18"),
             ("black", "pass", "2026-01-22", "2026-01-25")]
    play(api, game, users, moves)
    assert api(anna).get(f"/api/games/{game.pk}/").json()["kind"] == "go"
    r = export(api(anna), game, "sgf")
    assert r.status_code == 200 and r["Content-Type"] == "application/x-go-sgf; charset=utf-8"
    read = sgf.Sgf_game.from_bytes(r.content)
    root = read.get_root()
    assert root.get("TM") == 30 * 86400
    assert root.get("OT") == "10 moves in 30 days, cumulative (article 50.4)"
    assert (root.get("PB"), root.get("PW")) == ("boris", "anna")
    nodes = read.get_main_sequence()[1:]
    played = [(colour, "pass" if point is None else common.format_vertex(point))
              for colour, point in (n.get_move() for n in nodes)]
    assert played == [("b", "Q16"), ("w", "D4"), ("b", "pass")]
    assert nodes[-1].get_raw("B") == b"" and b"[tt]" not in r.content  # FF[4]'s pass, not FF[3]'s tt
    days = [line["days"] for line in move_ledger(api(anna), game)]
    assert facts(n.get("C") for n in nodes) == [(m[2], m[3], d) for m, d in zip(moves, days, strict=True)]


def test_the_csv_is_the_ledger_line_for_line(api, postal_game, users, anna):
    play(api, postal_game, users, CHESS)
    r = export(api(anna), postal_game, "csv")
    assert r.status_code == 200 and r["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(r.content.decode())))
    ledger = api(anna).get(f"/api/games/{postal_game.pk}/").json()["clock"]["ledger"]
    # The numbers as the JSON has them, the codes in their own columns; the text columns in words (issue 39).
    numbers = ("move", "days", "excluded_days", "event")
    assert [{k: row[k] for k in numbers} | {"player": row["player_code"], "kind": row["kind_code"]} for row in rows] \
        == [{k: str(line[k]) for k in (*numbers, "player", "kind")} for line in ledger]
    assert {row["rule"] for row in rows} <= {"Correspondence rules 50.4.4", "Correspondence rules 50.4.8", ""}


def test_a_format_that_does_not_fit_the_kind_is_a_404_naming_both(api, postal_game, anna):
    r = export(api(anna), postal_game, "pdn")
    assert r.status_code == 404 and r["Content-Type"] == "application/json"
    assert r.json()["detail"] == "no pdn export of a chess game: its formats are pgn, csv"
    r = export(api(anna), postal_game, "docx")
    assert r.status_code == 404 and r.json()["detail"] == "no export format 'docx': formats are pgn, pdn, sgf, csv"
    r = api(anna).get(f"/api/games/{postal_game.pk}/export/sgf/", HTTP_ACCEPT="application/x-go-sgf")
    assert r.status_code == 404 and r.json()["field"] == "format"


def test_only_players_and_arbiters_export(api, postal_game, eve, arbiter, other_arbiter):
    assert export(api(eve), postal_game, "pgn").status_code == 403
    assert export(api(other_arbiter), postal_game, "csv").status_code == 403
    assert export(api(None), postal_game, "pgn").status_code == 401
    assert export(api(arbiter), postal_game, "pgn").status_code == 200


def test_the_game_page_offers_the_downloads(client, postal_game, anna, eve):
    client.force_login(anna)
    page = client.get(f"/games/{postal_game.pk}/").content.decode()
    assert f'href="/games/{postal_game.pk}/export/pgn/"' in page and "export/pdn" not in page
    r = client.get(f"/games/{postal_game.pk}/export/pgn/")
    assert r.status_code == 200 and r["Content-Disposition"] == f'attachment; filename="game-{postal_game.pk}.pgn"'
    assert client.get(f"/games/{postal_game.pk}/export/sgf/").status_code == 404
    client.force_login(eve)
    assert client.get(f"/games/{postal_game.pk}/export/pgn/").status_code == 403


def test_kind_is_set_on_the_tournament_and_overridden_per_game(api, arbiter, anna, boris, frozen):
    r = api(arbiter).post("/api/tournaments/", {"name": "Go cup", "official_start": "2026-01-10", "mode": "server",
                                                "kind": "go"}, format="json")
    assert r.status_code == 201 and r.json()["kind"] == "go"
    tournament = r.json()["id"]
    r = api(arbiter).post("/api/games/", {"tournament": tournament, "white": "anna", "black": "boris"}, format="json")
    assert r.status_code == 201 and r.json()["kind"] == "go"
    r = api(arbiter).post("/api/games/", {"tournament": tournament, "white": "anna", "black": "boris",
                                          "kind": "chess"}, format="json")
    assert r.status_code == 201 and r.json()["kind"] == "chess"
    r = api(arbiter).post("/api/games/", {"tournament": tournament, "white": "anna", "black": "boris",
                                          "kind": "shogi"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "kind"
