"""Every server move checked on the board (issue 36): illegal moves refused with nothing stored, in the reader's
language; postal games record what was written; the board ends the game (checkmate, stalemate, claims)."""

from __future__ import annotations

import pytest

from corr.games import services
from corr.models import GameEvent, OutboundEmail

from ..conftest import TODAY

pytestmark = pytest.mark.django_db

FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
# Sam Loyd's stalemate in ten moves: white's 10. Qe6 leaves black no legal move and no check.
LOYD_STALEMATE = ["e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7", "Qxb7", "Qd3",
                  "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6"]
# The starting position stands for the third time after 4...Ng8.
KNIGHTS_DANCE = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]


def post(client, game, body, path="moves/", **headers):
    return client.post(f"/api/games/{game.pk}/{path}", body, format="json", **headers)


def play(api, game, users: dict, moves: list[str], first: str = "white") -> dict:
    """Play ``moves`` in turn from ``first``; each must be stored (201). The last answer."""
    colours = [first, "black" if first == "white" else "white"]
    body = None
    for index, notation in enumerate(moves):
        colour = colours[index % 2]
        r = post(api(users[colour]), game, {"number": index // 2 + 1, "notation": notation})
        assert r.status_code == 201, (notation, r.json())
        body = r.json()
    return body


def snapshot(api, user, game) -> tuple:
    """What an illegal move must leave as it was: the stored events and the game as GET shows it."""
    return GameEvent.objects.filter(game=game).count(), api(user).get(f"/api/games/{game.pk}/").json()


@pytest.fixture
def users(anna, boris):
    return {"white": anna, "black": boris}


@pytest.fixture
def draughts_game(arbiter, anna, boris, frozen):
    tournament = services.tournament_create(by=arbiter, name="Шашки", official_start=TODAY, mode="server",
                                            kind="draughts")
    return services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)


@pytest.fixture
def go_game(arbiter, anna, boris, frozen):
    tournament = services.tournament_create(by=arbiter, name="Go league", official_start=TODAY, mode="server",
                                            kind="go")
    return services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)


