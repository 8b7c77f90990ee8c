"""A live game among the correspondence machinery: the nightly job and the tournament page leave it to its clock."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corr.live import timesource
from corr.nightly.job import nightly_job, nightly_select

from .conftest import FISCHER_5_2, MIN, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_nightly_job_selects_no_live_game_and_counts_no_error(arbiter, clock, create_game):
    tournament = live_tournament(arbiter, FISCHER_5_2)
    create_game(tournament)
    clock.advance(10 * MIN)  # white's flag fell long ago: a live flag is the live service's, not the night's
    on = date.fromtimestamp(timesource.now_ms() / 1000)
    assert nightly_select(on=on) == []
    counts = nightly_job(on=on)
    assert counts["errors"] == 0 and counts["overstep_cases"] == 0


def test_the_tournament_page_of_a_live_tournament_lists_its_games(client, arbiter, clock, create_game):
    tournament = live_tournament(arbiter, FISCHER_5_2)
    game_id = create_game(tournament)
    client.force_login(arbiter)
    with CaptureQueriesContext(connection) as queries:
        r = client.get(f"/tournaments/{tournament.pk}/")
    assert r.status_code == 200
    read = " ".join(q["sql"] for q in queries.captured_queries)
    for table in ("corr_playerclock", "corr_overstepcase", "corr_nightlyreport"):  # correspondence play's only
        assert table not in read, table
    page = r.content.decode()
    assert f"/games/{game_id}/" in page and "5:00" in page  # both clocks of Fischer 5 min + 2 s, not yet started
    assert "live play" in page and "Deadlines of the next four weeks" not in page and "Nightly reports" not in page
    clock.advance(6 * MIN)  # white never came: the flag fell, the game is lost on time and leaves the list
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"/games/{game_id}/" not in page and "1 finished game is not listed" in page
