"""``rows_as_of``'s fast path (nothing entered or dated after the date) gives what its full walk gives.

The nightly re-check takes the fast path for almost every game; the full walk
is the rule (what a game looked like on a past date). Both are run here on
the benchmarks' generated histories (moves, receipts, start notices) and on a
postal game with a penalty and a line of the history, for dates after
everything (fast path taken) and for dates inside the history (full walk).
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from corr.benchdata import bench_data_load
from corr.clock import assembly
from corr.clock.assembly import rows_as_of, rows_as_of_walked
from corr.models import Game
from corr.nightly.job import _entered_on, chunk_games, chunk_rows

pytestmark = pytest.mark.django_db
ON = date(2026, 11, 29)


def both_ways(rows, on) -> tuple:
    # The walk called directly, not by patching the fast path's test away: in the compiled build the
    # module's functions call each other in C, past any patch of the module's names.
    fast = rows_as_of(rows, on, _entered_on)
    walked = rows_as_of_walked(sorted(rows, key=lambda r: r.seq), on, _entered_on)
    return fast, walked


def test_generated_histories_agree_both_ways():
    bench_data_load(games=60, near=20, on=ON, progress=lambda line: None)
    with_fast_path = 0
    for game_id, rows in chunk_rows(chunk_games(list(Game.objects.values_list("pk", flat=True)))).items():
        latest = max(max(r.entered_on, r.sent_on or r.entered_on, r.received_on or r.entered_on) for r in rows)
        for on in (latest, latest + timedelta(days=3), latest - timedelta(days=20), latest - timedelta(days=90)):
            fast, walked = both_ways(rows, on)
            assert fast == walked, (game_id, on)
            with_fast_path += assembly._nothing_after(sorted(rows, key=lambda r: r.seq), on, _entered_on)
    assert with_fast_path >= 60  # the dates after everything took the fast path


def test_a_corrected_and_penalised_postal_game_agrees_both_ways(api, postal_game, anna, boris, arbiter, frozen):
    from corr.games import services
    from corr.games.cases import history_append
    from corr.games.selectors import game_rows

    today = date.today()
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", received_on=None,
                         sent_on=today - timedelta(days=20), today=today)
    services.move_submit(game=postal_game, by=boris, number=1, notation="e5",
                         received_on=today - timedelta(days=15), sent_on=today - timedelta(days=12), today=today)
    services.penalty_assess(game=postal_game, by=arbiter, player="white", reason="address_error", today=today)
    history_append(game=postal_game, by=arbiter, kind="case", note="a line of the history, never a clock fact")
    rows = game_rows(game=postal_game)
    assert {"penalty", "case"} <= {r.kind for r in rows}
    chunk = chunk_rows(chunk_games([postal_game.pk]))[postal_game.pk]
    for on in (today, today - timedelta(days=13), today - timedelta(days=19), today - timedelta(days=40)):
        fast, walked = both_ways(chunk, on)
        assert fast == walked, on
