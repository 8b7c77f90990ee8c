"""A postal PGN's received dates, ``[%ccrd]`` (issue 37), read by the reader of ``manage.py clock`` and the
tournament import: before a move's ``[%ccsnt]`` the mover's receipt, after the last one the pending move's."""

from __future__ import annotations

import pytest

from corr.clock.presets import preset_ruleset
from corr.formats.pgn_stamps import PgnStampError, games_from_pgn

from .test_clock_pgn import pgn, shuffle

RUS = preset_ruleset("rus_50_4", None)
POSTAL = '[Mode "PM"]'


def read(body: str, extra: str = POSTAL) -> list[dict]:
    return games_from_pgn(pgn(body, extra=extra), ruleset=RUS)[0]["events"]


def test_a_receipt_before_the_stamp_is_the_movers_and_after_the_last_one_the_pending_moves():
    events = read(shuffle(["[%ccsnt 2026.01.12]", "[%ccrd 2026.01.16] [%ccsnt 2026.01.18]"])
                  + " {black's move 2 pending: [%ccrd 2026.01.22] received 2026-01-22}")
    assert events == [
        {"type": "move", "player": "white", "number": 1, "sent_on": "2026-01-12"},
        {"type": "move", "player": "black", "number": 1, "received_on": "2026-01-16", "sent_on": "2026-01-18"},
        {"type": "move", "player": "white", "number": 2, "received_on": "2026-01-22"}]


def test_without_receipts_a_move_is_received_when_the_partners_was_sent_and_a_postal_game_warns():
    warnings: list[str] = []
    events = games_from_pgn(pgn(shuffle(["[%ccsnt 2026.01.12]", "[%ccsnt 2026.01.18]"]), extra=POSTAL),
                            ruleset=RUS, warn=warnings.append)[0]["events"]
    assert events[1]["received_on"] == "2026-01-12" and events[2]["received_on"] == "2026-01-18"
    assert warnings == ["game 1 (A - B): a postal game (Mode PM or EM) with no received dates ([%ccrd]): each"
                        " move counts from the partner's sent date, so the days in transit are charged as thinking"
                        " time"]


def test_a_server_game_without_receipts_is_no_warning():
    warnings: list[str] = []
    games_from_pgn(pgn(shuffle(["[%ccsnt 2026.01.12]"]), extra='[Mode "ICS"]'), ruleset=RUS, warn=warnings.append)
    assert warnings == []


@pytest.mark.parametrize("body, message", [
    (shuffle(["[%ccsnt 2026.01.12]", "[%ccrd 2026.01.10] [%ccsnt 2026.01.18]"]),
     "move 1... (black): [%ccrd 2026.01.10] is before the move it receives was sent, 2026.01.12"),
    (shuffle(["[%ccsnt 2026.01.12]", "[%ccrd 2026.01.20] [%ccsnt 2026.01.18]"]),
     "move 1... (black): [%ccrd 2026.01.20] is after the move's own [%ccsnt 2026.01.18]"),
    (shuffle(["[%ccsnt 2026.01.12] [%ccrd 2026.01.15]", "[%ccrd 2026.01.16] [%ccsnt 2026.01.18]"]),
     "move 1... (black): [%ccrd 2026.01.16] differs from the receipt [%ccrd 2026.01.15] written after the move"
     " before"),
    (shuffle(["[%ccsnt 2026.01.12]", "[%ccrd 2026.01.14] [%ccrd 2026.01.16] [%ccsnt 2026.01.18]"]),
     "move 1... (black): 2 [%ccrd] receipts, one received date expected"),
    (shuffle(["[%ccsnt 2026.01.12]", "[%ccrd 16.01.2026] [%ccsnt 2026.01.18]"]),
     "move 1... (black): [%ccrd 16.01.2026] is not a stamp"),
])
def test_it_refuses_a_receipt_it_cannot_place(body, message):
    with pytest.raises(PgnStampError) as raised:
        read(body)
    assert str(raised.value).startswith("game 1 (A - B), " + message)
