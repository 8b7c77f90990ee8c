"""Fixtures of the conditional moves' tests (issue 28)."""

from __future__ import annotations

import pytest


def post(api, user, game, path, body):
    return api(user).post(f"/api/games/{game.pk}/{path}", body, format="json")


@pytest.fixture
def with_variant(api, postal_game, anna, boris):
    """White's move 2 (sent 02-20) carries the variant 2... Nc6 3. Bb5 a6 4. Ba4; black received it 02-24."""
    for user, body in ((anna, {"number": 1, "notation": "e4", "sent_on": "2026-02-10"}),
                       (boris, {"number": 1, "notation": "e5", "received_on": "2026-02-14", "sent_on": "2026-02-15"}),
                       (anna, {"number": 2, "notation": "Nf3", "received_on": "2026-02-19",
                               "sent_on": "2026-02-20"})):
        r = post(api, user, postal_game, "moves/", body)
        assert r.status_code == 201, r.json()
    return postal_game
