"""Time given back (issue 39): an arbiter's credit, its refusals and its undoing, a reopening that credits the
overstep or keeps it, and a player's gift of time where the tournament allows it.

The postal game of the fixtures starts on 2026-01-10 with white's move 1 pending; on 2026-03-01 (TODAY) white
has used 50 days of a 30-day control: 20 over. The credit of a reopening is 20 + 1 = 21 days: 29 used, 1 left.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from corr.games import services
from corr.models import EventKind, GameEvent, OverstepCase

from ..conftest import TODAY


def account(body: dict, colour: str) -> dict:
    return body["clock"]["players"][colour]


def lines(body_history: list, kind: str) -> list[str]:
    return [h["note"] for h in body_history if h["kind"] == kind]


@pytest.fixture
def moved(postal_game, anna, boris):
    """White's move 1 sent on 01-20 (10 days), black's move 1 received 01-24 and pending: 36 days by 03-01."""
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=date(2026, 1, 20), today=TODAY)
    return postal_game


@pytest.mark.django_db
def test_an_arbiter_gives_days_back_and_the_history_and_the_ledger_say_it(moved, arbiter, api):
    before = api(arbiter).get(f"/api/games/{moved.pk}/").json()
    assert account(before, "black")["control"]["remaining_days"] == -6  # 36 of 30 days
    r = api(arbiter).post(f"/api/games/{moved.pk}/credits/",
                          {"player": "black", "days": 4, "reason": "postal strike in March"}, format="json")
    assert r.status_code == 201, r.content
    assert r.json() == api(arbiter).get(f"/api/games/{moved.pk}/").json()  # the game as GET shows it
    black = account(r.json(), "black")
    assert (black["credit_days"], black["total_days"], black["control"]["remaining_days"]) == (4, 32, -2)
    assert black["thinking_days"] == 36  # the thinking time itself is as it was: the credit is taken off it
    [line] = [line for line in r.json()["clock"]["ledger"] if line["kind"] == "credit"]
    assert (line["player"], line["move"], line["days"], line["note"]) == ("black", 1, -4, "time given back: 4 day(s)")
    history = api(arbiter).get(f"/api/games/{moved.pk}/history/").json()
    assert lines(history, "credit") == ["4 days given back to black by the arbiter: postal strike in March"]


@pytest.mark.django_db
def test_seconds_are_given_under_an_exact_count(arbiter, anna, boris, api, frozen):
    t = services.tournament_create(by=arbiter, name="Daily", official_start=date(2026, 3, 1), mode="server",
                                   preset="chesscom_days_1")
    # Paired at 00:00 (the arbiter names the official start): white has thought since then, 12 hours by now.
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=TODAY,
                                starts_at=datetime(2026, 3, 1, tzinfo=UTC))
    before = account(api(arbiter).get(f"/api/games/{game.pk}/").json(), "white")["remaining_seconds"]
    r = api(arbiter).post(f"/api/games/{game.pk}/credits/",
                          {"player": "white", "seconds": 9000, "reason": "the server was down 2 h 30 min"},
                          format="json")
    assert r.status_code == 201, r.content
    assert account(r.json(), "white")["remaining_seconds"] == before + 9000
    history = api(arbiter).get(f"/api/games/{game.pk}/history/").json()
    assert lines(history, "credit") == ["0 d 02 h 30 min given back to white by the arbiter:"
                                        " the server was down 2 h 30 min"]


@pytest.mark.django_db
@pytest.mark.parametrize("body, field", [
    ({"player": "black", "days": 4, "reason": " "}, "reason"),
    ({"player": "black", "days": 0, "reason": "strike"}, "days"),
    ({"player": "black", "days": -3, "reason": "strike"}, "days"),
    ({"player": "black", "reason": "strike"}, "days"),
    ({"player": "black", "days": 1, "seconds": 60, "reason": "strike"}, "days"),
    ({"player": "black", "seconds": 3600, "reason": "strike"}, "seconds"),  # a postal game counts days
    ({"player": "black", "days": 37, "reason": "strike"}, "days"),  # more than the 36 days charged so far
])
def test_a_credit_that_breaks_a_rule_is_refused_naming_the_field_and_nothing_is_stored(moved, arbiter, api, body,
                                                                                      field):
    r = api(arbiter).post(f"/api/games/{moved.pk}/credits/", body, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["field"] == field
    assert not GameEvent.objects.filter(game=moved, kind=EventKind.CREDIT).exists()


@pytest.mark.django_db
def test_the_refusal_of_a_credit_beyond_the_time_used_says_the_rule_in_russian(moved, arbiter, api):
    r = api(arbiter).post(f"/api/games/{moved.pk}/credits/", {"player": "black", "days": 37, "reason": "x"},
                          format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert r.status_code == 400
    assert r.json()["detail"] == ("кредит возвращает не больше времени, уже засчитанного игроку чёрные (36 дней): он"
                                  " возвращает использованное время, а не создаёт новое")


@pytest.mark.django_db
def test_only_an_arbiter_gives_time_back(moved, anna, boris, api):
    for player in (anna, boris):
        r = api(player).post(f"/api/games/{moved.pk}/credits/", {"player": "black", "days": 2, "reason": "x"},
                             format="json")
        assert r.status_code == 403
    assert not GameEvent.objects.filter(game=moved, kind=EventKind.CREDIT).exists()


@pytest.mark.django_db
def test_a_credit_is_undone_from_the_history(moved, arbiter, api):
    api(arbiter).post(f"/api/games/{moved.pk}/credits/", {"player": "black", "days": 4, "reason": "strike"},
                      format="json")
    seq = GameEvent.objects.get(game=moved, kind=EventKind.CREDIT).seq
    r = api(arbiter).post(f"/api/games/{moved.pk}/withdrawals/", {"event": seq, "note": "the strike was in April"},
                          format="json")
    assert r.status_code == 201, r.content
    black = account(r.json(), "black")
    assert "credit_days" not in black and black["control"]["remaining_days"] == -6


def lost_on_time(game, arbiter, api) -> OverstepCase:
    """White's 50 days of 30: the case the clock opened, confirmed: the game is lost on time."""
    case = OverstepCase.objects.get(game=game, kind="overstep")
    assert api(arbiter).post(f"/api/overstep-cases/{case.pk}/confirm/").status_code == 200
    game.refresh_from_db()
    assert game.status == "finished"
    return case


