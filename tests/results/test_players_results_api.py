"""Players' results in server games through the API (issue 26): resign, offer, accept, decline a draw."""

from __future__ import annotations

import pytest

from corr.models import GameEvent

pytestmark = pytest.mark.django_db


def post(api, user, game, path, body=None):
    return api(user).post(f"/api/games/{game.pk}/{path}", body or {}, format="json")


def move(api, user, game, number, notation):
    r = post(api, user, game, "moves/", {"number": number, "notation": notation})
    assert r.status_code == 201, r.json()
    return r.json()


def history(api, user, game):
    """The players' result lines of the history (an overstep case of the frozen date has lines too)."""
    lines = api(user).get(f"/api/games/{game.pk}/history/").json()
    return [line for line in lines if line["kind"] in ("result", "draw_offer", "draw_decline")]


def test_a_resignation_ends_the_game_for_the_partner_and_is_a_history_line(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4")
    r = post(api, anna, server_game, "resign/")  # not on move: a player resigns at any time (FIDE 5.1.2)
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "white resigned")
    assert body["to_move"] is None and body["draw_offer"] is None
    got = api(boris).get(f"/api/games/{server_game.pk}/").json()
    assert got == body  # the game as GET shows it
    line = history(api, boris, server_game)[-1]
    assert (line["kind"], line["player"], line["entered_by"], line["note"]) == (
        "result", "white", "anna", "white resigned: 0-1")
    r = post(api, boris, server_game, "moves/", {"number": 1, "notation": "e5"})
    assert r.status_code == 409 and r.json()["field"] == "game"
    assert post(api, boris, server_game, "resign/").status_code == 409


def test_an_offer_accepted_by_the_player_to_move_draws_the_game(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4")
    r = post(api, anna, server_game, "draw-offer/")
    assert r.status_code == 201, r.json()
    offer = r.json()["draw_offer"]
    assert offer["by"] == "white"
    assert api(boris).get(f"/api/games/{server_game.pk}/").json()["draw_offer"] == offer
    r = post(api, boris, server_game, "draw-offer/accept/")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["status"], body["result"], body["termination"], body["draw_offer"]) == (
        "finished", "1/2-1/2", "draw agreed", None)
    kinds = [(h["kind"], h["player"], h["note"]) for h in history(api, anna, server_game)[-2:]]
    assert kinds == [("draw_offer", "white", "white offers a draw"),
                     ("result", "black", "draw agreed: black accepted white's offer (1/2-1/2)")]


def test_a_declined_offer_is_a_line_and_the_game_goes_on(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4")
    post(api, anna, server_game, "draw-offer/")
    r = post(api, boris, server_game, "draw-offer/decline/")
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "ongoing" and r.json()["draw_offer"] is None and r.json()["to_move"] == "black"
    assert history(api, anna, server_game)[-1]["kind"] == "draw_decline"
    r = post(api, boris, server_game, "draw-offer/accept/")
    assert r.status_code == 409 and "has not offered a draw" in r.json()["detail"]


def test_the_partners_move_lapses_the_offer_and_nothing_is_accepted_out_of_turn(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4")
    post(api, anna, server_game, "draw-offer/")
    body = move(api, boris, server_game, 1, "e5")  # the reply rejects it (FIDE 9.1.2.2)
    assert body["draw_offer"] is None
    assert api(anna).get(f"/api/games/{server_game.pk}/").json()["draw_offer"] is None
    before = GameEvent.objects.filter(game=server_game).count()
    r = post(api, boris, server_game, "draw-offer/accept/")  # out of turn: white is to move
    assert r.status_code == 409 and r.json()["field"] == "game"
    assert post(api, anna, server_game, "draw-offer/accept/").status_code == 409  # lapsed: nothing to accept
    assert post(api, boris, server_game, "draw-offer/decline/").status_code == 409
    assert GameEvent.objects.filter(game=server_game).count() == before


def test_an_offer_comes_after_ones_move_and_stands_once(api, server_game, anna, boris):
    r = post(api, anna, server_game, "draw-offer/")  # white is to move: make the move first (FIDE 9.1.2.1)
    assert r.status_code == 409 and "FIDE 9.1.2.1" in r.json()["detail"]
    move(api, anna, server_game, 1, "e4")
    assert post(api, anna, server_game, "draw-offer/").status_code == 201
    assert post(api, anna, server_game, "draw-offer/").status_code == 409  # it stands already
    assert post(api, anna, server_game, "draw-offer/accept/").status_code == 409  # not one's own


def test_only_players_of_server_games_and_the_arbiter_still_reopens(api, server_game, postal_game, anna, boris,
                                                                   arbiter, eve):
    assert post(api, eve, server_game, "resign/").status_code == 403
    assert post(api, arbiter, server_game, "resign/").status_code == 403
    r = post(api, anna, postal_game, "resign/")
    assert r.status_code == 400 and r.json()["field"] == "game"
    assert "arbiter records the result" in r.json()["detail"]
    assert post(api, anna, server_game, "resign/", {"why": "tired"}).status_code == 400  # no body keys
    assert post(api, anna, server_game, "resign/").status_code == 201
    r = post(api, arbiter, server_game, "reopen/", {"note": "resigned by mistake, says the appeal", "overstep": "keep"})
    assert r.status_code == 201 and r.json()["status"] == "ongoing" and r.json()["result"] == ""
    move(api, anna, server_game, 1, "d4")
