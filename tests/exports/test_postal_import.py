"""corr's postal and e-mail PGN imported into a postal tournament (issue 37): refusals, leave, the background.

The round trips themselves (export, import, equal clocks) are in test_round_trip_corpus.py; here, what the
import refuses, whole and naming the game and the fact, and that a large one runs as a job all the same.
"""

from __future__ import annotations

from datetime import date

import pytest

from corr.games import services
from corr.games.services.leave import leave_book
from corr.models import Game, Leave

from ..conftest import NOW, TODAY
from .test_round_trip_corpus import api_clock, eventful, export_text, postal_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def postal_eventful(api, arbiter, anna, boris, postal_game):
    """The corpus's eventful postal game (a void move, its notice, a penalty, a delay, leave, a receipt)."""
    return eventful(api, arbiter, anna, boris, postal_game)


def postal_target(arbiter, **leave_rules):
    return services.tournament_create(by=arbiter, name="Postal copy", official_start=date(2026, 1, 10),
                                      mode="postal", presumed_transit_days=4, time_zone="Europe/Moscow",
                                      **leave_rules)


def post(api, user, tournament, pgn, **extra):
    return api(user).post(f"/api/tournaments/{tournament.pk}/import/", {"pgn": pgn}, format="json", **extra)


def test_a_receipt_after_today_refuses_the_game_naming_the_fact_in_the_readers_language(api, arbiter, anna,
                                                                                        postal_eventful):
    text = export_text(api, anna, postal_eventful).replace("[%ccrd 2026.02.25]", "[%ccrd 2026.03.05]")
    target = postal_target(arbiter)
    r = post(api, arbiter, target, text, HTTP_ACCEPT_LANGUAGE="ru")
    assert r.status_code == 400, r.json()
    assert r.json()["errors"] == ["game 1 (anna - boris), black's move 3 pending, [%ccrd 2026.03.05]: received_on"
                                  " 2026-03-05 позже сегодняшнего дня (2026-03-01, Europe/Moscow)"]
    assert not Game.objects.filter(tournament=target).exists() and not Leave.objects.filter(game__isnull=False)


def test_a_notice_out_of_turn_refuses_the_game_naming_the_notice(api, arbiter, anna, postal_eventful):
    text = export_text(api, anna, postal_eventful).replace("[%ccnotice black 2", "[%ccnotice white 2")
    r = post(api, arbiter, postal_target(arbiter), text)
    assert r.status_code == 400, r.json()
    assert r.json()["errors"] == ["game 1 (anna - boris), white's [%ccnotice] impossible_move: it is black's turn:"
                                  " only the player to move reports the partner's move"]


def test_leave_the_tournament_adds_to_a_player_refuses_the_game(api, arbiter, anna, boris, postal_eventful):
    """anna's own booking stops her clocks in every tournament that allows leave: the copy's clocks would not be
    the game's, whose tournament allows none, so the import says so rather than change them."""
    text = export_text(api, anna, postal_eventful)
    target = postal_target(arbiter, leave_days=20, leave_book_ahead_days=0)
    services.game_create(by=arbiter, tournament=target, white=anna, black=boris, today=TODAY)
    leave_book(by=anna, first=date(2026, 3, 10), last=date(2026, 3, 12), now=NOW)
    r = post(api, arbiter, target, text)
    assert r.status_code == 400, r.json()
    assert r.json()["errors"] == ["game 1 (anna - boris): white's leave in this tournament (2026-03-10 to 2026-03-12)"
                                  " is not in the file: the copy's clocks would differ from the game's; import into"
                                  " a tournament that allows no leave (leave_days 0)"]
    assert target.games.count() == 1


def test_a_file_whose_moves_stop_is_refused_rather_than_cut(api, arbiter, anna, boris, postal_game):
    postal_moves(api, postal_game, {"white": anna, "black": boris},
                 [("white", "e4", None, "2026-01-12"), ("black", "Xx9", "2026-01-16", "2026-01-18"),
                  ("white", "Nf3", "2026-01-22", "2026-01-25")])
    text = export_text(api, anna, postal_game)
    assert "movetext stops here" in text
    r = post(api, arbiter, postal_target(arbiter), text)
    assert r.status_code == 400, r.json()
    assert r.json()["errors"] == ["game 1 (anna - boris): the file's moves stop before the game's end (black's move"
                                  " 1 'Xx9' is not written in algebraic notation): the moves after it are words, not"
                                  " moves, and the game is refused whole rather than cut"]


def test_a_postal_import_in_the_background_ends_with_the_game_and_its_clocks(
        api, arbiter, anna, postal_eventful, settings, django_capture_on_commit_callbacks):
    settings.IMPORT_INLINE_GAMES = 0  # one game is a background import here
    text = export_text(api, anna, postal_eventful)
    target = postal_target(arbiter)
    with django_capture_on_commit_callbacks(execute=True):
        r = post(api, arbiter, target, text)
    assert r.status_code == 202, r.json()
    job = api(arbiter).get(r["Location"]).json()
    assert (job["status"], job["refusals"]) == ("done", [])
    (copy,) = job["games"]
    original = api_clock(api, anna, postal_eventful)["players"]
    assert api_clock(api, anna, Game.objects.get(pk=copy))["players"] == original


def test_a_live_tournament_takes_no_import(api, arbiter, anna, postal_eventful):
    from .test_live_exports import FISCHER_90_30, tournament

    r = post(api, arbiter, tournament(arbiter, FISCHER_90_30), export_text(api, anna, postal_eventful))
    assert r.status_code == 400 and r.json()["field"] == "tournament", r.json()


def test_the_postal_tournament_page_imports_corrs_postal_pgn_in_french(api, arbiter, anna, postal_eventful):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    text = export_text(api, anna, postal_eventful)
    target = postal_target(arbiter)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(arbiter)
    page = client.get(f"/tournaments/{target.pk}/").content.decode()
    assert 'id="import-form"' in page and "et de réception [%ccrd]" in page
    refused = text.replace("[%ccnotice black 2", "[%ccnotice white 2")
    r = client.post(f"/tournaments/{target.pk}/import/", {"pgn": SimpleUploadedFile("game.pgn", refused.encode())},
                    follow=True)
    assert ("white&#x27;s [%ccnotice] impossible_move: c&#x27;est le tour des noirs : seul le joueur au trait signale"
            " le coup du partenaire") in r.content.decode()
    r = client.post(f"/tournaments/{target.pk}/import/", {"pgn": SimpleUploadedFile("game.pgn", text.encode())},
                    follow=True)
    (copy,) = Game.objects.filter(tournament=target)
    assert api_clock(api, anna, copy)["players"] == api_clock(api, anna, postal_eventful)["players"]
