"""Every input bounded (corr.limits): out of bounds is a 400 naming the field, and nothing is stored."""

from __future__ import annotations

from datetime import date

import pytest

from accounts.models import User
from corr import limits
from corr.api.parsers import json_depth
from corr.games import services
from corr.models import Game, GameEvent, OutboundEmail, Tournament

from ..conftest import TODAY

pytestmark = pytest.mark.django_db

LONG = "x" * 10_000


def stored() -> dict[str, int]:
    """Row counts of everything a request could store."""
    return {model.__name__: model.objects.count()
            for model in (User, Tournament, Game, GameEvent, OutboundEmail)}


def refused(client, path: str, body, field: str | None):
    """POST ``body``; assert a 400 naming ``field`` and that no row was stored; return the answer's body."""
    before = stored()
    r = client.post(path, body, format="json")
    assert r.status_code == 400, (r.status_code, r.content[:300])
    answer = r.json()
    assert answer["field"] == field, answer
    assert stored() == before
    return answer


GAME_ACTIONS = [
    # (action, body, the field named)
    ("delays", {"player": "white", "days": 2**31}, "days"),
    ("delays", {"player": "white", "days": 2**63}, "days"),
    ("delays", {"player": "white", "days": 0}, "days"),
    ("delays", {"player": "white", "days": 3651}, "days"),
    ("delays", {"player": "white", "days": 3, "move": 10_001}, "move"),
    ("delays", {"player": "white", "days": 3, "reason": LONG}, "reason"),
    ("penalties", {"player": "white", "reason": "address_error", "move": 2**31}, "move"),
    ("penalties", {"player": "white", "reason": LONG}, "reason"),
    ("moves", {"number": 2**31, "sent_on": "2026-01-12"}, "number"),
    ("moves", {"number": 1, "notation": "x" * 65, "sent_on": "2026-01-12"}, "notation"),
    ("moves", {"number": 1, "sent_on": "0001-01-01"}, "sent_on"),
    ("moves", {"number": 1, "received_on": "9999-12-31", "sent_on": "2026-01-12"}, "received_on"),
    ("receipts", {"received_on": "1899-12-31"}, "received_on"),
    ("notices", {"reason": LONG, "received_on": "2026-01-12", "sent_on": "2026-01-12"}, "reason"),
    ("notices", {"reason": "illegible_move", "received_on": "0001-01-01", "sent_on": "2026-01-12"},
     "received_on"),
    ("start-notices", {"player": "white", "received_on": "0001-01-01"}, "received_on"),
    ("start-notices", {"player": "white", "received_on": "2200-01-01"}, "received_on"),
    ("corrections", {"event": 1, "note": "typo", "days": 2**31}, "days"),
    ("corrections", {"event": 1, "note": "typo", "number": 10_001}, "number"),
    ("corrections", {"event": 1, "note": "x" * 2001}, "note"),
    ("corrections", {"event": 2**40, "note": "typo"}, "event"),
    ("corrections", {"event": 1, "note": "typo", "sent_on": "9999-12-31"}, "sent_on"),
    ("corrections", {"event": 1, "note": "typo", "notation": "x" * 65}, "notation"),
    ("withdrawals", {"event": 1, "note": LONG}, "note"),
    ("withdrawals", {"event": 2**63, "note": "appeal"}, "event"),
    ("result", {"result": "1-0", "termination": LONG}, "termination"),
]


@pytest.mark.parametrize(("action", "body", "field"), GAME_ACTIONS,
                         ids=[f"{a}-{f}-{i}" for i, (a, _, f) in enumerate(GAME_ACTIONS)])
def test_a_game_action_out_of_bounds_is_refused_naming_the_field(api, postal_game, arbiter, action, body, field):
    services.delay_assess(game=postal_game, by=arbiter, player="black", days=2, move=1, today=TODAY)  # event 1
    answer = refused(api(arbiter), f"/api/games/{postal_game.pk}/{action}/", body, field)
    assert answer["detail"].startswith(f"{field}: ")


def test_a_delay_within_bounds_is_stored(api, postal_game, arbiter):
    url = f"/api/games/{postal_game.pk}/delays/"
    for days in (limits.DELAY_DAYS_MIN, limits.DELAY_DAYS_MAX):
        r = api(arbiter).post(url, {"player": "black", "days": days, "move": 1}, format="json")
        assert r.status_code == 201, r.json()
    assert r.json()["clock"]["players"]["black"]["delay_days"] == 1 + 3650


def tournament(**changes) -> dict:
    return {"name": "Bounded cup", "official_start": "2026-01-10", "mode": "postal"} | changes


