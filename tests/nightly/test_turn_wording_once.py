"""The nightly e-mails word each distinct turn once a night (``corr.nightly.flags._Texts.turn``, issue 42): the
memo must never give one player's turn the words of another's. Each wording is compared with the pages' own
(``corr.web.turns.turn_text``) in ru and fr, for turns that differ in one fact each."""

from __future__ import annotations

from datetime import date, datetime, timezone
from types import SimpleNamespace

import pytest
from django.utils import translation

from corr.games.turns import Turn, TurnState
from corr.nightly.flags import _Texts
from corr.web.turns import turn_text

ON_MOVE = Turn("white", TurnState.ON_MOVE, number=12, until=date(2027, 1, 9))
TURNS = [
    ON_MOVE,
    Turn("white", TurnState.ON_MOVE, number=12, until=date(2027, 1, 10)),  # another deadline
    Turn("black", TurnState.ON_MOVE, number=12, until=date(2027, 1, 9)),  # another reader
    Turn("white", TurnState.ON_MOVE, number=12, until=datetime(2027, 1, 9, 17, 30, tzinfo=timezone.utc)),  # an instant
    Turn("white", TurnState.OVER_THE_CONTROL, number=12, until=date(2027, 1, 9)),
    Turn("white", TurnState.IN_THE_POST, number=12, until=date(2027, 1, 9), sender="white"),  # your move
    Turn("black", TurnState.IN_THE_POST, number=12, until=date(2027, 1, 9), sender="white"),  # anna's move
]


def game_in(zone: str):
    return SimpleNamespace(tournament=SimpleNamespace(time_zone=zone))


@pytest.mark.parametrize("language", ["ru", "fr"])
def test_each_turn_is_worded_as_the_pages_word_it_however_many_turns_share_the_memo(language):
    names = {"white": "anna", "black": "boris"}
    with translation.override(language):
        texts = _Texts()
        for zone in ("Europe/Moscow", "America/Montreal"):
            for turn in TURNS * 2:  # every turn twice: the second from the memo
                assert texts.turn(turn, game_in(zone), names) == turn_text(turn, zone=zone, reader=turn.player,
                                                                           names=names)
        # The sender's name is part of the words: another game's players get their own.
        other = {"white": "vera", "black": "gleb"}
        assert "vera" in texts.turn(TURNS[-1], game_in("UTC"), other)
        assert "anna" in texts.turn(TURNS[-1], game_in("UTC"), names)
        # The instant is worded in the zone: Moscow and Montreal differ.
        assert texts.turn(TURNS[3], game_in("Europe/Moscow"), names) != texts.turn(TURNS[3], game_in(
            "America/Montreal"), names)
