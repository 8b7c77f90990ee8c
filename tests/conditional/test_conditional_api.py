"""Conditional moves through the API (issue 28): a tree sent with a move, fired by the partner's moves."""

from __future__ import annotations

import chess
import pytest

from corr.models import ConditionalTree

pytestmark = pytest.mark.django_db

# White's line sent with 1. e4: 1... e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4, or 1... c5 2. Nf3.
RUY = [{"if": "e5", "then": "Nf3", "next": [
           {"if": "Nc6", "then": "Bb5", "next": [{"if": "a6", "then": "Ba4"}]},
           {"if": "Nf6", "then": "Nxe5"}]},
       {"if": "c5", "then": "Nf3"}]


def post(api, user, game, path, body=None, **headers):
    return api(user).post(f"/api/games/{game.pk}/{path}", body or {}, format="json", **headers)


def move(api, user, game, number, notation, **extra):
    r = post(api, user, game, "moves/", {"number": number, "notation": notation, **extra})
    assert r.status_code == 201, r.json()
    return r.json()


def moves_of(api, user, game):
    return [(h["player"], h["number"], h["notation"], h["variant"], h["note"])
            for h in api(user).get(f"/api/games/{game.pk}/history/").json() if h["kind"] == "move"]


def tree_of(api, user, game):
    r = api(user).get(f"/api/games/{game.pk}/conditional/")
    assert r.status_code == 200, r.json()
    return r.json()


LINE = "conditional reply from the line sent with move 1 (50.4.8)"