TOURNAMENTS = [
    (tournament(ruleset={"days_per_control": 100_000}), "ruleset.days_per_control"),
    (tournament(ruleset={"days_per_control": 3651}), "ruleset.days_per_control"),
    (tournament(ruleset={"moves_per_control": 40_000}), "ruleset.moves_per_control"),
    (tournament(ruleset={"grace_days": 2**31}), "ruleset.grace_days"),
    (tournament(ruleset={"first_penalty_days": 32_768}), "ruleset.first_penalty_days"),
    (tournament(ruleset={"late_notice_start_days": 10**30}), "ruleset.late_notice_start_days"),
    (tournament(ruleset={"time_control": {"system": "per_move", "time": 10**9}}), "ruleset.time_control.time"),
    (tournament(ruleset={"time_control": {"system": "periods", "stages": [{"moves": 10, "time": 30}] * 101,
                                          "repeat_last": True}}), "ruleset.time_control.stages"),
    (tournament(official_start="9999-12-31"), "official_start"),
    (tournament(official_start="0001-01-01"), "official_start"),
    (tournament(official_start="1899-12-31"), "official_start"),
    (tournament(name="x" * 201), "name"),
    (tournament(presumed_transit_days=366), "presumed_transit_days"),
    (tournament(presumed_transit_days=2**31), "presumed_transit_days"),
    (tournament(time_zone=LONG), "time_zone"),
]


@pytest.mark.parametrize(("body", "field"), TOURNAMENTS, ids=[f"{f}-{i}" for i, (_, f) in enumerate(TOURNAMENTS)])
def test_a_tournament_out_of_bounds_is_refused_naming_the_field(api, arbiter, body, field):
    refused(api(arbiter), "/api/tournaments/", body, field)


def test_a_tournament_on_the_edges_of_the_window_and_ranges_is_created(api, arbiter, anna, boris, frozen):
    for start in ("1900-01-01", "2199-12-31"):
        ruleset = {name: high for name, (_, high) in limits.RULESET_RANGES.items()}
        r = api(arbiter).post("/api/tournaments/", tournament(official_start=start, ruleset=ruleset,
                                                               presumed_transit_days=365), format="json")
        assert r.status_code == 201, r.json()
        g = api(arbiter).post("/api/games/", {"tournament": r.json()["id"], "white": "anna", "black": "boris"},
                              format="json")
        assert g.status_code == 201, g.json()


def test_a_game_in_a_tournament_starting_on_9999_12_31_is_a_400_not_a_500(api, arbiter, anna, boris, frozen):
    # Stored before the window existed: the first mover's deadline (start + 30 days) is past year 9999.
    old = Tournament.objects.create(name="Far", official_start=date(9999, 12, 31), mode="postal", created_by=arbiter)
    old.arbiters.add(arbiter)
    answer = refused(api(arbiter), "/api/games/", {"tournament": old.pk, "white": "anna", "black": "boris"},
                     "players.white.deadline")
    assert "9999-12-31" in answer["detail"]


@pytest.mark.parametrize(("body", "field"), [
    ({"tournament": 2**70, "white": "anna", "black": "boris"}, "tournament"),
    ({"tournament": 1, "white": LONG, "black": "boris"}, "white"),
])
def test_a_game_out_of_bounds_is_refused(api, arbiter, postal, body, field):
    refused(api(arbiter), "/api/games/", body, field)


@pytest.mark.parametrize(("body", "field"), [
    ({"username": "zoe", "password": "zoe-pass-12", "email": "z" * 300 + "@example.org"}, "email"),
    ({"username": "zoe", "password": "p" * 5000}, "password"),
    ({"username": "z" * 151, "password": "zoe-pass-12"}, "username"),
])
def test_a_participant_out_of_bounds_is_refused(api, arbiter, body, field):
    refused(api(arbiter), "/api/users/", body, field)


def test_a_nightly_report_date_outside_the_window_is_a_400(api, arbiter):
    r = api(arbiter).get("/api/reports/nightly/?date=0001-01-01")
    assert r.status_code == 400 and r.json()["field"] == "date"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("body", [nested(3000), nested(limits.JSON_DEPTH_MAX + 1),
                                  '{"player": ' + '{"a": ' * (limits.JSON_DEPTH_MAX + 8) + "1"
                                  + "}" * (limits.JSON_DEPTH_MAX + 8) + "}"])
def test_a_json_body_nested_too_deep_is_a_400_for_a_signed_in_user(api, postal_game, arbiter, body):
    before = stored()
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/delays/", body, content_type="application/json")
    assert r.status_code == 400
    assert r.json() == {"detail": f"JSON body nested deeper than {limits.JSON_DEPTH_MAX} levels", "field": None}
    assert stored() == before


def test_a_json_body_nested_3000_deep_is_a_400_for_anyone_asking_for_a_token(api):
    r = api(None).post("/api/auth/token/", nested(3000), content_type="application/json")
    assert r.status_code == 400 and r.json()["field"] is None
    assert "nested deeper" in r.json()["detail"]


def test_a_body_as_deep_as_allowed_is_read(api, arbiter):
    # 32 levels pass the parser; the serializer then says what is wrong with the field.
    r = api(arbiter).post("/api/tournaments/", nested(limits.JSON_DEPTH_MAX), content_type="application/json")
    assert r.status_code == 400 and "nested" not in r.json()["detail"]


def test_json_depth_counts_arrays_and_objects():
    assert [json_depth(v) for v in (1, [], {"a": [1]}, [[{"b": {}}]], {"a": 1, "b": [[2]]})] == [0, 1, 2, 4, 3]
