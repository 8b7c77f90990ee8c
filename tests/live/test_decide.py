"""What a flag means on the board (pure: positions as FEN, read by python-chess and pydraughts)."""

from __future__ import annotations

import random

import pytest
from draughts import Board

from corr.live.decide import flag_verdict, forfeit_verdict
from corr.live.position import IllegalNotation, draughts_move, draughts_square, position_after, position_start


def test_a_chess_flag_loses_when_the_opponent_can_still_mate():
    # White: king and queen; black's flag falls: white can mate, black loses (002 6.9).
    verdict = flag_verdict(kind="chess", position="4k3/8/8/8/8/8/8/3QK3 b - - 0 1", flagged="black")
    assert verdict.result == "1-0" and verdict.case == ""


def test_a_chess_flag_is_a_draw_against_king_and_knight():
    verdict = flag_verdict(kind="chess", position="4k3/8/8/8/8/8/8/3NK3 b - - 0 1", flagged="black")
    assert verdict.result == "1/2-1/2" and "6.9" in verdict.text


def test_a_draughts_flag_is_no_overstep_when_the_partners_pieces_are_all_blocked():
    # Black's man on a7 can step to b6: white's flag is a loss (000 12.9).
    assert flag_verdict(kind="draughts", position="W:Wc3,b4,a5:Ba7", flagged="white").result == "0-1"
    # Black's only man, on h2, moves down: g1 is white's and there is no square beyond it to jump to.
    # Black is blocked: no overstep, white (the stronger side) wins (000 12.10, 001 1.7.12).
    verdict = flag_verdict(kind="draughts", position="B:Wg1,c3:Bh2", flagged="white")
    assert verdict.result == "1-0" and "12.10" in verdict.text


def test_a_draughts_flag_is_no_overstep_when_the_partner_has_no_piece_left():
    verdict = flag_verdict(kind="draughts", position="B:Wc3:B", flagged="white")
    assert verdict.result == "1-0"


def test_a_flag_corr_cannot_judge_opens_a_case_naming_the_rule():
    go = flag_verdict(kind="go", position="", flagged="black")
    assert go.result is None and go.case.startswith("003 12.10")
    unread_chess = flag_verdict(kind="chess", position="", flagged="white")
    assert unread_chess.result is None and unread_chess.case.startswith("002 6.9")


def test_a_forfeit_loses_for_its_player_and_cites_its_rule():
    verdict = forfeit_verdict({"player": "white", "reason": "illegal_moves", "rule": "003 13.4", "at_ms": 1})
    assert verdict.result == "0-1" and verdict.text == "white lost by a third illegal move (003 13.4)"


@pytest.mark.parametrize("moves, last", [(["c3-d4", "f6-g5", "d4-e5"], "e5"), (["c3-b4", "b6-a5", "b4-c5", "d6:b4"],
                                                                                 "b4")])
def test_russian_draughts_moves_are_read_in_their_own_notation(moves, last):
    fen = position_start("draughts")
    for text in moves:
        fen = position_after("draughts", fen, text)
    assert last in fen


def test_a_draughts_move_that_is_not_legal_is_refused():
    with pytest.raises(IllegalNotation):
        position_after("draughts", position_start("draughts"), "c3-c4")


def _pieces(fen: str, side: str) -> set[str]:
    part = next(p for p in fen.split(":")[1:] if p.startswith(side))
    return {square.lstrip("K") for square in part[1:].split(",") if square}


def test_pydraughts_squares_are_named_as_its_fen_names_them():
    # Every legal move of 300 random positions: the squares draughts_square names first and last are the ones the
    # moving side's pieces leave and reach in pydraughts' own FEN (kings and captures included).
    rng, checked = random.Random(27), 0
    names = [draughts_square(n) for n in range(1, 33)]
    assert len(set(names)) == 32 and names[0] == "a1" and names[8] == "a3" and names[31] == "h8"
    for _ in range(300):
        squares = rng.sample(names, 9)
        white = ",".join(("K" if rng.random() < 0.3 else "") + s for s in squares[:3])
        fen = f"W:W{white}:B{','.join(squares[3:])}"
        board = Board(variant="russian", fen=fen)
        for move in board.legal_moves():
            after = board.copy()
            after.push(move)
            left = _pieces(fen, "W") - _pieces(after.fen, "W")
            reached = _pieces(after.fen, "W") - _pieces(fen, "W")
            start, end = draughts_square(move.steps_move[0]), draughts_square(move.steps_move[-1])
            if start != end:
                assert (left, reached) == ({start}, {end}), (fen, move.steps_move)
                checked += 1
    assert checked > 300


# White's king on a5 reaches h8 by two captures: over b4 and g7 (a5:c3:h8), or over b4, f2, f4 and g7
# (a5:e1:g3:e5:h8). Found among random positions by a search of pydraughts' legal moves.
TWO_WAYS = "W:WKa5:Bc5,f4,f2,g7,c1,b6,h6,b4"


def test_a_draughts_capture_named_by_its_ends_alone_that_two_captures_fit_is_refused_naming_both():
    with pytest.raises(IllegalNotation) as refused:
        position_after("draughts", TWO_WAYS, "a5:h8")
    assert refused.value.ways == "a5:c3:h8, a5:e1:g3:e5:h8" and not refused.value.unreadable


@pytest.mark.parametrize("notation, taken, written", [
    ("a5:c3:h8", {"b4", "g7"}, "a5:c3:h8"),
    ("A5xC3xH8", {"b4", "g7"}, "a5:c3:h8"),
    ("a5:e1:h8", {"b4", "f2", "f4", "g7"}, "a5:e1:h8"),
    ("a5:e1:g3:e5:h8", {"b4", "f2", "f4", "g7"}, "a5:e1:g3:e5:h8"),
])
def test_the_squares_named_between_choose_the_capture_and_are_kept_as_written(notation, taken, written):
    after, text = draughts_move(TWO_WAYS, notation)
    assert _pieces(TWO_WAYS, "B") - _pieces(after, "B") == taken and text == written


@pytest.mark.parametrize("notation", ["a5:d2:h8", "a5:g3:e1:h8", "a5:c3:e1:h8"])
def test_a_square_named_between_that_the_capture_does_not_land_on_in_that_order_is_no_legal_move(notation):
    with pytest.raises(IllegalNotation) as refused:
        position_after("draughts", TWO_WAYS, notation)
    assert refused.value.ways == "" and "not a legal move" in refused.value.message