def test_a_three_level_tree_fires_twice_and_then_drops_on_an_unexpected_move(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4", conditional=RUY)
    assert tree_of(api, anna, server_game)["conditional"] == [
        {"if": "e5", "then": "Nf3", "next": [
            {"if": "Nc6", "then": "Bb5", "next": [{"if": "a6", "then": "Ba4", "next": []}]},
            {"if": "Nf6", "then": "Nxe5", "next": []}]},
        {"if": "c5", "then": "Nf3", "next": []}]
    body = move(api, boris, server_game, 1, "e7-e5")  # typed otherwise: compared as a move, not as text
    assert body["to_move"] == "black"  # white's reply was played at once
    assert body["clock"]["players"]["white"]["made"] == 2
    body = move(api, boris, server_game, 2, "Nc6")
    assert body["to_move"] == "black"
    tree = tree_of(api, anna, server_game)
    assert tree["conditional"] == [{"if": "a6", "then": "Ba4", "next": []}] and tree["sent_with_move"] == 1
    body = move(api, boris, server_game, 3, "Nf6")  # not a6: the tree is dropped, white is to move
    assert body["to_move"] == "white"
    assert tree_of(api, anna, server_game)["conditional"] == []
    assert not ConditionalTree.objects.exists()
    assert moves_of(api, anna, server_game) == [
        ("white", 1, "e4", "", ""), ("black", 1, "e5", "", ""), ("white", 2, "Nf3", "conditional", LINE),
        ("black", 2, "Nc6", "", ""), ("white", 3, "Bb5", "conditional", LINE), ("black", 3, "Nf6", "", "")]
    move(api, anna, server_game, 4, "O-O")  # the game goes on by hand


def test_the_owner_replaces_and_cancels_the_pending_tree(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4", conditional=RUY)
    url = f"/api/games/{server_game.pk}/conditional/"
    r = api(anna).put(url, {"conditional": [{"if": "d5", "then": "exd5"}]}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["conditional"] == [{"if": "d5", "then": "exd5", "next": []}]
    assert r.json()["sent_with_move"] == 1
    move(api, boris, server_game, 1, "e5")  # the old line is gone: nothing fires
    assert moves_of(api, anna, server_game)[-1][:3] == ("black", 1, "e5")
    # White is to move: a tree goes with the move, not on its own.
    r = api(anna).put(url, {"conditional": [{"if": "Nc6", "then": "Bb5"}]}, format="json")
    assert r.status_code == 409 and r.json()["field"] == "conditional"
    move(api, anna, server_game, 2, "Nf3", conditional=[{"if": "Nc6", "then": "Bb5"}])
    assert api(anna).delete(url).status_code == 204
    assert tree_of(api, anna, server_game)["conditional"] == []
    body = move(api, boris, server_game, 2, "Nc6")
    assert body["to_move"] == "white"  # cancelled: nothing fired


@pytest.mark.parametrize("language, words", [
    ("en", "conditional[0].next[0].then: white's move 3 Bb4 is not a legal move after 2... Nc6"),
    ("ru", "conditional[0].next[0].then"),
])
def test_an_illegal_branch_is_refused_naming_it_and_nothing_is_stored(api, server_game, anna, language, words):
    tree = [{"if": "e5", "then": "Nf3", "next": [{"if": "Nc6", "then": "Bb4"}]}]
    r = post(api, anna, server_game, "moves/", {"number": 1, "notation": "e4", "conditional": tree},
             HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400, r.json()
    assert r.json()["field"] == "conditional[0].next[0].then"
    assert words in r.json()["detail"]
    if language == "ru":
        assert "Bb4" in r.json()["detail"] and "not a legal move" not in r.json()["detail"]
    assert moves_of(api, anna, server_game) == [] and not ConditionalTree.objects.exists()


@pytest.mark.parametrize("tree, field, words", [
    ([{"if": "e5", "then": "Nf3"}, {"if": "e7e5", "then": "d4"}], "conditional[1].if",
     "e5 is already answered by conditional[0] at this level"),
    ([{"if": "e5"}], "conditional[0]", "must be {\"if\""),
    ({"if": "e5", "then": "Nf3"}, "conditional", "must be a list of branches"),
    ([{"if": "Ke2", "then": "Nf3"}], "conditional[0].if", "black's move 1 Ke2 is not a legal move after 1. e4"),
])
def test_a_malformed_tree_is_refused_naming_the_branch(api, server_game, anna, tree, field, words):
    r = post(api, anna, server_game, "moves/", {"number": 1, "notation": "e4", "conditional": tree})
    assert r.status_code == 400, r.json()
    assert (r.json()["field"], words in r.json()["detail"]) == (field, True), r.json()


def shuffle_line(depth: int) -> list:
    """Knights out and back: a legal line ``depth`` replies deep (after 1. e4)."""
    black, white = ["Nf6", "Ng8"], ["Nf3", "Ng1"]
    tree: list = []
    for level in reversed(range(depth)):
        tree = [{"if": black[level % 2], "then": white[level % 2], "next": tree}]
    return tree


def every_answer(board: chess.Board, levels: int) -> list:
    """A branch for each of the partner's legal moves, answered by the first legal reply, ``levels`` deep."""
    out = []
    for move in sorted(board.legal_moves, key=board.san):
        after = board.copy()
        partner = after.san(move)
        after.push(move)
        reply = min(after.legal_moves, key=after.san)
        then = after.san(reply)
        after.push(reply)
        out.append({"if": partner, "then": then, "next": every_answer(after, levels - 1) if levels > 1 else []})
    return out


def test_a_tree_goes_20_replies_deep_and_holds_200_branches_at_most(api, server_game, anna):
    r = post(api, anna, server_game, "moves/", {"number": 1, "notation": "e4", "conditional": shuffle_line(21)})
    assert r.status_code == 400 and r.json()["field"] == "conditional[0]" + ".next[0]" * 20, r.json()
    assert "at most 20 replies deep" in r.json()["detail"]
    after_e4 = chess.Board()
    after_e4.push_san("e4")
    wide = every_answer(after_e4, 2)  # 20 answers, each with 20 or more below it
    r = post(api, anna, server_game, "moves/", {"number": 1, "notation": "e4", "conditional": wide})
    assert r.status_code == 400 and "at most 200 branches" in r.json()["detail"], r.json()
    r = post(api, anna, server_game, "moves/", {"number": 1, "notation": "e4", "conditional": shuffle_line(20)})
    assert r.status_code == 201, r.json()
    assert len(str(tree_of(api, anna, server_game)["conditional"]).split("Ng1")) == 11


def test_a_postal_game_refuses_a_tree_naming_conditional(api, postal_game, anna):
    r = post(api, anna, postal_game, "moves/", {"number": 1, "notation": "e4", "sent_on": "2026-03-01",
                                                  "conditional": [{"if": "e5", "then": "Nf3"}]})
    assert r.status_code == 400 and r.json()["field"] == "conditional", r.json()
    assert moves_of(api, anna, postal_game) == []


def test_the_partner_never_sees_the_tree_and_only_players_reach_their_own(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4", conditional=[{"if": "c5", "then": "Nf3", "next": [
        {"if": "d6", "then": "Bb5"}]}])
    url = f"/api/games/{server_game.pk}/conditional/"
    assert api(boris).get(url).json() == {"conditional": [], "sent_with_move": None, "awaiting": None,
                                          "updated_at": None, "position": None, "changed": None,
                                          "warning": None}  # his own: none
    assert api(boris).delete(url).status_code == 204  # his own, again: white's stays
    assert api(boris).put(url, {"conditional": []}, format="json").status_code == 409  # his move: nothing to set
    assert api(arbiter).get(url).status_code == 403
    assert api(arbiter).delete(url).status_code == 403
    assert tree_of(api, anna, server_game)["conditional"][0]["then"] == "Nf3"
    for client in (api(boris), api(arbiter)):
        texts = [client.get(f"/api/games/{server_game.pk}/").content.decode(),
                 client.get(f"/api/games/{server_game.pk}/history/").content.decode(),
                 client.get(f"/api/games/{server_game.pk}/events/").content.decode(),
                 client.get(f"/api/games/{server_game.pk}/export/pgn/").content.decode(),
                 client.get(f"/api/games/{server_game.pk}/export/csv/").content.decode()]
        assert all("Bb5" not in text and "conditional" not in text for text in texts), texts
    ics = api(boris).get(api(boris).get("/api/users/me/").json()["calendar_url"].split("8000", 1)[1])
    assert ics.status_code == 200 and b"Bb5" not in ics.content and b"onditional" not in ics.content


def test_a_replayed_submission_of_the_partners_move_stores_one_outcome(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4", conditional=RUY)
    move(api, boris, server_game, 1, "e5")
    again = post(api, boris, server_game, "moves/", {"number": 1, "notation": "e5"})
    assert again.status_code == 409  # the game moved on: the tree fired once
    assert [m[:3] for m in moves_of(api, anna, server_game)] == [
        ("white", 1, "e4"), ("black", 1, "e5"), ("white", 2, "Nf3")]


def test_a_partners_move_the_board_cannot_read_is_refused_and_the_tree_stays(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4", conditional=RUY)
    tree = tree_of(api, anna, server_game)
    r = post(api, boris, server_game, "moves/", {"number": 1, "notation": "e5?!x"})  # checked on the board (issue 36)
    assert r.status_code == 400 and r.json()["field"] == "notation"
    assert tree_of(api, anna, server_game) == tree
    body = move(api, boris, server_game, 1, "e5!?")  # SAN with its annotation: the move, and the line fires
    assert body["clock"]["players"]["white"]["made"] == 2
