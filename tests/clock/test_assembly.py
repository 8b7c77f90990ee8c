"""The assembly of a game's stored rows (``corr.clock.assembly``), on plain rows, in either build.

``make test`` runs this file on the compiled build and again on the pure-Python
sources (``CORR_PURE_PYTHON=1``): both must tell the same turns, receipts and
events. The service's tests cover the same code through the database.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

import corr.clock
from corr.clock import Move, Notice, NoticeReason, Penalty, Ruleset, Variant
from corr.clock.assembly import (
    CLOCK_FIELDS, ClockRow, active_events, assemble, current_row, rows_as_of, rows_as_of_walked,
)

START = date(2026, 1, 10)


def row(seq: int, kind: str, player: str, number: int | None = None, *, received_on=None, sent_on=None,
        void=False, variant="", reason="", days=None, supersedes_id=None, id=None) -> ClockRow:
    return ClockRow(id=id or seq, seq=seq, kind=kind, player=player, number=number, received_on=received_on,
                    sent_on=sent_on, void=void, variant=variant, reason=reason, days=days,
                    supersedes_id=supersedes_id)


def day(n: int) -> date:
    return START + timedelta(days=n)


def assembled(rows, *, transit_days=3, as_of=None, clock_tuples=False, ongoing=True):
    return assemble(rows=rows, ruleset=Ruleset(), official_start=START, first="white", transit_days=transit_days,
                    ongoing=ongoing, as_of=as_of or day(60), clock_tuples=clock_tuples)


POSTAL = [
    row(1, "move", "white", 1, sent_on=day(1)),
    row(2, "receipt", "black", 1, received_on=day(5)),
    row(3, "move", "black", 1, received_on=day(5), sent_on=day(8)),
    row(4, "move", "white", 2, received_on=day(12), sent_on=day(14), void=True),
    row(5, "notice", "black", 2, received_on=day(18), sent_on=day(19), reason="impossible_move"),
    row(6, "penalty", "white", 2, reason="impossible_move"),
]


def test_moves_notices_and_penalties_become_the_calculators_events_with_the_turn():
    result = assembled(POSTAL)
    assert result.game.events[:5] == (
        Move("white", 1, None, day(1)), Move("black", 1, day(5), day(8)),
        Move("white", 2, day(12), day(14), True), Notice("black", 2, NoticeReason.IMPOSSIBLE_MOVE, day(18), day(19)),
        Penalty("white", 2, corr.clock.PenaltyReason.IMPOSSIBLE_MOVE))
    # The notice gives the turn back to white, who must send move 2 again; it is presumed received
    # three days (the transit) after the notice was sent.
    assert (result.to_move, result.made) == ("white", {"white": 1, "black": 1})
    assert (result.pending.number, result.pending.received_on, result.pending.presumed) == (2, day(22), True)
    assert result.game.events[-1] == Move("white", 2, day(22))
    assert result.sources == (1, 3, 4, 5, 6, None)
    assert result.last_move_seq == {"white": 4, "black": 3}


def test_a_made_move_is_a_move_in_every_way():
    move = assembled(POSTAL).game.events[1]
    assert type(move) is Move and move.player == "black" and move.sent_on == day(8) and move.variant is None
    assert move == Move("black", 1, day(5), day(8)) and hash(move) == hash(Move("black", 1, day(5), day(8)))
    variant = assembled([row(1, "move", "white", 1, sent_on=day(1)),
                         row(2, "move", "black", 1, received_on=day(4), sent_on=day(6)),
                         row(3, "move", "white", 2, variant="conditional")]).game.events[2]
    assert type(variant) is Move and variant.variant is Variant.CONDITIONAL


def test_a_move_still_in_transit_runs_no_clock_and_a_recorded_receipt_replaces_the_presumed_one():
    in_transit = assembled(POSTAL[:1], as_of=day(2))
    assert in_transit.pending.received_on == day(4) and in_transit.sources == (1,)
    received = assembled(POSTAL[:2], as_of=day(6))
    assert (received.pending.received_on, received.pending.presumed) == (day(5), False)
    assert received.game.events[-1] == Move("black", 1, day(5))


def test_a_server_game_delivers_at_once_and_a_finished_game_has_no_turn():
    server = assembled([row(1, "move", "white", 1, sent_on=day(1))], transit_days=None)
    assert (server.pending.received_on, server.pending.presumed) == (day(1), False)
    assert assembled(POSTAL, ongoing=False).to_move is None


def test_corrections_and_withdrawals_take_the_place_of_what_they_replace():
    rows = [*POSTAL, row(7, "move", "black", 1, received_on=day(6), sent_on=day(9), supersedes_id=3, id=7),
            row(8, "withdrawal", "white", 2, supersedes_id=6, id=8)]
    active = active_events(rows)
    assert [r.seq for r in active] == [1, 2, 7, 4, 5]
    assert current_row(rows, 3).seq == 7 and current_row(rows, 99) is None
    assert assembled(rows).game.events[1] == Move("black", 1, day(6), day(9))


@pytest.mark.parametrize("rows", [POSTAL, [*POSTAL, row(7, "move", "black", 1, received_on=day(6), sent_on=day(9),
                                                         supersedes_id=3, id=7)]])
def test_clock_tuples_assemble_as_rows_do_in_any_order(rows):
    tuples = [tuple(getattr(r, f) for f in CLOCK_FIELDS) for r in reversed(rows)]
    assert assembled(tuples, clock_tuples=True) == assembled(rows)


@pytest.mark.parametrize("on", [day(n) for n in (0, 3, 6, 9, 13, 18, 30)])
def test_rows_as_of_agrees_with_its_walk(on):
    entered = {r.seq: r.sent_on or r.received_on or day(19) for r in POSTAL}

    def entered_on(r):
        return entered[r.seq]

    assert rows_as_of(reversed(POSTAL), on, entered_on) == rows_as_of_walked(list(POSTAL), on, entered_on)


def test_the_build_of_the_assembly_is_the_calculators():
    from corr.clock import assembly, build

    assert ("assembly" in build.COMPILED) and assembly.__file__.endswith(".py") == (corr.clock.BUILD == build.PURE)


def test_a_new_row_not_saved_yet_is_assembled_with_the_stored_ones():
    # A new event is checked with the stored ones before it is written: it has no id yet (a correction
    # among them too), which the compiled build must accept like the sources.
    new = row(7, "move", "black", 1, received_on=day(6), sent_on=day(9), supersedes_id=3)._replace(id=None)
    rows = [*POSTAL, new]
    assert [r.seq for r in active_events(rows)] == [1, 2, 7, 4, 5, 6]
    assert assembled(rows).game.events[1] == Move("black", 1, day(6), day(9))
    assert current_row(rows, 3).seq == 7
