"""Issue 37's round trip: every file corr exports computes, read back, the clocks the game has.

Each game of the corpus is made through the real services and API, downloaded through the real export
endpoint (``GET /api/games/{id}/export/{format}/``), then

1. computed by ``manage.py clock FILE --preset P --time-zone Z --as-of D --json``: every field of every
   player's account that both answers hold equals ``GET /api/games/{id}/`` (``clock.players``);
2. where corr imports the file, imported into a new tournament of the same rules: the copy's
   ``clock.players`` equals the original's, field by field, whole.

Fields compared (1): every key of the API's account that the command's account also has. The API adds keys
of its own that no file can hold: ``days_left`` and ``hours_left`` (its words for the same time left,
derived from ``remaining_seconds``) are kept and compared as well when the command has them; none is
excluded silently: ``EXCLUDED`` lists what is left out and why.
"""

from __future__ import annotations

import json
from datetime import date, datetime, UTC
from io import StringIO

import pytest
from django.core.management import call_command

from corr.games import services

from ..conftest import NOW, TODAY
from .test_exports import export

pytestmark = pytest.mark.django_db

EXCLUDED: dict[str, str] = {}
"""Account fields of the API that the command's answer does not hold, with the reason."""


def clock_command(tmp_path, text: str, suffix: str, *, preset: str, zone: str, as_of: str) -> tuple[dict, str]:
    path = tmp_path / f"game.{suffix}"
    path.write_text(text)
    out, err = StringIO(), StringIO()
    call_command("clock", str(path), "--preset", preset, "--time-zone", zone, "--json", "--as-of", as_of,
                 stdout=out, stderr=err)
    return json.loads(out.getvalue())["players"], err.getvalue()


def api_clock(api, user, game) -> dict:
    r = api(user).get(f"/api/games/{game.pk}/")
    assert r.status_code == 200, r.json()
    return r.json()["clock"]


def assert_same_accounts(command: dict, page: dict) -> None:
    """Every field both answers hold, for every player, equal; what only the page has is in ``EXCLUDED``."""
    assert set(command) == set(page)
    for colour, account in page.items():
        shared = set(account) & set(command[colour])
        assert set(account) - shared <= set(EXCLUDED), (colour, set(account) - shared)
        assert {k: command[colour][k] for k in shared} == {k: account[k] for k in shared}, colour


def postal_moves(api, game, users, moves):
    numbers = {"white": 0, "black": 0}
    for player, notation, received, sent in moves:
        numbers[player] += 1
        body = {"number": numbers[player], "notation": notation, "sent_on": sent, "mail": "email"}
        if received:
            body["received_on"] = received
        r = api(users[player]).post(f"/api/games/{game.pk}/moves/", body, format="json")
        assert r.status_code == 201, r.json()


@pytest.fixture
def postal_eventful(api, arbiter, anna, boris, postal_game):
    """A postal game (10 moves in 30 days, 4 days' transit, Moscow) with an impossible move and its notice, the
    penalty for it, a late repeat's delay, special leave and a recorded receipt of the move on turn."""
    game, users = postal_game, {"white": anna, "black": boris}
    postal_moves(api, game, users, [("white", "e4", None, "2026-01-12"), ("black", "e5", "2026-01-16", "2026-01-18"),
                                    ("white", "Ke3", "2026-01-22", "2026-01-25")])  # impossible: e3 is not the king's
    r = api(boris).post(f"/api/games/{game.pk}/notices/", {"reason": "impossible_move", "received_on": "2026-01-29",
                                                           "sent_on": "2026-01-30"}, format="json")
    assert r.status_code == 201, r.json()
    r = api(arbiter).post(f"/api/games/{game.pk}/penalties/", {"player": "white", "reason": "impossible_move"},
                          format="json")
    assert r.status_code == 201, r.json()
    r = api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 2, "notation": "Nf3", "received_on": "2026-02-03",
                                                        "sent_on": "2026-02-04"}, format="json")
    assert r.status_code == 201, r.json()
    postal_moves(api, game, users, [])
    r = api(boris).post(f"/api/games/{game.pk}/moves/", {"number": 2, "notation": "Nc6", "received_on": "2026-02-08",
                                                         "sent_on": "2026-02-10"}, format="json")
    assert r.status_code == 201, r.json()
    r = api(arbiter).post(f"/api/games/{game.pk}/delays/", {"player": "white", "days": 2}, format="json")
    assert r.status_code == 201, r.json()
    r = api(arbiter).post(f"/api/games/{game.pk}/special-leave/", {"player": "white", "from": "2026-02-15",
                                                                   "to": "2026-02-18", "reason": "illness"},
                          format="json")
    assert r.status_code == 201, r.json()
    r = api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 3, "notation": "Bb5", "received_on": "2026-02-14",
                                                        "sent_on": "2026-02-21"}, format="json")
    assert r.status_code == 201, r.json()
    r = api(boris).post(f"/api/games/{game.pk}/receipts/", {"received_on": "2026-02-25"}, format="json")
    assert r.status_code == 201, r.json()
    return game


def test_postal_pgn_with_notice_penalty_delay_and_leave_computes_to_the_game_page(api, tmp_path, anna,
                                                                                   postal_eventful):
    text = export(api(anna), postal_eventful, "pgn").content.decode()
    print(text)
    page = api_clock(api, anna, postal_eventful)
    print(json.dumps(page["players"], indent=1))
    players, warnings = clock_command(tmp_path, text, "pgn", preset="rus_50_4", zone="Europe/Moscow",
                                      as_of=TODAY.isoformat())
    assert warnings == ""
    assert_same_accounts(players, page["players"])
