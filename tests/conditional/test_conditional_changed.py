"""A conditional line built for a position the game no longer has (issue 28): an arbiter corrected or withdrew a
move, or reopened the game. The owner is warned on the page and by ``GET .../conditional/``, the line never
fires, and the owner may replace it (checked from the position now) or cancel it."""

from __future__ import annotations

import pytest

from corr.models import ConditionalTree

from .conftest import post
from .test_conditional_api import move, moves_of, tree_of
from .test_conditional_page import client, text

pytestmark = pytest.mark.django_db

LINE = [{"if": "e5", "then": "Nf3"}]
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def page(user, game, language="en") -> str:
    response = client(user, language).get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return text(response.content.decode())


def correct_first_move(api, arbiter, game, notation="d4"):
    r = api(arbiter).post(f"/api/games/{game.pk}/corrections/",
                          {"event": 1, "notation": notation, "note": "the move was d4"}, format="json")
    assert r.status_code == 201, r.json()


def test_a_line_in_its_position_has_no_warning(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4", conditional=LINE)
    tree = tree_of(api, anna, server_game)
    assert (tree["position"], tree["changed"], tree["warning"]) == (AFTER_E4, None, None)
    assert "will not fire" not in page(anna, server_game)


def test_a_corrected_move_warns_the_owner_and_the_line_never_fires(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4", conditional=LINE)
    correct_first_move(api, arbiter, server_game)
    tree = tree_of(api, anna, server_game)
    assert tree["changed"] == "position" and tree["conditional"] == [{"if": "e5", "then": "Nf3", "next": []}]
    assert tree["warning"] == (
        "This line was built for the position after white's move 1, and the game's position is no longer that one"
        " (a move was corrected or withdrawn since): it will not fire. Replace it from the current position or"
        " cancel it.")
    words = page(anna, server_game)
    assert tree["warning"] in words and "Cancel the line" in words and "Replace the line" in words
    assert "построен для позиции после хода 1 (белые)" in page(anna, server_game, "ru")
    assert "construite pour la position après le coup 1 des blancs" in page(anna, server_game, "fr")
    for user in (boris, arbiter):  # the partner and the arbiter hear nothing of it
        words = page(user, server_game)
        assert "will not fire" not in words and "Your conditional line" not in words and "→" not in words
    assert tree_of(api, boris, server_game)["warning"] is None
    # 1. d4 e5: the line's 2. Nf3 is legal here too, but it was meant after 1. e4: it does not fire.
    body = move(api, boris, server_game, 1, "e5")
    assert body["to_move"] == "white"
    assert [m[:3] for m in moves_of(api, anna, server_game)] == [
        ("white", 1, "e4"), ("white", 1, "d4"), ("black", 1, "e5")]
    assert not ConditionalTree.objects.filter(game=server_game).exists()


def test_the_owner_replaces_the_changed_line_from_the_page_and_it_fires(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4", conditional=LINE)
    correct_first_move(api, arbiter, server_game)
    response = client(anna).post(f"/games/{server_game.pk}/conditional/", {"conditional": "e5 Nf3"})
    assert response.status_code == 302, text(response.content.decode())[-1500:]
    tree = tree_of(api, anna, server_game)
    assert tree["changed"] is None and tree["position"].startswith("rnbqkbnr/pppppppp/8/8/3P4/")
    assert "will not fire" not in page(anna, server_game)
    move(api, boris, server_game, 1, "e5")
    assert moves_of(api, anna, server_game)[-1][:4] == ("white", 2, "Nf3", "conditional")


def test_the_owner_cancels_the_changed_line(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4", conditional=LINE)
    correct_first_move(api, arbiter, server_game)
    assert client(anna).post(f"/games/{server_game.pk}/conditional/cancel/").status_code == 302
    assert tree_of(api, anna, server_game)["conditional"] == []
    assert "will not fire" not in page(anna, server_game)


def test_a_withdrawn_move_warns_the_owner_now_on_move(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4", conditional=LINE)
    r = api(arbiter).post(f"/api/games/{server_game.pk}/withdrawals/", {"event": 1, "note": "sent by mistake"},
                          format="json")
    assert r.status_code == 201, r.json()
    assert tree_of(api, anna, server_game)["changed"] == "position"
    words = page(anna, server_game)
    assert "it will not fire" in words and "On your move, send a new line with the move." in words
    move(api, anna, server_game, 1, "d4")  # by hand, with no line: the old one goes
    assert tree_of(api, anna, server_game)["conditional"] == []


def test_a_reopened_game_warns_the_owner_and_the_line_never_fires(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4", conditional=LINE)
    for path, body in (("result/", {"result": "1-0", "termination": "by mistake"}),
                       ("reopen/", {"note": "the result was entered by mistake", "overstep": "keep"})):
        r = post(api, arbiter, server_game, path, body)
        assert r.status_code in (200, 201), r.json()
    tree = tree_of(api, anna, server_game)
    assert tree["changed"] == "reopened" and tree["position"] == AFTER_E4
    assert tree["warning"] == ("The game was reopened after this line was sent: it will not fire. Replace it (by the"
                               " same line if you wish) or cancel it.")
    assert tree["warning"] in page(anna, server_game)
    move(api, boris, server_game, 1, "e5")
    assert [m[:3] for m in moves_of(api, anna, server_game)] == [("white", 1, "e4"), ("black", 1, "e5")]
    # Sent again after the reopening, a line fires as ever.
    move(api, anna, server_game, 2, "Nf3", conditional=[{"if": "Nc6", "then": "Bb5"}])
    assert tree_of(api, anna, server_game)["changed"] is None
    move(api, boris, server_game, 2, "Nc6")
    assert moves_of(api, anna, server_game)[-1][:4] == ("white", 3, "Bb5", "conditional")
