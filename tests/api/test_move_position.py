"""A server game keeps its board after each server move (issue 42): the next move is checked on it.

The kept position must be the one the moves in force make, after every move, in chess, draughts and Go; it is
never read when stale (an arbiter's withdrawal, a game stored before it was kept, another kind of board); and a
move at ply 80 costs the database and the board what one at ply 10 does.
"""

from __future__ import annotations

import cProfile
import pstats
import random
from pathlib import Path

import chess
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.games import services
from corr.games.position import position_replay
from corr.games.replay import game_replay
from corr.models import Game, GameEvent

from ..conftest import TODAY
from ..support.legal_moves import dance
from .test_server_moves_legal import KO, _draughts_game_won_by_white

pytestmark = pytest.mark.django_db


def post(client, game, number: int, notation: str):
    return client.post(f"/api/games/{game.pk}/moves/", {"number": number, "notation": notation}, format="json")


def kept_is_replayed(game: Game) -> None:
    """The position ``game`` keeps is current and is, key for key, the moves in force replayed."""
    game.refresh_from_db()
    kept, full = position_replay(game), game_replay(game)
    assert kept is not None, game.position
    assert full.whole
    assert kept.board.key() == full.board.key()
    assert (kept.read, kept.last_moves) == (full.read, full.last_moves)


def play_checked(api, game, users: dict, moves: list[str], first: str = "white") -> None:
    """Play ``moves`` in turn, each stored (201), checking the kept position after each."""
    colours = [first, "black" if first == "white" else "white"]
    for index, notation in enumerate(moves):
        r = post(api(users[colours[index % 2]]), game, index // 2 + 1, notation)
        assert r.status_code == 201, (notation, r.json())
        kept_is_replayed(game)


def random_chess_game(plies: int, seed: int) -> list[str]:
    """A legal chess game of ``plies`` moves (or fewer, if it ends), drawn from a fixed seed; captures and
    checks favoured so that the positions are varied (castling rights, en passant, promotions)."""
    rng, board, moves = random.Random(seed), chess.Board(), []
    while len(moves) < plies and not board.is_game_over(claim_draw=False):
        legal = list(board.legal_moves)
        sharp = [m for m in legal if board.is_capture(m) or board.gives_check(m) or m.promotion]
        move = rng.choice(sharp if sharp and rng.random() < 0.6 else legal)
        moves.append(board.san(move))
        board.push(move)
    if board.is_game_over(claim_draw=False):
        moves.pop()  # the last move would end the game: the test plays on a game under way
    return moves


@pytest.fixture
def users(anna, boris):
    return {"white": anna, "black": boris}


def game_of(arbiter, anna, boris, kind: str, name: str) -> Game:
    tournament = services.tournament_create(by=arbiter, name=name, official_start=TODAY, mode="server", kind=kind)
    return services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)


@pytest.mark.parametrize("seed", [1, 42])
def test_the_kept_chess_position_is_the_replayed_one_after_every_move(api, arbiter, anna, boris, users, frozen,
                                                                        seed):
    game = game_of(arbiter, anna, boris, "chess", f"Chess {seed}")
    play_checked(api, game, users, random_chess_game(60, seed))


def test_the_kept_draughts_position_is_the_replayed_one_after_every_move(api, arbiter, anna, boris, users, frozen):
    game = game_of(arbiter, anna, boris, "draughts", "Шашки")
    play_checked(api, game, users, _draughts_game_won_by_white()[:-1])  # all but the move that ends it


def test_the_kept_go_position_is_the_replayed_one_with_its_ko_and_moves_made(api, arbiter, anna, boris, users,
                                                                             frozen):
    game = game_of(arbiter, anna, boris, "go", "Go league")
    play_checked(api, game, users, [*KO, "pass", "Q16"], first="black")
    game.refresh_from_db()
    kept = position_replay(game)
    assert kept.board.made() == game_replay(game).board.made() == {"black": 6, "white": 5}


