"""A preview's permissions are the act's (issue 41): every kind, every role, the act's status (200 for its 201).

Each act is made and undone (a savepoint rolled back) so that every role meets the same game. The postal game
of the fixtures: white's move 1 sent 01-20; black's move 1 pending since 01-24 (presumed); today 2026-03-01.
A leave is the caller's own booking: the game's preview shows it on this game, so it also needs the game's
read (a stranger gets the game's 403, where the booking alone would be tried on the stranger's own games).
"""

from __future__ import annotations

from datetime import date

import pytest
from django.db import transaction

from corr.games import services

from ..conftest import TODAY

pytestmark = pytest.mark.django_db

ACTS = {  # kind: (the act's own endpoint under the game, or an absolute path; its body)
    "move": ("moves/", {"number": 1, "notation": "e5", "received_on": "2026-01-24", "sent_on": "2026-02-10"}),
    "receipt": ("receipts/", {"received_on": "2026-01-25"}),
    "notice": ("notices/", {"reason": "illegible_move", "received_on": "2026-01-25", "sent_on": "2026-01-26"}),
    "penalty": ("penalties/", {"player": "black", "reason": "address_error"}),
    "delay": ("delays/", {"player": "black", "days": 2}),
    "credit": ("credits/", {"player": "black", "days": 1, "reason": "a postal strike"}),
    "leave": ("/api/leaves/", {"from": "2026-03-10", "to": "2026-03-12"}),
    "result": ("result/", {"result": "1-0", "termination": "adjudicated"}),
}
ROLES = ("player", "opponent", "other_player", "arbiter", "other_arbiter", "anonymous")


@pytest.fixture
def moved(postal_game, anna):
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=date(2026, 1, 20), today=TODAY)
    return postal_game


@pytest.fixture
def users(anna, boris, eve, arbiter, other_arbiter):
    # black (boris) is on move: the player; white (anna) the opponent.
    return {"player": boris, "opponent": anna, "other_player": eve, "arbiter": arbiter,
            "other_arbiter": other_arbiter, "anonymous": None}


def undone(client, url: str, body: dict):
    """``client``'s POST of ``body`` to ``url``, whatever it stored rolled back."""
    with transaction.atomic():
        answer = client.post(url, body, format="json")
        transaction.set_rollback(True)
    return answer


@pytest.mark.parametrize("kind", list(ACTS))
def test_every_role_previews_each_kind_exactly_where_it_may_act(moved, users, api, kind):
    path, body = ACTS[kind]
    url = path if path.startswith("/") else f"/api/games/{moved.pk}/{path}"
    seen = {}
    for role in ROLES:
        client = api(users[role])
        preview = undone(client, f"/api/games/{moved.pk}/preview/", {"events": [{"kind": kind, **body}]})
        act = undone(client, url, body)
        read = client.get(f"/api/games/{moved.pk}/")
        if kind == "leave" and read.status_code != 200:  # the game's read comes first
            want = (read.status_code, read.json())
        else:
            want = ({201: 200}.get(act.status_code, act.status_code), None if act.status_code == 201 else act.json())
        got = (preview.status_code, None if preview.status_code == 200 else preview.json())
        assert got == want, (role, preview.content, act.content)
        seen[role] = preview.status_code
    # The matrix is not all one answer: someone may, and strangers may not.
    assert seen["anonymous"] in (401, 403) and seen["other_player"] == 403 and seen["other_arbiter"] == 403
    allowed = {"move": {"player"}, "receipt": {"player"}, "notice": {"player"},
               "penalty": {"arbiter"}, "delay": {"arbiter"}, "credit": {"arbiter"}, "result": {"arbiter"}}
    if kind in allowed:
        assert {role for role, code in seen.items() if code == 200} == allowed[kind]
