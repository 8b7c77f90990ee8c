"""Conditional moves in Russian draughts server games (issue 28): a tree is checked node by node on pydraughts'
board, stored as corr writes draughts moves (``c3-d4``, ``c3:e5``), and matched as a move however the partner
writes it (case, ``x``, ``:`` or ``-``); an illegal node is refused naming it; a game whose stored moves corr
cannot read has no position to check a tree from, and says so."""

from __future__ import annotations

from ..support.legal_moves import store_unchecked

import pytest
from django.utils import translation

from corr.games import services
from corr.games.boards import DraughtsBoard
from corr.games.conditional import tree_checked
from corr.games.errors import InvalidInput
from corr.models import ConditionalTree

from ..conftest import TODAY
from .test_conditional_api import move, moves_of, post, tree_of
from .test_conditional_page import client, text

pytestmark = pytest.mark.django_db

# White's line sent with 1. c3-d4: 1... b6-c5 2. d4:b6 (forced) a7:c5 3. b2-c3 c5-d4 4. e3:c5, or 2... c7:a5
# 3. b2-c3; or 1... f6-g5 2. g3-f4. Written as a player might: upper case, "x" for a capture.
LINE = [{"if": "B6-C5", "then": "d4xb6", "next": [
            {"if": "a7xc5", "then": "b2-c3", "next": [{"if": "c5-d4", "then": "e3xc5"}]},
            {"if": "c7:a5", "then": "b2-c3"}]},
        {"if": "f6-g5", "then": "g3-f4"}]
STORED = [{"if": "b6-c5", "then": "d4:b6", "next": [
              {"if": "a7:c5", "then": "b2-c3", "next": [{"if": "c5-d4", "then": "e3:c5", "next": []}]},
              {"if": "c7:a5", "then": "b2-c3", "next": []}]},
          {"if": "f6-g5", "then": "g3-f4", "next": []}]
NOTE = "conditional reply from the line sent with move 1 (50.4.8)"


@pytest.fixture
def draughts_game(arbiter, anna, boris, frozen):
    league = services.tournament_create(by=arbiter, name="Draughts league", official_start=TODAY, mode="server",
                                        kind="draughts")
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)


def test_a_draughts_tree_is_stored_as_corr_writes_moves_and_fires_twice_then_drops(api, draughts_game, anna, boris):
    game = draughts_game
    move(api, anna, game, 1, "c3-d4", conditional=LINE)
    tree = tree_of(api, anna, game)
    assert tree["conditional"] == STORED
    assert tree["position"] == "B:Wa1,e3,g3,d4,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8 1"
    body = move(api, boris, game, 1, "B6-C5")  # another case: the same move, and white's capture is played
    assert body["to_move"] == "black" and body["clock"]["players"]["white"]["made"] == 2
    body = move(api, boris, game, 2, "a7-c5")  # a capture written with "-": the same move as "a7:c5"
    assert body["to_move"] == "black"
    assert tree_of(api, anna, game)["conditional"] == [{"if": "c5-d4", "then": "e3:c5", "next": []}]
    body = move(api, boris, game, 3, "h6-g5")  # not c5-d4: the line is dropped, white is to move
    assert body["to_move"] == "white" and tree_of(api, anna, game)["conditional"] == []
    assert not ConditionalTree.objects.exists()
    assert moves_of(api, anna, game) == [
        # Stored as corr writes them (issue 36): lower case, a capture with ":".
        ("white", 1, "c3-d4", "", ""), ("black", 1, "b6-c5", "", ""), ("white", 2, "d4:b6", "conditional", NOTE),
        ("black", 2, "a7:c5", "", ""), ("white", 3, "b2-c3", "conditional", NOTE), ("black", 3, "h6-g5", "", "")]