@pytest.mark.parametrize("moves, notation, words", [
    ([], "Ke2", "Ke2 is not a legal move for white in the starting position"),
    (["e4", "e5"], "Ke3", "Ke3 is not a legal move for white after 1. e4 e5"),
    (["e4"], "zz9", "zz9 is not written as a chess move (SAN such as Nf3, exd5, O-O, e8=Q, or UCI such as g1f3):"
                    " black to move after 1. e4"),
    # Into check: the bishop on c5 holds e3 (FIDE 3.9).
    (["e4", "e5", "Ke2", "Bc5"], "Ke3", "Ke3 is not a legal move for white after 2. Ke2 Bc5: the king would be in"
                                        " check"),
    (["e4", "e5", "d4", "Bb4+"], "Kd2", "Kd2 is not a legal move for white after 2. d4 Bb4+: the king is in check"),
    (["e4", "e5", "d4", "Bb4+"], "a3", "a3 is not a legal move for white after 2. d4 Bb4+: the king is in check and"
                                       " the move does not end it"),
    # Castling through check: the bishop on a6 holds f1 (FIDE 3.8.2).
    (["e4", "b6", "Nf3", "Ba6", "g3", "e6", "Bg2", "Nc6"], "O-O", "O-O is not a legal move for white after 4. Bg2"
                                                                  " Nc6: the king would be in check"),
    (["e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7"], "bxa8=K", "bxa8=K is not"),
    (["e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7"], "bxa8", "bxa8 is not a legal move for white after"
                                                                        " 4. cxb7 Nbd7"),
    (["Nf3", "Nf6", "Nc3", "Nc6"], "Ne5", None),  # legal: the control of the list
])
def test_an_illegal_chess_move_is_refused_naming_it_and_the_position_and_stores_nothing(
        api, server_game, users, moves, notation, words):
    play(api, server_game, users, moves)
    colour = "white" if len(moves) % 2 == 0 else "black"
    before = snapshot(api, users[colour], server_game)
    r = post(api(users[colour]), server_game, {"number": len(moves) // 2 + 1, "notation": notation})
    if words is None:
        assert r.status_code == 201, r.json()
        return
    assert r.status_code == 400, r.json()
    assert r.json()["field"] == "notation" and r.json()["detail"].startswith(words), r.json()
    assert snapshot(api, users[colour], server_game) == before  # nothing stored, no clock touched


def test_a_legal_move_in_uci_or_long_algebraic_is_stored_in_san(api, server_game, users):
    body = play(api, server_game, users, ["e2e4", "e7-e5", "g1f3"])
    notations = [e.notation for e in GameEvent.objects.filter(game=server_game, kind="move")]
    assert notations == ["e4", "e5", "Nf3"] and body["to_move"] == "black"


def test_the_refusal_is_in_the_readers_language(api, server_game, users):
    play(api, server_game, users, ["e4", "e5"])
    ru = post(api(users["white"]), server_game, {"number": 2, "notation": "Ke3"}, HTTP_ACCEPT_LANGUAGE="ru")
    fr = post(api(users["white"]), server_game, {"number": 2, "notation": "Ke3"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert ru.status_code == fr.status_code == 400
    assert ru.json()["detail"] == "Ke3 — невозможный ход стороны «белые» после 1. e4 e5"
    assert fr.json()["detail"] == "Ke3 n'est pas un coup légal des blancs après 1. e4 e5"


def test_a_draughts_move_that_passes_a_compulsory_capture_is_refused(api, draughts_game, users):
    play(api, draughts_game, users, ["c3-d4", "f6-e5"])
    before = snapshot(api, users["white"], draughts_game)
    r = post(api(users["white"]), draughts_game, {"number": 2, "notation": "a3-b4"})
    assert r.status_code == 400 and r.json()["field"] == "notation"
    assert r.json()["detail"] == ("a3-b4 is not a legal move for white after 1. c3-d4 f6-e5: capturing is compulsory"
                                  " in Russian draughts: d4:f6")
    assert snapshot(api, users["white"], draughts_game) == before
    assert post(api(users["white"]), draughts_game, {"number": 2, "notation": "D4xF6"}).status_code == 201
    notations = [e.notation for e in GameEvent.objects.filter(game=draughts_game, kind="move")]
    assert notations == ["c3-d4", "f6-e5", "d4:f6"]


# Go: black first. The ko: black captures the white stone on C2 with D2, and D2 alone can be retaken at once.
KO = ["B2", "C2", "C3", "D3", "C1", "D1", "T19", "E2", "D2"]


@pytest.mark.parametrize("moves, notation, words", [
    (["D4"], "D4", "D4 is not a legal move for white after 1. D4: the point is occupied"),
    (["A2", "T19", "B1"], "A1", "A1 is not a legal move for white after 2. B1: a stone may not be played where it or"
                                " its group would have no liberty (suicide)"),
    (KO, "C2", "C2 is not a legal move for white after 5. D2: ko: the stone just captured may not be retaken at once;"
               " play elsewhere first"),
    ([], "I5", "I5 is not written as a Go move (a point such as D4: a letter A-T without I and a number 1-19; or"
               " pass): black to move in the starting position"),
    (["D4"], "Q20", "Q20 is not written as a Go move"),
    (KO + ["pass", "Q16"], "C2", None),  # the ko is over once both played elsewhere
])
def test_an_illegal_go_move_is_refused(api, go_game, users, moves, notation, words):
    play(api, go_game, users, moves, first="black")
    colour = "black" if len(moves) % 2 == 0 else "white"
    before = snapshot(api, users[colour], go_game)
    r = post(api(users[colour]), go_game, {"number": len(moves) // 2 + 1, "notation": notation})
    if words is None:
        assert r.status_code == 201, r.json()
        return
    assert r.status_code == 400 and r.json()["field"] == "notation"
    assert r.json()["detail"].startswith(words), r.json()
    assert snapshot(api, users[colour], go_game) == before


def test_go_moves_are_stored_as_the_project_writes_them(api, go_game, users):
    play(api, go_game, users, ["d4", "q16", "PASS"], first="black")
    assert [e.notation for e in GameEvent.objects.filter(game=go_game, kind="move")] == ["D4", "Q16", "pass"]


def test_a_postal_game_records_what_was_written(api, postal_game, users):
    # 50.4.9.1: an impossible or illegible move is the partner's to report and the arbiter's to penalise.
    r = post(api(users["white"]), postal_game, {"number": 1, "notation": "Ke2", "sent_on": "2026-01-12"})
    assert r.status_code == 201, r.json()
    r = post(api(users["black"]), postal_game, {"number": 1, "notation": "zz9", "received_on": "2026-01-14",
                                                "sent_on": "2026-01-15"})
    assert r.status_code == 201, r.json()
    assert [e.notation for e in GameEvent.objects.filter(game=postal_game, kind="move")] == ["Ke2", "zz9"]


def result_lines(api, user, game):
    return [(h["kind"], h["player"], h["note"]) for h in api(user).get(f"/api/games/{game.pk}/history/").json()
            if h["kind"] == "result"]


def test_fools_mate_ends_the_game_at_blacks_move_with_no_arbiter(api, server_game, users, arbiter):
    body = play(api, server_game, users, FOOLS_MATE)
    assert (body["status"], body["result"], body["termination"], body["to_move"]) == (
        "finished", "0-1", "black checkmates white (002 5.1.1)", None)
    assert result_lines(api, users["white"], server_game) == [
        ("result", "black", "result 0-1: black checkmates white (002 5.1.1)")]
    emails = {tuple(e.recipients): e for e in OutboundEmail.objects.filter(key__startswith="board_end:")}
    assert set(emails) == {("anna@example.org",), ("arbiter@example.org",)}  # the partner and the arbiter
    assert emails[("anna@example.org",)].subject == f"Game #{server_game.pk} is over: 0-1"
    assert "How it ended: black checkmates white (FIDE Laws 5.1.1)." in emails[("anna@example.org",)].body
    r = post(api(users["white"]), server_game, {"number": 3, "notation": "a3"})
    assert r.status_code == 409  # the game is over


@pytest.mark.parametrize("language, subject, how", [
    ("ru", "Партия №{game} окончена: 0-1",
     "Как она закончилась: чёрные ставят мат, белые проиграли (Правила ФИДЕ 5.1.1)."),
    ("fr", "La partie n° {game} est terminée : 0-1",
     "Comment elle s'est terminée : les noirs matent les blancs (Règles du jeu FIDE 5.1.1)."),
])
def test_the_end_e_mail_is_in_the_recipients_language(api, server_game, users, language, subject, how):
    users["white"].language = language
    users["white"].save()
    play(api, server_game, users, FOOLS_MATE)
    email = OutboundEmail.objects.get(key__startswith="board_end:", recipients=["anna@example.org"])
    assert email.subject == subject.format(game=server_game.pk)
    assert how in email.body


def test_a_stalemate_ends_the_game_drawn(api, server_game, users):
    body = play(api, server_game, users, LOYD_STALEMATE)
    assert (body["status"], body["result"], body["termination"]) == (
        "finished", "1/2-1/2", "black is stalemated by white's move: drawn (002 5.2.1)")


def test_a_threefold_repetition_claimed_with_the_move_draws_and_an_unfounded_claim_is_refused(
        api, server_game, users):
    play(api, server_game, users, KNIGHTS_DANCE[:5])
    before = snapshot(api, users["black"], server_game)
    r = post(api(users["black"]), server_game, {"number": 3, "notation": "Nf6", "claim_draw": True})
    assert r.status_code == 400 and r.json()["field"] == "claim_draw", r.json()
    assert r.json()["detail"].startswith("the draw claim is unfounded")
    assert snapshot(api, users["black"], server_game) == before
    assert post(api(users["black"]), server_game, {"number": 3, "notation": "Nf6"}).status_code == 201
    assert post(api(users["white"]), server_game, {"number": 4, "notation": "Ng1"}).status_code == 201
    r = post(api(users["black"]), server_game, {"number": 4, "notation": "Ng8", "claim_draw": True})
    assert r.status_code == 201, r.json()
    assert (r.json()["status"], r.json()["result"], r.json()["termination"]) == (
        "finished", "1/2-1/2", "black claimed a draw: the same position for the third time (002 9.2)")
    assert [e.notation for e in GameEvent.objects.filter(game=server_game, kind="move")][-1] == "Ng8"


def test_a_repetition_claimed_on_ones_turn_draws(api, server_game, users):
    play(api, server_game, users, KNIGHTS_DANCE)
    assert post(api(users["black"]), server_game, {}, path="draw-claim/").status_code == 409  # not black's turn
    r = post(api(users["white"]), server_game, {}, path="draw-claim/")
    assert r.status_code == 201, r.json()
    assert r.json()["termination"] == "white claimed a draw: the same position for the third time (002 9.2)"


def test_a_claim_on_ones_turn_without_repetition_is_refused(api, server_game, users):
    play(api, server_game, users, KNIGHTS_DANCE[:4])
    r = post(api(users["white"]), server_game, {}, path="draw-claim/")
    assert r.status_code == 400 and r.json()["field"] == "claim_draw"
    assert api(users["white"]).get(f"/api/games/{server_game.pk}/").json()["status"] == "ongoing"


def test_a_postal_claim_goes_to_the_arbiter(api, postal_game, users):
    r = post(api(users["white"]), postal_game, {"number": 1, "notation": "e4", "sent_on": "2026-01-12",
                                                "claim_draw": True})
    assert r.status_code == 400 and r.json()["field"] == "claim_draw"
    assert not GameEvent.objects.filter(game=postal_game, kind="move").exists()


def test_a_draughts_side_without_a_move_loses(api, draughts_game, users):
    moves = _draughts_game_won_by_white()
    body = play(api, draughts_game, users, moves)
    assert body["status"] == "finished" and body["result"] == "1-0", body
    assert body["termination"] == ("black's pieces are all captured or blocked after white's move: white wins"
                                   " (000 12.10, 001 1.7.12)")


def _draughts_game_won_by_white() -> list[str]:
    """A legal Russian draughts game that white ends by leaving black no move, played out on pydraughts' board
    from a fixed seed (every move legal by construction; the server checks them again)."""
    import random

    from draughts import Board as PyDraughts

    from corr.games.boards import DraughtsBoard
    from corr.games.services.ending import end_of_move
    from corr.live.position import DRAUGHTS_VARIANT, draughts_square

    rng = random.Random(36)
    while True:
        board, moves = DraughtsBoard(), []
        while (legal := PyDraughts(variant=DRAUGHTS_VARIANT, fen=board.fen).legal_moves()):
            path = [draughts_square(n) for n in rng.choice(legal).steps_move]
            move = board.move_of(":".join(path))  # every landing square named: one move
            board.push(move)
            moves.append(move.text)
            if end_of_move(board) is not None:
                break
        if len(moves) % 2 == 1:  # white made the last move
            return moves


def test_a_go_position_key_reads_back_as_the_same_position_with_its_ko():
    # The live game keeps its Go position as this key (LiveGame.position, 400 characters at most).
    from corr.games.goboard import GoBoard

    board = GoBoard()
    for notation in KO:
        board.push(board.move_of(notation))
    key = board.key()
    again = GoBoard.at(key)
    assert again.key() == key and len(key) <= 400
    assert (again.why_not("C2"), again.why_not("D2"), again.why_not("Q16")) == ("ko", "occupied", None)
    assert again.board.get(1, 2) is None  # C2's white stone was captured
    with pytest.raises(ValueError):
        GoBoard.at("not a position")
