"""Players' results on the game page (issue 26): the buttons, the confirmations, the offer in words."""

from __future__ import annotations

import pytest
from django.test import Client

from corr.games import services
from corr.models import GameEvent

from ..conftest import TODAY

pytestmark = pytest.mark.django_db


def page_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(client, game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def test_resigning_asks_first_then_ends_the_game(server_game, anna, boris):
    client = page_of(anna)
    page = text(client, server_game)
    assert "Resign…" in page and f'action="/games/{server_game.pk}/resign/"' in page
    page = client.post(f"/games/{server_game.pk}/resign/", {}).content.decode()
    assert "Please confirm" in page and f"Resign game #{server_game.pk}? boris wins" in page
    assert not GameEvent.objects.filter(game=server_game, kind="result").exists()
    r = client.post(f"/games/{server_game.pk}/resign/", {"confirmed": "on"})
    assert r.status_code == 302
    page = text(page_of(boris), server_game)
    assert "finished 0-1" in page and "white resigned" in page and "Resign…" not in page


def test_an_offer_shows_to_the_partner_with_accept_and_decline(server_game, anna, boris):
    services.move_submit(game=server_game, by=anna, number=1, notation="e4", today=TODAY)
    white = page_of(anna)
    assert "Offer a draw…" in text(white, server_game)
    page = white.post(f"/games/{server_game.pk}/draw-offer/", {}).content.decode()
    assert "Please confirm" in page and f"Offer a draw in game #{server_game.pk}? boris may accept it" in page
    assert "white offers a draw." not in text(page_of(boris), server_game)  # nothing offered before the answer
    assert white.post(f"/games/{server_game.pk}/draw-offer/", {"confirmed": "on"}).status_code == 302
    assert "You offered a draw" in text(white, server_game) and "Offer a draw…" not in text(white, server_game)
    black = page_of(boris)
    page = text(black, server_game)
    assert "white offers a draw." in page and "Accept the draw…" in page and "Decline the draw" in page
    page = black.post(f"/games/{server_game.pk}/draw-offer/accept/", {}).content.decode()
    assert "Please confirm" in page and "The game ends ½-½" in page
    black.post(f"/games/{server_game.pk}/draw-offer/accept/", {"confirmed": "on"})
    assert "finished 1/2-1/2" in text(black, server_game)
    assert "draw agreed: black accepted white&#x27;s offer" in text(white, server_game)


def test_a_declined_offer_leaves_a_line_and_a_refusal_says_why(server_game, anna, boris):
    services.move_submit(game=server_game, by=anna, number=1, notation="e4", today=TODAY)
    page_of(anna).post(f"/games/{server_game.pk}/draw-offer/", {"confirmed": "on"})
    black = page_of(boris)
    assert black.post(f"/games/{server_game.pk}/draw-offer/decline/", {}).status_code == 302
    page = text(black, server_game)
    assert "draw offer declined" in page and "white offers a draw." not in page
    r = black.post(f"/games/{server_game.pk}/draw-offer/accept/", {"confirmed": "on"})
    assert r.status_code == 409 and "Not saved." in r.content.decode()
    assert "White has not offered a draw" in r.content.decode()


def test_postal_games_show_no_players_result(postal_game, anna):
    page = text(page_of(anna), postal_game)
    assert "Resign…" not in page and "Offer a draw" not in page