@pytest.mark.parametrize("language, words", [
    ("en", "conditional[0].next[0].then: white's move 3 b2-b3 is not a legal move after 2... a7:c5"),
    ("ru", "conditional[0].next[0].then"),
    ("fr", "conditional[0].next[0].then"),
])
def test_an_illegal_draughts_node_is_refused_naming_it_and_nothing_is_stored(api, draughts_game, anna, language,
                                                                            words):
    tree = [{"if": "b6-c5", "then": "d4:b6", "next": [{"if": "a7:c5", "then": "b2-b3"}]}]
    r = post(api, anna, draughts_game, "moves/", {"number": 1, "notation": "c3-d4", "conditional": tree},
             HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400, r.json()
    assert r.json()["field"] == "conditional[0].next[0].then" and words in r.json()["detail"]
    assert "b2-b3" in r.json()["detail"]
    if language != "en":
        assert "not a legal move" not in r.json()["detail"]
    assert moves_of(api, anna, draughts_game) == [] and not ConditionalTree.objects.exists()


@pytest.mark.parametrize("tree, field, words", [
    # 2. d4:b6 is forced (a capture is compulsory): d4-e5 is no legal reply.
    ([{"if": "b6-c5", "then": "d4-e5"}], "conditional[0].then",
     "white's move 2 d4-e5 is not a legal move after 1... b6-c5"),
    ([{"if": "f6-g5", "then": "g3-f4"}, {"if": "F6xG5", "then": "g3-h4"}], "conditional[1].if",
     "f6-g5 is already answered by conditional[0] at this level"),
    ([{"if": "32-28", "then": "g3-f4"}], "conditional[0].if",
     "black's move 1 32-28 is not written as a Russian draughts move: write c3-d4, or c3:e5 for a capture"),
])
def test_a_draughts_tree_is_refused_naming_the_node_and_the_rule(api, draughts_game, anna, tree, field, words):
    r = post(api, anna, draughts_game, "moves/", {"number": 1, "notation": "c3-d4", "conditional": tree})
    assert r.status_code == 400, r.json()
    assert (r.json()["field"], words in r.json()["detail"]) == (field, True), r.json()
    assert not ConditionalTree.objects.exists()


def test_a_game_whose_moves_corr_cannot_read_refuses_a_tree_naming_the_move(api, draughts_game, anna, boris):
    game = draughts_game
    # International draughts' numbers: refused now (issue 36); a game stored before keeps them, and no position
    # can be read from it.
    r = post(api, anna, game, "moves/", {"number": 1, "notation": "32-28",
                                         "conditional": [{"if": "19-23", "then": "28x19"}]})
    assert r.status_code == 400 and r.json()["field"] == "notation", r.json()
    assert r.json()["detail"] == ("32-28 is not written as a Russian draughts move (c3-d4, or c3:e5 for a capture):"
                                  " white to move in the starting position")
    store_unchecked(game, anna, "white", 1, "32-28")
    r = api(anna).put(f"/api/games/{game.pk}/conditional/", {"conditional": [{"if": "19-23", "then": "28x19"}]},
                      format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert r.status_code == 400 and r.json()["field"] == "conditional", r.json()
    assert "32-28" in r.json()["detail"] and "cannot be played" not in r.json()["detail"]
    r = post(api, boris, game, "moves/", {"number": 1, "notation": "19-23",
                                          "conditional": [{"if": "28x19", "then": "14x23"}]})
    assert r.status_code == 400 and r.json()["field"] == "conditional", r.json()
    assert r.json()["detail"] == (
        "white's move 1 32-28 cannot be played on a Russian draughts board (moves written c3-d4, c3:e5 for a"
        " capture): conditional moves are checked from the game's position")
    move(api, boris, game, 1, "19-23")  # without a tree the move is taken as written: the game goes on
    assert not ConditionalTree.objects.exists()


def test_a_corrected_draughts_move_warns_the_owner_after_which_move_the_line_was_built(api, draughts_game, anna,
                                                                                       boris, arbiter):
    game = draughts_game
    move(api, anna, game, 1, "c3-d4", conditional=[{"if": "f6-g5", "then": "g3-f4"}])
    r = api(arbiter).post(f"/api/games/{game.pk}/corrections/",
                          {"event": 1, "notation": "c3-b4", "note": "the move was c3-b4"}, format="json")
    assert r.status_code == 201, r.json()
    tree = tree_of(api, anna, game)
    assert tree["changed"] == "position"
    assert tree["warning"].startswith("This line was built for the position after white's move 1, and the game's")
    move(api, boris, game, 1, "f6-g5")  # legal after 1. c3-b4 too, but the line was meant after 1. c3-d4
    assert [m[:3] for m in moves_of(api, anna, game)][-1] == ("black", 1, "f6-g5")
    assert not ConditionalTree.objects.exists()


def test_the_draughts_game_page_takes_a_line_in_text_and_shows_it_indented(draughts_game, anna, boris):
    game = draughts_game
    html = client(anna).get(f"/games/{game.pk}/").content.decode()
    assert 'name="conditional"' in html and "b6-c5 d4:b6" in html  # the example in draughts notation
    assert 'id="conditional-board"' not in html  # no board is drawn for draughts: the text lines are the way
    response = client(anna).post(f"/games/{game.pk}/move/", {
        "number": 1, "notation": "c3-d4", "conditional": "b6-c5 d4xb6\n  a7xc5 b2-c3\nf6-g5 g3-f4"})
    assert response.status_code == 302
    words = text(client(anna).get(f"/games/{game.pk}/").content.decode())
    assert "Your conditional line, sent with move 1" in words
    assert "b6-c5 → d4:b6 a7:c5 → b2-c3 f6-g5 → g3-f4" in words
    response = client(anna, "fr").post(f"/games/{game.pk}/conditional/", {"conditional": "b6-c5 d4-e5"})
    assert response.status_code == 400
    words = text(response.content.decode())
    assert "ligne 1" in words.lower() and "d4-e5" in words


def test_a_draughts_reply_named_by_its_ends_that_two_captures_fit_is_refused_naming_the_node_and_both():
    # After 1... h6-g5, white's king on a5 reaches h8 over b4 and g7, over b4, f2, f4 and g7, or over b4, f2,
    # g5 and g7.
    board = DraughtsBoard("B:WKa5:Bc5,f4,f2,g7,c1,b6,h6,b4", 1)
    with pytest.raises(InvalidInput) as refused:
        tree_checked([{"if": "h6-g5", "then": "a5:h8"}], board)
    assert refused.value.field == "conditional[0].then"
    with translation.override("en"):
        message = refused.value.message
    assert message == ("conditional[0].then: white's move 2 a5:h8 fits several captures: name the"
                       " squares between (a5:c3:h8, a5:e1:g3:e5:h8, a5:e1:h4:f6:h8)")
    checked = tree_checked([{"if": "h6-g5", "then": "A5xE1xG3xH8"}], board)
    assert checked == [{"if": "h6-g5", "then": "a5:e1:g3:h8", "next": []}]
