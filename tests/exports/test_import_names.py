"""An ICCF export's players matched to accounts by the arbiter (issue 37): never refused for their names, never
guessed, in the API (``players``) and on the import page."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import User
from corr.games import services
from corr.games.services.import_names import account_for, candidates, unmatched
from corr.models import Game, GameEvent, ImportJob

pytestmark = pytest.mark.django_db

ICCF = """[Event "ICCF cup"]
[Site "ICCF"]
[Date "2026.02.20"]
[White "Mäkinen, Eero"]
[Black "Smith, John"]
[WhiteIccfId "461234"]
[BlackIccfId "90001"]
[Result "*"]

1. d4 {[%ccsnt 2026.02.21,10:00]} d5 {[%ccsnt 2026.02.21,18:30]} 2. c4 {[%ccsnt 2026.02.23,09:15]} *
"""


@pytest.fixture
def target(arbiter):
    return services.tournament_create(by=arbiter, name="ICCF cup (imported)", official_start=date(2026, 2, 20),
                                      mode="server", preset="iccf_10_50", time_zone="Europe/Moscow")


@pytest.fixture
def eero(db):
    return User.objects.create_user("eero", "eero@example.org", "eero-pass-123", first_name="Eero",
                                    last_name="Mäkinen")


def test_candidates_by_full_name_in_either_order_by_e_mail_and_by_iccf_id(eero, anna):
    anna.iccf_id = "90001"
    anna.save()
    assert [u.username for u in candidates("Mäkinen, Eero")] == ["eero"]
    assert [u.username for u in candidates("eero mäkinen")] == ["eero"]
    assert [u.username for u in candidates("eero@example.org")] == ["eero"]
    assert [u.username for u in candidates("Smith, John", "90001")] == ["anna"]
    assert candidates("Mäkinen, Sirkka") == []
    assert unmatched(ICCF, {}) == [{"name": "Mäkinen, Eero", "iccf_id": "461234", "candidates": ["eero"]},
                                   {"name": "Smith, John", "iccf_id": "90001", "candidates": ["anna"]}]
    assert unmatched(ICCF, {"Mäkinen, Eero": "eero", "Smith, John": "anna"}) == []


def test_an_account_made_for_a_player_has_a_free_username_the_name_and_no_password(eero):
    User.objects.create_user("john-smith", "js@example.org", "x-pass-123")
    user = account_for("Smith, John", "90001")
    assert (user.username, user.first_name, user.last_name, user.iccf_id) == ("john-smith-2", "John", "Smith", "90001")
    assert not user.has_usable_password()


def test_the_api_imports_with_the_arbiters_mapping_and_names_the_unmatched(api, arbiter, target, eero, anna, frozen):
    r = api(arbiter).post(f"/api/tournaments/{target.pk}/import/", {"pgn": ICCF}, format="json")
    assert r.status_code == 400 and r.json()["unmatched"][0] == {"name": "Mäkinen, Eero", "iccf_id": "461234",
                                                                 "candidates": ["eero"]}
    assert not Game.objects.exists()
    r = api(arbiter).post(f"/api/tournaments/{target.pk}/import/",
                          {"pgn": ICCF, "players": {"Mäkinen, Eero": "eero", "Smith, John": "nobody"}},
                          format="json")
    assert r.status_code == 400 and r.json()["field"] == "players" and "nobody" in r.json()["detail"]
    r = api(arbiter).post(f"/api/tournaments/{target.pk}/import/",
                          {"pgn": ICCF, "players": {"Mäkinen, Eero": "eero", "Smith, John": "anna"}},
                          format="json")
    assert r.status_code == 201, r.json()
    game = Game.objects.get()
    assert (game.white, game.black) == (eero, anna)
    assert [e.notation for e in GameEvent.objects.filter(game=game, kind="move")] == ["d4", "d5", "c4"]


@pytest.mark.parametrize("language, words", [("en", "Match the players to accounts"),
                                             ("ru", "Сопоставьте игроков с учётными записями"),
                                             ("fr", "Associez les joueurs à des comptes")])
def test_the_page_asks_for_the_names_then_imports(arbiter, target, eero, frozen, django_capture_on_commit_callbacks,
                                                  language, words):
    page = Client(HTTP_ACCEPT_LANGUAGE=language)
    page.force_login(arbiter)
    upload = SimpleUploadedFile("iccf.pgn", ICCF.encode(), "application/x-chess-pgn")
    r = page.post(f"/tournaments/{target.pk}/import/", {"pgn": upload})
    job = ImportJob.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{target.pk}/imports/{job.pk}/names/"
    text = page.get(r["Location"]).content.decode()
    assert words in text and "Mäkinen, Eero" in text and "Smith, John" in text
    assert '<option value="eero" selected>eero (Eero Mäkinen)</option>' in text  # the one candidate, shown
    r = page.post(f"/tournaments/{target.pk}/imports/{job.pk}/names/", {"choice-0": "eero", "choice-1": ""})
    assert r.status_code == 400 and not Game.objects.exists()  # Smith, John is not matched yet
    with django_capture_on_commit_callbacks(execute=True):
        r = page.post(f"/tournaments/{target.pk}/imports/{job.pk}/names/", {"choice-0": "eero",
                                                                             "choice-1": "__new__"})
    assert r.status_code == 302
    game = Game.objects.get()
    assert (game.white.username, game.black.username, game.black.get_full_name()) == ("eero", "john-smith",
                                                                                       "John Smith")
    job.refresh_from_db()
    assert job.status == "done" and job.players == {"Mäkinen, Eero": "eero", "Smith, John": "john-smith"}
