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


READER = SimpleNamespace(time_zone="")  # a recipient without a zone of their own: the tournament's


@pytest.mark.parametrize("language", ["ru", "fr"])
def test_each_turn_is_worded_as_the_pages_word_it_however_many_turns_share_the_memo(language):
    names = {"white": "anna", "black": "boris"}
    with translation.override(language):
        texts = _Texts()
        for zone in ("Europe/Moscow", "America/Montreal"):
            for turn in TURNS * 2:  # every turn twice: the second from the memo
                assert texts.turn(turn, game_in(zone), names, READER) == turn_text(turn, zone=zone, reader=turn.player,
                                                                           names=names)
        # The sender's name is part of the words: another game's players get their own.
        other = {"white": "vera", "black": "gleb"}
        assert "vera" in texts.turn(TURNS[-1], game_in("UTC"), other, READER)
        assert "anna" in texts.turn(TURNS[-1], game_in("UTC"), names, READER)
        # The instant is worded in the zone: Moscow and Montreal differ.
        assert texts.turn(TURNS[3], game_in("Europe/Moscow"), names, READER) != texts.turn(TURNS[3], game_in(
            "America/Montreal"), names, READER)


@pytest.mark.parametrize("language, own, tournament", [("fr", "12:30, New York", "20:30, Moscou"),
                                                      ("ru", "12:30, Нью-Йорк", "20:30, Москва")])
def test_an_instant_is_worded_in_the_reader_s_own_zone_when_they_have_one(language, own, tournament):
    """As the pages and the other e-mails say it (corr.web.deadline.reader_zone); the e-mail walk of 2026-12-06 read
    Moscow's time in the nightly e-mails of a reader in New York."""
    names = {"white": "anna", "black": "boris"}
    new_york = SimpleNamespace(time_zone="America/New_York")
    with translation.override(language):
        texts = _Texts()
        worded = texts.turn(TURNS[3], game_in("Europe/Moscow"), names, new_york)
        assert worded == turn_text(TURNS[3], zone="America/New_York", reader="white", names=names)
        assert own in worded
        # The memo keeps the readers of one game apart: one without a zone of their own reads the tournament's.
        assert tournament in texts.turn(TURNS[3], game_in("Europe/Moscow"), names, READER)
