"""What a flag means on the board (pure: positions as FEN, read by python-chess and pydraughts)."""

from __future__ import annotations

import pytest

from corr.live.decide import flag_verdict, forfeit_verdict
from corr.live.position import IllegalNotation, position_after, position_start


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
