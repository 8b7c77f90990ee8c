"""Server games stored before their moves were checked (issue 36): a stored ``Ke2`` breaks nothing.

Such a game is read up to its first unreadable move: the page says from which move, the API, XFCC and the
export serve it, new moves are recorded as written with a warning until an arbiter corrects that move, and
nothing stored is changed without an arbiter.
"""

from __future__ import annotations

import io
import re
import subprocess

import chess.pgn
import pytest
from django.test import Client

from accounts.xfcc import xfcc_password_issue
from corr.games import services
from corr.games.replay import game_replay
from corr.models import GameEvent

from ..commands.test_clock_pgn import PGN_EXTRACT, needs_pgn_extract
from ..conftest import NOW, TODAY
from ..xfcc.conftest import envelope, move_params
from .test_server_moves_legal import FOOLS_MATE, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def xfcc_over_http(settings):
    settings.XFCC_REQUIRE_HTTPS = False  # the test client speaks plain HTTP


@pytest.fixture
def old_game(server_game, anna, boris):
    """``Ke2`` and ``zz9`` stored as the service stored them before issue 36 (no check, no SAN)."""
    for seq, (player, user, notation) in enumerate([("white", anna, "Ke2"), ("black", boris, "zz9")], start=1):
        GameEvent.objects.create(game=server_game, seq=seq, kind="move", player=player, number=1, notation=notation,
                                 mail="server", sent_on=TODAY, sent_at=NOW, entered_by=user)
    services.game_recompute(server_game, by=None, today=TODAY, cause="stored before issue 36")
    return server_game


def test_the_replay_names_the_first_move_it_cannot_read(old_game):
    replay = game_replay(old_game)
    assert (replay.unread.colour, replay.unread.number, replay.unread.notation) == ("white", 1, "Ke2")
    assert replay.read == 0 and replay.last_moves == [] and not replay.whole


def test_the_api_the_page_and_the_exports_serve_it(api, old_game, anna, arbiter):
    assert api(anna).get(f"/api/games/{old_game.pk}/").status_code == 200
    page = Client()
    page.force_login(arbiter)
    assert page.get(f"/games/{old_game.pk}/").status_code == 200
    for format in ("pgn", "csv"):
        r = api(anna).get(f"/api/games/{old_game.pk}/export/{format}/")
        assert r.status_code == 200, format
    text = api(anna).get(f"/api/games/{old_game.pk}/export/pgn/").content.decode()
    assert "Ke2" in text  # what was stored is shown, not dropped


def test_xfcc_answers_it_without_a_server_error(old_game, anna, boris, frozen):
    password = xfcc_password_issue(user=anna, now=NOW)
    r = Client().post("/xfcc/xfccbasic.asmx", envelope("GetMyGames", {"username": "anna", "password": password}),
                      content_type='text/xml; charset="utf-8"')
    assert r.status_code == 200 and "<XfccGame>" in r.content.decode()
    assert "moves stop here: white's move 1 'Ke2' is no legal move" in r.content.decode()
    r = Client().post("/xfcc/xfccbasic.asmx", envelope("MakeAMove", move_params("anna", password, old_game.pk, 2,
                                                                                   "Nf3")),
                      content_type='text/xml; charset="utf-8"')
    assert re.findall("<MakeAMoveResult>(.*?)</MakeAMoveResult>", r.content.decode()) == ["Success"]


def test_a_new_move_is_recorded_as_written_with_a_warning_and_nothing_stored_changes(api, old_game, anna):
    before = list(GameEvent.objects.filter(game=old_game).values_list("seq", "notation"))
    r = api(anna).post(f"/api/games/{old_game.pk}/moves/", {"number": 2, "notation": "Qh5"}, format="json")
    assert r.status_code == 201, r.json()
    assert ("corr cannot read this game from White's move 1 Ke2: moves are recorded as written and not checked until"
            " an arbiter corrects that move") in r.json()["warnings"]
    after = list(GameEvent.objects.filter(game=old_game).values_list("seq", "notation"))
    assert after[:len(before)] == before and after[-1][1] == "Qh5"


def test_an_arbiters_correction_makes_the_game_checked_again(api, old_game, anna, boris, arbiter):
    seq = GameEvent.objects.get(game=old_game, notation="Ke2").seq
    assert services.event_correct(game=old_game, by=arbiter, seq=seq, note="the player sent e4",
                                  changes={"notation": "e4"}, today=TODAY)
    seq = GameEvent.objects.get(game=old_game, notation="zz9").seq
    services.event_correct(game=old_game, by=arbiter, seq=seq, note="the player sent e5", changes={"notation": "e5"},
                           today=TODAY)
    assert game_replay(old_game).whole
    r = api(anna).post(f"/api/games/{old_game.pk}/moves/", {"number": 2, "notation": "Ke3"}, format="json")
    assert r.status_code == 400 and r.json()["detail"] == "Ke3 is not a legal move for white after 1. e4 e5"


@needs_pgn_extract
def test_a_checkmate_s_export_carries_the_result_read_by_pgn_extract_and_python_chess(api, server_game, anna, boris,
                                                                                     tmp_path):
    play(api, server_game, {"white": anna, "black": boris}, FOOLS_MATE)
    text = api(anna).get(f"/api/games/{server_game.pk}/export/pgn/").content.decode()
    read = chess.pgn.read_game(io.StringIO(text))
    assert (read.headers["Result"], read.headers["Termination"]) == ("0-1", "normal")
    assert read.end().board().is_checkmate() and not read.errors
    path = tmp_path / "mate.pgn"
    path.write_text(text)
    done = subprocess.run([PGN_EXTRACT, "-s", str(path)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert '[Result "0-1"]' in done.stdout and '[Termination "normal"]' in done.stdout and "Qh4#" in done.stdout
    assert done.stdout.rstrip().endswith("0-1")
