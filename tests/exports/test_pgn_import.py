"""A stamped PGN imported into a server tournament (issue 26): all or nothing, a line per refused game, the round
trip of corr's own export."""

from __future__ import annotations

from datetime import date

import pytest

from corr.games import services
from corr.models import Game, GameEvent

from .test_exports import export
from .test_format_conventions import instant_game  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

ICCF_EVENT = """[Event "ICCF cup"]
[Site "ICCF"]
[Date "2026.02.20"]
[White "anna"]
[Black "boris"]
[Result "*"]

1. d4 {[%ccsnt 2026.02.21,10:00]} d5 {[%ccsnt 2026.02.21,18:30]} 2. c4 {[%ccsnt 2026.02.23,09:15]} *

[Event "ICCF cup"]
[Site "ICCF"]
[Date "2026.02.20"]
[White "boris"]
[Black "anna"]
[Result "0-1"]
[Termination "white resigned"]

1. e4 {[%ccsnt 2026.02.21,11:00]} e5 {[%ccsnt 2026.02.22,08:00]} 0-1
"""


@pytest.fixture
def target(arbiter):
    return services.tournament_create(by=arbiter, name="ICCF cup (imported)", official_start=date(2026, 2, 20),
                                      mode="server", preset="iccf_10_50", time_zone="Europe/Moscow")


def post(api, user, tournament, pgn):
    return api(user).post(f"/api/tournaments/{tournament.pk}/import/", {"pgn": pgn}, format="json")


def test_an_events_pgn_creates_its_games_with_moves_instants_and_results(api, arbiter, anna, boris, target, frozen):
    r = post(api, arbiter, target, ICCF_EVENT)
    assert r.status_code == 201, r.json()
    games = r.json()["games"]
    assert [(g["white"], g["black"], g["status"], g["result"]) for g in games] == [
        ("anna", "boris", "ongoing", ""), ("boris", "anna", "finished", "0-1")]
    first = Game.objects.get(pk=games[0]["id"])
    moves = GameEvent.objects.filter(game=first, kind="move").order_by("seq")
    assert [(m.player, m.number, m.notation, m.sent_at.isoformat()) for m in moves] == [
        ("white", 1, "d4", "2026-02-21T07:00:00+00:00"), ("black", 1, "d5", "2026-02-21T15:30:00+00:00"),
        ("white", 2, "c4", "2026-02-23T06:15:00+00:00")]
    assert all(m.entered_by == arbiter for m in moves)  # the history says who imported them
    body = api(anna).get(f"/api/games/{first.pk}/").json()
    assert body["to_move"] == "black" and body["pending"]["number"] == 2
    assert Game.objects.get(pk=games[1]["id"]).termination == "white resigned"


def test_one_refused_game_imports_nothing_and_each_refusal_names_the_game_and_move(api, arbiter, anna, boris,
                                                                                  target, frozen):
    bad = ICCF_EVENT.replace('[White "boris"]', '[White "eve-who-is-not"]') + """
[Event "ICCF cup"]
[Date "2026.02.20"]
[White "anna"]
[Black "boris"]
[Result "*"]

1. e4 {[%ccsnt 2026.02.21,11:00]} e5 {[%ccsnt 2026.02.20,08:00]} *

[Event "ICCF cup"]
[Date "2026.02.20"]
[White "anna"]
[Black "boris"]
[Result "*"]

1. e4 {[%ccsnt 2026.02.21,11:00]} e5 2. Nf3 {[%ccsnt 2026.02.22,11:00]} *
"""
    r = post(api, arbiter, target, bad)
    assert r.status_code == 400
    body = r.json()
    assert body["field"] == "pgn" and body["detail"] == "3 of 4 games refused; nothing was imported"
    assert body["errors"] == [
        "game 2 (eve-who-is-not - anna): no user 'eve-who-is-not' (players are matched by username)",
        "game 3 (anna - boris), move 1... (black): [%ccsnt 2026.02.20,08:00] is before the previous stamp"
        " 2026.02.21,11:00",
        "game 4 (anna - boris), move 1... (black): no [%ccsnt] stamp (the other moves have one)"]
    assert Game.objects.filter(tournament=target).count() == 0 and GameEvent.objects.count() == 0


