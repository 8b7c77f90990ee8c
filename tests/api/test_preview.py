"""See before you act (issue 41): ``POST /api/games/{id}/preview/`` gives the game as storing the events would,
and stores nothing.

The postal game of the fixtures starts on 2026-01-10 (30 days a control of 10 moves, 4 days' transit); today
is 2026-03-01.
"""

from __future__ import annotations

from datetime import date

import pytest

from corr.games import services

from ..conftest import TODAY


@pytest.fixture
def moved(postal_game, anna):
    """White's move 1 sent on 01-20 (10 days used); black's move 1 pending since 01-24 (presumed)."""
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=date(2026, 1, 20), today=TODAY)
    return postal_game


@pytest.mark.django_db
def test_a_preview_of_a_move_gives_the_clock_storing_it_gives(moved, boris, api):
    move = {"number": 1, "notation": "e5", "received_on": "2026-01-24", "sent_on": "2026-02-10"}
    preview = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "move", **move}]},
                              format="json")
    assert preview.status_code == 200, preview.content
    stored = api(boris).post(f"/api/games/{moved.pk}/moves/?ledger=1", move, format="json")
    assert stored.status_code == 201, stored.content
    assert preview.json()["clock"] == stored.json()["clock"]
    assert preview.json()["turn"] == stored.json()["turn"]
    assert preview.json()["time_left"] == stored.json()["time_left"]
    print(preview.json()["changes"])


# A legal line (the Breyer Ruy Lopez) for the server games: every move is checked on the board.
LINE = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7".split()


@pytest.mark.django_db
def test_the_partner_previews_no_move_and_is_told_as_the_move_would_tell_them(moved, anna, api):
    move = {"number": 2, "notation": "d4", "sent_on": "2026-02-20"}
    preview = api(anna).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "move", **move}]},
                             format="json")
    act = api(anna).post(f"/api/games/{moved.pk}/moves/", move, format="json")
    assert (preview.status_code, preview.json()) == (act.status_code, act.json())
    assert act.status_code == 409


@pytest.mark.django_db
def test_a_player_cannot_preview_an_arbiters_penalty_and_a_stranger_sees_nothing(moved, anna, eve, arbiter, api):
    penalty = {"player": "black", "reason": "address_error"}
    preview = api(anna).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "penalty", **penalty}]},
                             format="json")
    act = api(anna).post(f"/api/games/{moved.pk}/penalties/", penalty, format="json")
    assert (preview.status_code, preview.json()) == (act.status_code, act.json()) == (403, act.json())
    stranger = api(eve).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "penalty", **penalty}]},
                             format="json")
    read = api(eve).get(f"/api/games/{moved.pk}/")
    assert (stranger.status_code, stranger.json()) == (read.status_code, read.json()) == (403, read.json())
    missing = api(anna).post("/api/games/999999/preview/", {"events": [{"kind": "move", "number": 1}]},
                             format="json")
    assert (missing.status_code, missing.json()) == (404, api(anna).get("/api/games/999999/").json())
    # The arbiter's own preview is the penalty's 201 answer, as 200.
    ok = api(arbiter).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "penalty", **penalty}]},
                           format="json")
    stored = api(arbiter).post(f"/api/games/{moved.pk}/penalties/", penalty, format="json")
    assert (ok.status_code, stored.status_code) == (200, 201)
    assert ok.json()["clock"] == stored.json()["clock"]


@pytest.mark.django_db
def test_a_bad_field_is_refused_as_its_endpoint_refuses_it_naming_the_field(moved, boris, api):
    move = {"number": 1, "notation": "e5", "received_on": "2026-01-24", "sent_on": "2026-03-02"}  # after today
    preview = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "move", **move}]},
                              format="json", HTTP_ACCEPT_LANGUAGE="ru")
    act = api(boris).post(f"/api/games/{moved.pk}/moves/", move, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert (preview.status_code, preview.json()) == (act.status_code, act.json())
    assert preview.status_code == 400 and preview.json()["field"] == "sent_on"
    unknown = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": "gift"}]}, format="json")
    assert unknown.status_code == 400 and unknown.json()["field"] == "kind"
    assert "move, receipt, notice, penalty, delay, credit, leave, result" in unknown.json()["detail"]
    odd = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": [{"kind": ["move"]}]}, format="json")
    assert odd.status_code == 400 and odd.json()["field"] == "kind"
    empty = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": []}, format="json")
    assert empty.status_code == 400 and empty.json()["field"] == "events"


@pytest.mark.django_db
def test_the_changes_say_what_the_move_does_in_the_readers_language(moved, boris, api):
    move = {"kind": "move", "number": 1, "notation": "e5", "received_on": "2026-01-24", "sent_on": "2026-02-10"}
    en = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": [move]}, format="json").json()["changes"]
    # Black used 17 days of 30 (01-24 .. 02-10): 13 left; white's move 2 arrives 02-14 with 20 days left, and
    # by 03-01 has used 15 of them: 5 left, in time trouble (5 or fewer, 50.4.12), deadline 03-06.
    assert "black: 13 days left instead of 6 days over the control" in en
    assert "black would be back in control 1: its overstep case would be withdrawn" in en
    assert ("white in time trouble (5 days left): registered mail from move 2 (Correspondence rules 50.4.12)"
            in en)
    assert "white: deadline 2026-03-06 (none now)" in en
    ru = api(boris).post(f"/api/games/{moved.pk}/preview/", {"events": [move]}, format="json",
                         HTTP_ACCEPT_LANGUAGE="ru").json()["changes"]
    assert len(ru) == len(en) and not any("instead of" in line or "deadline" in line for line in ru)