def test_a_refusal_from_the_kept_position_is_worded_as_from_the_replay(api, arbiter, anna, boris, users, frozen):
    game = game_of(arbiter, anna, boris, "go", "Go league")
    play_checked(api, game, users, KO, first="black")
    r = post(api(anna), game, 5, "C2")  # the ko retake, refused from the kept position
    assert r.status_code == 400
    kept_words = r.json()["detail"]
    Game.objects.filter(pk=game.pk).update(position=None)  # a game stored before positions were kept
    r = post(api(anna), game, 5, "C2")
    assert r.status_code == 400 and r.json()["detail"] == kept_words
    assert kept_words.startswith("C2 is not a legal move for white after 5. D2: ko"), kept_words


def test_a_game_stored_before_positions_were_kept_is_replayed_then_keeps_one(api, server_game, anna, boris):
    assert post(api(anna), server_game, 1, "e4").status_code == 201
    Game.objects.filter(pk=server_game.pk).update(position=None)
    assert post(api(boris), server_game, 1, "e5").status_code == 201
    kept_is_replayed(server_game)
    assert server_game.position["read"] == 2


def test_an_arbiters_withdrawal_makes_the_kept_position_stale_and_the_next_move_replays(api, server_game, arbiter,
                                                                                      anna, boris):
    white, black = api(anna), api(boris)
    for number, (w, b) in enumerate([("e4", "e5"), ("Nf3", "Nc6")], start=1):
        assert post(white, server_game, number, w).status_code == 201
        assert post(black, server_game, number, b).status_code == 201
    last = GameEvent.objects.filter(game=server_game, kind="move").order_by("seq").last()
    services.event_withdraw(game=server_game, by=arbiter, seq=last.seq, note="entered by mistake", today=TODAY)
    server_game.refresh_from_db()
    assert position_replay(server_game) is None  # kept at the version before the withdrawal: not read
    # Black's 2... Nc6 is gone: the position is after 2. Nf3, as the replay says.
    r = post(black, server_game, 2, "Ke6")
    assert r.status_code == 400 and r.json()["detail"].endswith("is not a legal move for black after 2. Nf3"), r.json()
    assert post(black, server_game, 2, "Nf6").status_code == 201
    kept_is_replayed(server_game)


def test_a_position_kept_for_another_board_is_not_read(api, server_game, anna):
    assert post(api(anna), server_game, 1, "e4").status_code == 201
    server_game.refresh_from_db()
    assert position_replay(server_game) is not None
    server_game.kind = "draughts"  # the kind changed since (the admin may change a game's kind)
    assert position_replay(server_game) is None


CHESS_FILE = str(Path(chess.__file__))


def move_cost(client, game, number: int, colour: str) -> dict:
    """What one move sends to the database and does on the board: statements, rows returned, board work."""
    rows: list[int] = []

    def count_rows(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        rows.append(max(context["cursor"].rowcount, 0))
        return result

    profile = cProfile.Profile()
    with CaptureQueriesContext(connection) as ctx, connection.execute_wrapper(count_rows):
        profile.enable()
        r = post(client, game, number, dance(colour, number))
        profile.disable()
    assert r.status_code == 201, r.json()
    board_calls = {name: 0 for name in ("push", "parse_san", "san")}
    for (path, _line, name), (_cc, calls, *_rest) in pstats.Stats(profile).stats.items():
        if path == CHESS_FILE and name in board_calls:
            board_calls[name] += calls
    return {"statements": len([q for q in ctx.captured_queries if not q["sql"].startswith("PREPARE ")]),
            "rows": sum(rows), "board": board_calls}


def test_a_move_at_ply_80_costs_the_database_and_the_board_what_one_at_ply_10_does(api, arbiter, anna, boris,
                                                                                 frozen):
    short, long = (game_of(arbiter, anna, boris, "chess", f"League {n}") for n in (1, 2))
    white, black = api(anna), api(boris)
    white.get("/api/users/me/")  # the same warm state for every counted request
    for game, plies in ((short, 9), (long, 79)):
        for index in range(plies):
            colour = "white" if index % 2 == 0 else "black"
            assert post(white if colour == "white" else black, game, index // 2 + 1,
                        dance(colour, index // 2 + 1)).status_code == 201
    at_10 = move_cost(black, short, 5, "black")  # ply 10: black's 5th move
    at_80 = move_cost(black, long, 40, "black")  # ply 80: black's 40th move
    assert at_80 == at_10, (at_10, at_80)
    # The move is read, checked and written once: no replay of the 79 moves before it.
    assert at_80["board"]["parse_san"] == 1, at_80
