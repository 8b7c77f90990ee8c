"""Each server's own clock over HTTP (issue 40): chess.com's automatic vacation at the flag's instant with
allowance left and its second silence that flags, lichess's "+" refused above ``increment - 1 h`` and given
below it, OGS's pause within its budget, a vacation booked; each in the history and in both players' clocks.

chess.com daily 3 (``chesscom_daily_3``): black receives 1. e4 at 10:00Z on 2 March; his 3 days would end at
10:00Z on 5 March. With a new account's 7 days (168 h) his automatic vacation starts a second before, and lasts
until he moves or the allowance is spent (``corr.clock.vacation``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from corr.models import EventKind, Game, GameEvent
from corr.timeouts.services import flag_record

from ..server_instants.conftest import move_at, read_at, z
from .conftest import DAY, WHITE_SENT

pytestmark = pytest.mark.django_db
FLAG = WHITE_SENT + 3 * DAY


def game_at(client, game, at, language="en"):
    r = read_at(client, f"/api/games/{game.pk}/", at, HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 200, r.content
    return r.json()


def history(client, game) -> list[dict]:
    return client.get(f"/api/games/{game.pk}/history/").json()


def test_a_silent_player_with_allowance_goes_on_automatic_vacation_and_both_players_see_it(chesscom_game, anna,
                                                                                            boris, api):
    # A day after his 3 days ran out the game goes on: the flag's check records nothing.
    later = FLAG + DAY
    with time_machine.travel(later, tick=False):
        assert flag_record(game_id=chesscom_game.pk, now=later) is False
    assert Game.objects.get(pk=chesscom_game.pk).status == "ongoing"
    for client in (api(anna), api(boris)):
        body = game_at(client, chesscom_game, later)
        vacation = body["clock"]["players"]["black"]["vacation"]
        # Begun one second before the flag, until he moves or his 168 hours are spent; so far 1 day and 1
        # second of it, every started hour counted: 168 - 25 = 143 hours left.
        begun = FLAG - timedelta(seconds=1)
        assert vacation["taken"] == [{"from": z(begun), "to": z(begun + 7 * DAY), "automatic": True}]
        assert vacation["left_hours"] == 143
        assert body["clock"]["players"]["black"]["overstepped"] is None
        assert body["clock"]["players"]["white"]["vacation"] == {"left_hours": 168, "taken": []}


def test_his_move_ends_the_vacation_and_a_second_silence_without_allowance_flags(chesscom_game, anna, boris, api):
    # Black moves 6 days after his vacation began: it spent 6 d 00 h 00 min 01 s, 145 started hours: 23 left,
    # less than a vacation's 24 (min_hours): his next silence flags at the end of his 3 days.
    black_sent = FLAG + 6 * DAY
    assert move_at(api(boris), chesscom_game, 1, "e5", black_sent).status_code == 201
    white_sent = black_sent + DAY
    assert move_at(api(anna), chesscom_game, 2, "Nf3", white_sent).status_code == 201
    flag = white_sent + 3 * DAY
    body = game_at(api(anna), chesscom_game, flag - timedelta(seconds=1))
    black = body["clock"]["players"]["black"]
    assert black["vacation"]["left_hours"] == 23
    assert black["flag_at"] == z(flag)
    with time_machine.travel(flag, tick=False):
        assert flag_record(game_id=chesscom_game.pk, now=flag) is True
    game = Game.objects.get(pk=chesscom_game.pk)
    assert (game.status, game.result) == ("finished", "1-0")


@pytest.mark.parametrize("language, words", [
    ("en", "not under 2 d 23 h 00 min"),
    ("ru", "не меньше"),
    ("fr", "pas moins de"),
])
def test_lichess_plus_is_refused_above_increment_less_an_hour_naming_field_and_rule(lichess_game, anna, api,
                                                                                    language, words):
    # Half an hour after 1. e4 arrived black has 2 d 23 h 30 min: not under 3 days less an hour (moretimeable).
    with time_machine.travel(WHITE_SENT + timedelta(minutes=30), tick=False):
        r = api(anna).post(f"/api/games/{lichess_game.pk}/gifts/", {"days": 1}, format="json",
                           HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400, r.content
    assert r.json()["field"] == "at"
    assert words in r.json()["detail"], r.json()["detail"]
    assert not GameEvent.objects.filter(game=lichess_game, kind=EventKind.GIFT).exists()


def test_lichess_plus_gives_a_day_in_both_players_clocks_and_the_history(lichess_game, anna, boris, api):
    at = WHITE_SENT + timedelta(hours=2)
    before = game_at(api(boris), lichess_game, at)["time_left"]["black"]["seconds"]
    with time_machine.travel(at, tick=False):
        r = api(anna).post(f"/api/games/{lichess_game.pk}/gifts/", {"days": 1}, format="json")
    assert r.status_code == 201, r.content
    for client in (api(anna), api(boris)):
        body = game_at(client, lichess_game, at)
        assert body["time_left"]["black"]["seconds"] == before + 86_400
        assert body["clock"]["players"]["black"]["flag_at"] == z(WHITE_SENT + 4 * DAY)
        [line] = [x for x in body["clock"]["ledger"] if x["kind"] == "gift"]
        assert (line["player"], line["move"], line["days"]) == ("black", 1, -1)
    assert [h["note"] for h in history(api(boris), lichess_game) if h["kind"] == "gift"] == \
        ["1 day given to black by white"]
    # A day is the rule: two are refused naming days, nothing stored.
    with time_machine.travel(at + DAY, tick=False):
        r = api(anna).post(f"/api/games/{lichess_game.pk}/gifts/", {"days": 2}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "days", r.content
    assert GameEvent.objects.filter(game=lichess_game, kind=EventKind.GIFT).count() == 1
    # Black's move keeps the gift where it was given: the game still computes, its line still there.
    assert move_at(api(boris), lichess_game, 1, "e5", at + DAY).status_code == 201
    body = game_at(api(anna), lichess_game, at + DAY)
    assert [x["days"] for x in body["clock"]["ledger"] if x["kind"] == "gift"] == [-1]


def test_a_booked_vacation_stops_his_clock_and_one_over_the_allowance_is_refused(chesscom_game, boris, api):
    at = WHITE_SENT + timedelta(hours=1)
    with time_machine.travel(at, tick=False):
        r = api(boris).post(f"/api/games/{chesscom_game.pk}/vacations/",
                            {"until": z(at + 8 * DAY)}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert r.status_code == 400, r.content
    assert r.json()["field"] == "until" and "vacances" in r.json()["detail"], r.json()
    assert not GameEvent.objects.filter(game=chesscom_game, kind=EventKind.VACATION).exists()
    with time_machine.travel(at, tick=False):
        r = api(boris).post(f"/api/games/{chesscom_game.pk}/vacations/", {"until": z(at + 2 * DAY)}, format="json")
    assert r.status_code == 201, r.content
    black = r.json()["clock"]["players"]["black"]
    assert black["vacation"]["taken"] == [{"from": z(at), "to": z(at + 2 * DAY)}]
    assert [h["kind"] for h in history(api(boris), chesscom_game)][-1] == "vacation"
    # His clock stands still through it: a day into it, the move's seconds left are those it began with.
    later = game_at(api(boris), chesscom_game, at + DAY)["clock"]["players"]["black"]
    assert later["clock"]["move_seconds_left"] == black["clock"]["move_seconds_left"] == 3 * 86_400 - 3600


def test_a_booked_vacation_moves_the_flag_by_its_length(chesscom_game, boris, api):
    at = WHITE_SENT + timedelta(hours=1)
    with time_machine.travel(at, tick=False):
        r = api(boris).post(f"/api/games/{chesscom_game.pk}/vacations/", {"until": z(at + 2 * DAY)}, format="json")
    assert r.json()["clock"]["players"]["black"]["flag_at"] == z(FLAG + 2 * DAY)


def test_a_vacation_where_the_rules_have_none_is_refused_naming_until(lichess_game, boris, api):
    with time_machine.travel(WHITE_SENT, tick=False):
        r = api(boris).post(f"/api/games/{lichess_game.pk}/vacations/", {"until": z(WHITE_SENT + DAY)},
                            format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert r.status_code == 400 and r.json()["field"] == "until", r.content
    assert "ruleset.vacation" in r.json()["detail"]


AHEAD_WORDS = {"en": "starts may be at most 366 days after now", "ru": "starts может быть не позже чем через 366",
               "fr": "starts peut être au plus 366 jours"}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_a_vacation_starting_more_than_a_leap_year_ahead_is_refused_naming_starts(chesscom_game, boris, api,
                                                                                 language):
    # Issue 40 review: a start in the year 9000 made the allowance's accrual run ~10^5 steps on every computation.
    at = WHITE_SENT + timedelta(hours=1)
    for starts in (at.replace(year=9000), at + 367 * DAY):
        with time_machine.travel(at, tick=False):
            r = api(boris).post(f"/api/games/{chesscom_game.pk}/vacations/",
                                {"starts": z(starts), "until": z(starts + DAY)}, format="json",
                                HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code == 400 and r.json()["field"] == "starts", r.content
        assert AHEAD_WORDS[language] in r.json()["detail"], r.json()
    assert not GameEvent.objects.filter(game=chesscom_game, kind=EventKind.VACATION).exists()
    # The bound itself is allowed (the allowance, not the date, decides then).
    with time_machine.travel(at, tick=False):
        r = api(boris).post(f"/api/games/{chesscom_game.pk}/vacations/",
                            {"starts": z(at + 366 * DAY), "until": z(at + 367 * DAY)}, format="json")
    assert r.status_code != 400 or r.json()["field"] != "starts", r.content
