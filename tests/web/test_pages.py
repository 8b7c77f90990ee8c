"""The web pages: sign-in, my games, a game with its clock and forms, the arbiter's tournament page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from corr.models import GameEvent

pytestmark = pytest.mark.django_db


def signed_in(user, password) -> Client:
    client = Client()
    response = client.post("/login/", {"username": user.username, "password": password})
    assert response.status_code == 302, "sign-in failed"
    return client


def test_pages_need_a_sign_in(postal_game):
    response = Client().get(f"/games/{postal_game.pk}/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_my_games_lists_the_clock_with_the_deadline(postal_game, anna):
    page = signed_in(anna, "anna-pass-1").get("/games/").content.decode()
    assert f"/games/{postal_game.pk}/" in page
    assert "2026-02-09" in page  # white's deadline: start 01-10 + 30 days


def test_the_game_page_shows_the_same_clock_as_the_api(api, postal_game, anna, boris):
    api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-01-12"}, format="json")
    clock = api(anna).get(f"/api/games/{postal_game.pk}/").json()["clock"]["players"]["black"]
    page = signed_in(boris, "boris-pass-1").get(f"/games/{postal_game.pk}/").content.decode()
    card = re.search(r'<div class="card[^"]*" id="account-black">(.*?)</svg>', page, re.S).group(1)
    over = -clock["control"]["remaining_days"]  # the control's days: black's move 1 is 14 days over them
    assert f'<b class="big remaining time-left">{over} days over the control</b>' in card
    assert f'<b class="big deadline">{clock["deadline"]}</b>' in card
    assert "presumed received on" in page
    assert "Submit move" in page


def test_a_move_submitted_through_the_form_is_stored(postal_game, anna):
    client = signed_in(anna, "anna-pass-1")
    response = client.post(f"/games/{postal_game.pk}/move/", {"number": 1, "notation": "e4",
                                                              "sent_on": "12.01.2026", "mail": "ordinary"})
    assert response.status_code == 302
    move = GameEvent.objects.get(kind="move")
    assert (move.notation, move.sent_on.isoformat()) == ("e4", "2026-01-12")


def test_a_refused_form_says_why_and_stores_nothing(postal_game, boris):
    client = signed_in(boris, "boris-pass-1")
    response = client.post(f"/games/{postal_game.pk}/move/", {"number": 1, "sent_on": "2026-01-12"}, follow=True)
    assert "white&#x27;s turn" in response.content.decode()
    assert GameEvent.objects.count() == 0


def test_an_ambiguous_date_is_refused_not_guessed(postal_game, anna):
    client = signed_in(anna, "anna-pass-1")
    response = client.post(f"/games/{postal_game.pk}/move/", {"number": 1, "sent_on": "01/02/2026"}, follow=True)
    assert "must be a date written YYYY-MM-DD or DD.MM.YYYY" in response.content.decode()
    assert GameEvent.objects.count() == 0


def test_the_arbiter_sees_the_tournament_by_deadline_and_assesses_a_penalty(postal_game, arbiter, anna):
    client = signed_in(arbiter, "arbiter-pass-1")
    page = client.get(f"/tournaments/{postal_game.tournament_id}/").content.decode()
    assert "Games by deadline" in page and "2026-02-09" in page
    client.post(f"/games/{postal_game.pk}/penalty/", {"player": "white", "reason": "address_error"})
    assert GameEvent.objects.get().kind == "penalty"


def test_a_participant_cannot_open_the_arbiter_page_or_another_game(postal_game, eve, anna):
    client = signed_in(eve, "eve-pass-1")
    assert client.get(f"/games/{postal_game.pk}/").status_code == 403
    assert client.get(f"/tournaments/{postal_game.tournament_id}/").status_code == 403
    assert signed_in(anna, "anna-pass-1").post(f"/games/{postal_game.pk}/penalty/",
                                               {"player": "black", "reason": "address_error"},
                                               follow=True).status_code == 403
    assert GameEvent.objects.count() == 0


def test_a_long_delay_and_a_result_are_asked_again_before_they_are_stored(postal_game, arbiter):
    client = Client()
    client.force_login(arbiter)
    page = client.post(f"/games/{postal_game.pk}/delay/", {"player": "white", "days": 1000}).content.decode()
    assert "Please confirm" in page and "more than 30 days" in page
    assert GameEvent.objects.count() == 0
    client.post(f"/games/{postal_game.pk}/delay/", {"player": "white", "days": 1000, "confirmed": "on"})
    assert GameEvent.objects.get().days == 1000
    page = client.post(f"/games/{postal_game.pk}/result/", {"result": "1-0"}).content.decode()
    assert "Please confirm" in page
    postal_game.refresh_from_db()
    assert postal_game.status == "ongoing"


def test_the_game_file_downloads_as_game_id_json(postal_game, anna):
    response = signed_in(anna, "anna-pass-1").get(f"/games/{postal_game.pk}/file/")
    assert response["Content-Disposition"] == f'attachment; filename="game-{postal_game.pk}.json"'
    assert response.json()["meta"]["game"] == postal_game.pk


def test_an_arbiter_who_plays_sees_no_arbiter_tools(postal, arbiter, boris, frozen):
    from corr.games import services
    from tests.conftest import TODAY

    game = services.game_create(by=arbiter, tournament=postal, white=arbiter, black=boris, today=TODAY)
    client = Client()
    client.force_login(arbiter)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Assess penalty" not in page and "another arbiter of the tournament rules on it" in page


def test_a_404_and_a_403_are_pages_of_the_site(postal_game, eve):
    client = Client()
    client.force_login(eve)
    assert "Back to my games" in client.get(f"/games/{postal_game.pk}/").content.decode()
    assert "Nothing here" in client.get("/games/999999/").content.decode()


def test_a_preset_tournament_header_says_its_real_time_control(arbiter, frozen):
    from datetime import date

    from corr.games import services

    # A server tournament: iccf_10_50 counts whole days (issue 22), which a postal tournament refuses.
    t = services.tournament_create(by=arbiter, name="ICCF", official_start=date(2026, 1, 10), mode="server",
                                   preset="iccf_10_50")
    client = Client()
    client.force_login(arbiter)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "10 moves in 50 days" in page and "10 moves in 30 days" not in page