@pytest.mark.django_db
def test_reopening_a_game_lost_on_time_asks_what_to_do_with_the_overstep(postal_game, arbiter, api):
    lost_on_time(postal_game, arbiter, api)
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/reopen/", {"note": "postmark in time"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "overstep"
    assert "white" in r.json()["detail"] and "credit" in r.json()["detail"]
    postal_game.refresh_from_db()
    assert postal_game.status == "finished"  # nothing stored


@pytest.mark.django_db
def test_reopening_with_the_credit_puts_the_player_back_in_the_control_and_its_undoing_brings_the_overstep_back(
        postal_game, arbiter, api):
    case = lost_on_time(postal_game, arbiter, api)
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/reopen/",
                          {"note": "the result was the postman's fault", "overstep": "credit"}, format="json")
    assert r.status_code == 201, r.content
    white = account(r.json(), "white")
    assert r.json()["status"] == "ongoing"
    assert (white["overstepped"], white["credit_days"], white["control"]["remaining_days"]) == (None, 21, 1)
    assert r.json()["turn"]["white"]["state"] == "on_move"
    case.refresh_from_db()
    assert case.status == "withdrawn"  # reopened with the game, then withdrawn by the clock
    history = api(arbiter).get(f"/api/games/{postal_game.pk}/history/").json()
    notes = [h["note"] for h in history]
    assert "reopened (was 0-1): the result was the postman's fault" in notes
    assert f"overstep case {case.pk} reopened with the game" in notes
    assert ("21 days given back to white on reopening, back in control 1: the result was the postman's fault"
            in notes)
    assert any(n.startswith(f"overstep case {case.pk} withdrawn: time given back to white: 29 of 30 days used")
               for n in notes)
    seq = GameEvent.objects.get(game=postal_game, kind=EventKind.CREDIT).seq
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/withdrawals/", {"event": seq, "note": "appeal upheld"},
                          format="json")
    assert r.status_code == 201, r.content
    assert account(r.json(), "white")["overstepped"]["used_days"] == 50
    assert OverstepCase.objects.get(game=postal_game, status="open").used_days == 50