def test_an_illegal_move_refuses_its_game_naming_the_move_never_cuts_it(api, arbiter, anna, boris, target, frozen):
    # python-chess stops reading at the illegal move: the game must not be stored cut before move 3 (issue 36).
    pgn = ICCF_EVENT.replace("2. c4 {[%ccsnt 2026.02.23,09:15]}", "2. Nf3 {[%ccsnt 2026.02.22,09:15]} Nc6"
                             " {[%ccsnt 2026.02.22,10:00]} 3. Ke3 {[%ccsnt 2026.02.23,09:15]} Nf6"
                             " {[%ccsnt 2026.02.23,10:00]}")
    r = post(api, arbiter, target, pgn)
    assert r.status_code == 400, r.json()
    assert r.json()["errors"] == ["game 1 (anna - boris), move 3. (white): Ke3 is not a legal move there; the game is"
                                  " refused whole rather than cut before it"]
    assert Game.objects.filter(tournament=target).count() == 0 and GameEvent.objects.count() == 0


def test_the_calculator_checks_the_moves_in_their_place(api, arbiter, anna, boris, target, frozen):
    # A move stamped after the import's instant (12:00 UTC, 15:00 in Moscow): the calculator refuses it.
    late = ICCF_EVENT.split("\n\n[Event")[0].replace("2026.02.23,09:15", "2026.03.01,15:00:01")
    r = post(api, arbiter, target, late)
    assert r.status_code == 400
    assert r.json()["errors"] == ["game 1 (anna - boris), white's move 2 (2. c4): sent_at 2026-03-01 12:00:01+00:00"
                                  " is after the as-of date 2026-03-01 12:00:00+00:00"]


def test_only_the_tournaments_arbiters_import_into_server_and_postal_tournaments(api, anna, other_arbiter, arbiter,
                                                                                target, frozen):
    from .test_live_exports import FISCHER_90_30, tournament

    assert post(api, anna, target, ICCF_EVENT).status_code == 403
    assert post(api, other_arbiter, target, ICCF_EVENT).status_code == 403
    r = post(api, arbiter, tournament(arbiter, FISCHER_90_30), ICCF_EVENT)
    assert r.status_code == 400 and r.json()["field"] == "tournament"
    assert r.json()["detail"] == ("games are imported into chess server, postal and e-mail tournaments: a live"
                                  " game's file is not a PGN of dated moves")
    r = post(api, arbiter, target, "no game here")
    assert r.status_code == 400 and r.json()["field"] == "pgn"


def test_an_export_imports_back_with_the_same_clocks(api, arbiter, anna, boris, instant_game, target):  # noqa: F811
    pgn = export(api(anna), instant_game, "pgn").content.decode()
    r = post(api, arbiter, target, pgn)
    assert r.status_code == 201, r.json()
    copy = r.json()["games"][0]["id"]
    original = api(anna).get(f"/api/games/{instant_game.pk}/").json()
    imported = api(anna).get(f"/api/games/{copy}/").json()
    assert imported["clock"]["players"] == original["clock"]["players"]
    assert imported["to_move"] == original["to_move"] and imported["pending"] == original["pending"]
    assert imported["clock"]["as_of"] == original["clock"]["as_of"] == "2026-03-01T12:00:00Z"


def test_the_tournament_page_imports_a_file_and_lists_the_refusals(arbiter, anna, boris, target, frozen):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    pgn = ICCF_EVENT
    client = Client()
    client.force_login(arbiter)
    page = client.get(f"/tournaments/{target.pk}/").content.decode()
    assert "Import games (PGN)" in page and 'enctype="multipart/form-data"' in page
    bad = pgn.replace("2026.02.22,08:00", "2026.02.20,08:00")  # before the game's previous stamp
    r = client.post(f"/tournaments/{target.pk}/import/", {"pgn": SimpleUploadedFile("event.pgn", bad.encode())},
                    follow=True)
    text = r.content.decode()
    assert "1 of 2 games refused; nothing was imported" in text and "is before the previous stamp" in text
    assert Game.objects.filter(tournament=target).count() == 0
    # A name that is no username is matched by the arbiter first (issue 37): the names page, nothing imported.
    unknown = pgn.replace('[Black "anna"]', '[Black "nobody"]')
    r = client.post(f"/tournaments/{target.pk}/import/", {"pgn": SimpleUploadedFile("event.pgn", unknown.encode())},
                    follow=True)
    assert "Match the players to accounts" in r.content.decode() and "nobody" in r.content.decode()
    assert Game.objects.filter(tournament=target).count() == 0
    r = client.post(f"/tournaments/{target.pk}/import/", {"pgn": SimpleUploadedFile("event.pgn", pgn.encode())},
                    follow=True)
    assert "2 games imported." in r.content.decode() and Game.objects.filter(tournament=target).count() == 2
    client.force_login(anna)
    assert "Import games (PGN)" not in client.get(f"/tournaments/{target.pk}/").content.decode()
    assert client.post(f"/tournaments/{target.pk}/import/", {}).status_code == 403
