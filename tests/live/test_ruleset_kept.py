"""A live press parses its tournament's ruleset once per row, not once per press (issue 42, corr/live/trips.py):
the games of a tournament share the parsed ruleset while the row stays as it is, and a change of the row is read."""

from __future__ import annotations

import pytest

from corr.live.trips import read_game
from corr.models import Tournament

from .conftest import FISCHER_5_2, live_tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_a_tournaments_ruleset_is_parsed_once_while_its_row_stays_and_read_again_when_it_changes(arbiter, clock,
                                                                                              create_game):
    tournament = live_tournament(arbiter, FISCHER_5_2)
    first, second = create_game(tournament), create_game(tournament)
    rulesets = [read_game(game_id)[0].tournament.ruleset for game_id in (first, second, first)]
    assert rulesets[0] is rulesets[1] is rulesets[2]
    assert rulesets[0].time_control.system.increment == 2000

    Tournament.objects.filter(pk=tournament.pk).update(
        time_control={"unit": "seconds", **FISCHER_5_2, "increment": 5})
    changed = read_game(first)[0].tournament.ruleset
    assert changed is not rulesets[0]
    assert changed.time_control.system.increment == 5000
    assert read_game(second)[0].tournament.ruleset is changed