@pytest.mark.django_db
def test_reopening_that_keeps_the_overstep_leaves_the_case_open_not_confirmed(postal_game, arbiter, api):
    case = lost_on_time(postal_game, arbiter, api)
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/reopen/", {"note": "wrong game", "overstep": "keep"},
                          format="json")
    assert r.status_code == 201, r.content
    assert account(r.json(), "white")["overstepped"]["used_days"] == 50
    case.refresh_from_db()
    assert case.status == "open"
    history = api(arbiter).get(f"/api/games/{postal_game.pk}/history/").json()
    assert "reopened (was 0-1), white's overstep kept: wrong game" in [h["note"] for h in history]


@pytest.fixture
def gifts(arbiter, anna, boris, frozen):
    t = services.tournament_create(by=arbiter, name="Gifts", official_start=date(2026, 2, 20), mode="server",
                                   gift_max_days=3)
    return services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=TODAY)


@pytest.mark.django_db
def test_a_player_gives_the_partner_days_within_the_tournaments_bound(gifts, anna, api):
    r = api(anna).post(f"/api/games/{gifts.pk}/gifts/", {"days": 2}, format="json")
    assert r.status_code == 201, r.content
    assert account(r.json(), "black")["credit_days"] == 2
    history = api(anna).get(f"/api/games/{gifts.pk}/history/").json()
    assert lines(history, "credit") == ["2 days given to black by white (gifts allowed: up to 3 days a game)"]
    r = api(anna).post(f"/api/games/{gifts.pk}/gifts/", {"days": 2}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "days"
    assert "gift_max_days" in r.json()["detail"]
    assert GameEvent.objects.filter(game=gifts, kind=EventKind.CREDIT).count() == 1


@pytest.mark.django_db
def test_a_gift_is_refused_where_the_tournament_allows_none(server_game, postal_game, anna, eve, api):
    for game in (server_game, postal_game):
        r = api(anna).post(f"/api/games/{game.pk}/gifts/", {"days": 1}, format="json")
        assert r.status_code == 400, r.content
        assert r.json()["field"] == "days"
    assert "gift_max_days" in api(anna).post(f"/api/games/{server_game.pk}/gifts/", {"days": 1},
                                             format="json").json()["detail"]
    assert api(eve).post(f"/api/games/{server_game.pk}/gifts/", {"days": 1}, format="json").status_code == 403
    assert not GameEvent.objects.filter(kind=EventKind.CREDIT).exists()



@pytest.mark.django_db
def test_reopening_with_a_credit_where_no_one_is_over_the_control_is_refused(gifts, arbiter, api):
    services.game_finish(game=gifts, by=arbiter, result="1/2-1/2", termination="", today=TODAY)
    r = api(arbiter).post(f"/api/games/{gifts.pk}/reopen/", {"note": "typo", "overstep": "credit"}, format="json")
    assert r.status_code == 409 and r.json()["field"] == "overstep"
    gifts.refresh_from_db()
    assert gifts.status == "finished"
    r = api(arbiter).post(f"/api/games/{gifts.pk}/reopen/", {"note": "typo"}, format="json")
    assert r.status_code == 201  # nothing to ask: no overstep
