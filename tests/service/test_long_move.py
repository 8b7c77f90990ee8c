"""The "Use 40+ days" notice (issue 40; ICCF Playing Rules 3b): a player action over HTTP and on the game page,
recorded in the history, telling the opponent and the TD, lifting the limit for one move of that move only, and
listed for the arbiter in the nightly report."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as tz

import pytest
import time_machine
from django.test import Client

from corr.games import services
from corr.games.clockstate import local_today
from corr.games.selectors import game_time_get
from corr.models import NightlyReport
from corr.nightly.job import nightly_job
from corr.notify.models import Notice

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 9, 0, tzinfo=tz.utc)
# 100 days for 10 moves (whole 24-hour days, ICCF 2.4.2), at most 40 days for one move: only the limit can fall.
ROOMY_ICCF = {"time_control": {"system": "periods", "stages": [{"moves": 10, "time": 100}], "repeat_last": True,
                               "max_per_move": 40,
                               "count": "whole_days"}}


@pytest.fixture
def games(arbiter, anna, boris):
    with time_machine.travel(START, tick=False):
        league = services.tournament_create(by=arbiter, name="ICCF cup", official_start=START.date(), mode="server",
                                            ruleset=ROOMY_ICCF)
        made = [services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=START.date())
                for _ in range(2)]
    return made


def post(api, user, path, at):
    with time_machine.travel(at, tick=False):
        return api(user).post(path, {"number": 1, "notation": "e4"} if path.endswith("moves/") else {},
                              format="json")


def black_account(game, at):
    with time_machine.travel(at, tick=False):
        time, _rows = game_time_get(game=game, as_of=at)
    return time.clock.accounts["black"]


def test_the_notice_lifts_the_40_day_limit_of_that_move_only_and_tells_the_opponent_and_the_td(
        api, games, arbiter, anna, boris, django_capture_on_commit_callbacks, settings):
    settings.NOTIFY_INPROCESS = "inline"  # the notices are read in the test's own transaction
    noticed, silent = games
    moved = START + timedelta(hours=1)
    for game in games:
        assert post(api, anna, f"/api/games/{game.pk}/moves/", moved).status_code == 201
    url = f"/api/games/{noticed.pk}/long-move/"
    r = post(api, anna, url, moved + timedelta(days=1))  # anna is not on move
    assert r.status_code == 409 and r.json()["field"] == "game", r.json()
    with django_capture_on_commit_callbacks(execute=True):  # the notices' task, after the commit (eager here)
        assert post(api, boris, url, moved + timedelta(days=30)).status_code == 201
    r = post(api, boris, url, moved + timedelta(days=31))  # once a move
    assert r.status_code == 409 and "already gave" in r.json()["detail"], r.json()
    [line] = [h for h in api(boris).get(f"/api/games/{noticed.pk}/history/").json() if h["kind"] == "long_move"]
    assert line["player"] == "black" and line["number"] == 1
    assert line["note"] == 'black gave the "Use 40+ days" notice: move 1 may take more than 40 days (ICCF Playing' \
                           ' Rules 3b)'

    # 41 whole days without a move: the silent game is over the limit for one move, the noticed one is not.
    later = moved + timedelta(days=41, minutes=1)
    over = black_account(silent, later).overstepped
    assert over is not None and over.reason == "max_per_move"
    assert black_account(noticed, later).overstepped is None
    # The time is charged as usual: 41 of the 100 days used.
    assert black_account(noticed, later).total_days == black_account(silent, later).total_days == 41

    # The opponent and the tournament director are told (the notices as worded for each).
    told = {n.user.username: n for n in Notice.objects.filter(kind="long_move", game=noticed)}
    assert set(told) == {"anna", "arbiter"}
    assert told["anna"].subject == f"Game #{noticed.pk}: boris's move 1 will take more than 40 days"
    assert 'boris used the "Use 40+ days" notice' in told["arbiter"].text

    # The nightly report lists the move for the arbiter to judge.
    day = local_today(noticed.tournament, later)
    with time_machine.travel(later, tick=False):
        nightly_job(on=day, now=later)
    data = NightlyReport.objects.get(tournament=noticed.tournament, date=day).data
    assert [(i["game"], i["player"], i["username"]) for i in data["long_moves"]] == [(noticed.pk, "black", "boris")]
    page = Client()
    page.force_login(arbiter)
    shown = page.get(f"/tournaments/{noticed.tournament_id}/reports/{day.isoformat()}/").content.decode()
    assert "notices: moves that may take more than 40 days" in shown and f"#{noticed.pk}" in shown


def test_the_game_page_offers_the_notice_to_the_player_on_move_and_records_it_in_russian(api, games, anna, boris,
                                                                                        settings):
    game = games[0]
    moved = START + timedelta(hours=1)
    post(api, anna, f"/api/games/{game.pk}/moves/", moved)
    boris.language = "ru"
    boris.save()
    page = Client()
    page.force_login(boris)
    page.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"  # the pages' language (set at sign-in from the account's)
    with time_machine.travel(moved + timedelta(days=2), tick=False):
        shown = page.get(f"/games/{game.pk}/").content.decode()
        assert 'id="long-move-form"' in shown and "Использую 40+ дней" in shown
        answer = page.post(f"/games/{game.pk}/long-move/", {"confirm": "1"})
        assert answer.status_code == 302, answer.content.decode()[:400]
        shown = page.get(f"/games/{game.pk}/").content.decode()
    assert 'id="long-move-form"' not in shown  # given: not offered again for this move
    assert "уведомление «Использую 40+ дней»" in shown
    anna_page = Client()
    anna_page.force_login(anna)
    with time_machine.travel(moved + timedelta(days=2), tick=False):
        assert 'id="long-move-form"' not in anna_page.get(f"/games/{game.pk}/").content.decode()  # not on move


def test_a_game_without_a_limit_for_one_move_refuses_the_notice_in_french(api, arbiter, anna, boris):
    with time_machine.travel(START, tick=False):
        league = services.tournament_create(by=arbiter, name="Daily", official_start=START.date(), mode="server",
                                            preset="chesscom_days_3")
        game = services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=START.date())
    anna.language = "fr"
    anna.save()
    r = post(api, anna, f"/api/games/{game.pk}/long-move/", START + timedelta(hours=1))
    assert r.status_code == 400 and r.json()["field"] == "game", r.json()
    assert "Utiliser 40+ jours" in r.json()["detail"], r.json()
    assert not Notice.objects.filter(kind="long_move").exists()


PASSED_WORDS = {"en": "ICCF Playing Rules 3b", "ru": "Правила игры ICCF 3b", "fr": "règles de jeu ICCF 3b"}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_notice_is_refused_once_the_limit_for_one_move_has_passed_storing_nothing(api, games, anna, boris,
                                                                                     language):
    # Issue 40 review (Playing Rules 3b): the notice announces a long move; it does not excuse a silence already
    # over the limit. The days counted are the silence reminders' (``silent_days``).
    late, in_time = games
    moved = START + timedelta(hours=1)
    for game in games:
        assert post(api, anna, f"/api/games/{game.pk}/moves/", moved).status_code == 201
    boris.language = language
    boris.save()
    over = moved + timedelta(days=41, minutes=1)  # 41 whole days: the calculator has the limit passed
    assert black_account(late, over).overstepped is not None
    r = post(api, boris, f"/api/games/{late.pk}/long-move/", over)
    assert r.status_code == 409 and r.json()["field"] == "game", r.json()
    assert PASSED_WORDS[language] in r.json()["detail"] and "41" in r.json()["detail"], r.json()
    assert not late.events.filter(kind="long_move").exists()
    assert not Notice.objects.filter(kind="long_move").exists()
    # At 40 whole days the limit is reached, not passed (the calculator agrees): the notice is still taken.
    at_limit = moved + timedelta(days=40, minutes=1)
    assert black_account(in_time, at_limit).overstepped is None
    assert post(api, boris, f"/api/games/{in_time.pk}/long-move/", at_limit).status_code == 201


def test_the_notice_on_day_39_is_taken(api, games, anna, boris):
    moved = START + timedelta(hours=1)
    game = games[0]
    assert post(api, anna, f"/api/games/{game.pk}/moves/", moved).status_code == 201
    assert post(api, boris, f"/api/games/{game.pk}/long-move/", moved + timedelta(days=39, hours=23)).status_code == 201
