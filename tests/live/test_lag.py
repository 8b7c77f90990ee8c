"""Lag is never credited beyond lichess's quota (issue 24 item 6), through the HTTP stack on the injected clock.

3+0 is estimated at 180 s: the gain is 180 x 2/5 + 15 = 87 cs, the quota 2.61 s at the start and 6.09 s at
most (scalachess ``LagTracker``). corr gave 1 s, then 1 s a move, capped at 3 s, to every clock.
"""

from __future__ import annotations

import pytest

from .conftest import S, START_MS, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_client_claiming_ten_seconds_every_move_is_forgiven_the_quota_and_no_more(
        api, arbiter, anna, boris, clock, create_game):
    game_id = create_game(live_tournament(arbiter, {"system": "fischer", "initial": 180, "increment": 0}))
    clock.advance_to(START_MS)
    white = api(anna).get(f"/api/games/{game_id}/").json()["live"]["players"]["white"]
    assert white["lag_quota_ms"] == 2610
    for number in range(1, 6):
        clock.advance(4 * S)  # four seconds a move, ten claimed
        r = api(anna).post(f"/api/games/{game_id}/moves/", {"number": number, "notation": "", "lag_ms": 10 * S},
                           format="json")
        assert r.status_code == 201, r.json()
        white = r.json()["live"]["players"]["white"]
        r = api(boris).post(f"/api/games/{game_id}/moves/", {"number": number, "notation": ""}, format="json")
        assert r.status_code == 201, r.json()
    # Forgiven: 2.61 s of the first move, then 0.87 s of each of the four others: 6.09 s of the 20 s.
    assert white["used_ms"] == 20 * S - (2610 + 4 * 870)
    assert white["remaining_ms"] == 180 * S - 20 * S + 2610 + 4 * 870
    assert white["lag_quota_ms"] == 870
    ledger = api(anna).get(f"/api/games/{game_id}/").json()["clock"]
    assert ledger["players"]["white"]["lag_quota_ms"] == 870


def test_an_honest_lag_is_forgiven_whole_and_the_quota_grows_to_seven_gains(api, arbiter, anna, boris, clock,
                                                                            create_game):
    game_id = create_game(live_tournament(arbiter, {"system": "fischer", "initial": 180, "increment": 0}))
    clock.advance_to(START_MS)
    for number in range(1, 7):
        clock.advance(2 * S)
        r = api(anna).post(f"/api/games/{game_id}/moves/", {"number": number, "lag_ms": 150}, format="json")
        white = r.json()["live"]["players"]["white"]
        api(boris).post(f"/api/games/{game_id}/moves/", {"number": number}, format="json")
    # 150 ms forgiven each time; the quota 2610 + 6 x (870 - 150) = 6930, capped at 7 x 870 = 6090.
    assert white["used_ms"] == 6 * (2 * S - 150) and white["lag_quota_ms"] == 6090
