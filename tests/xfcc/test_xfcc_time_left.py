"""XFCC's time left is the game page's (issue 37, STYLE 17): one answer for ICCF's whole days with double time
folded in, article 50.4's dates and an exact count, read against the page and "My games" at the same instant."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from accounts.xfcc import xfcc_password_issue

from ..server_instants.conftest import WHITE_SENT, game_of, instant_tournament, move_at
from .conftest import envelope
from .test_xfcc_soap import field, soap

pytestmark = pytest.mark.django_db

FIELDS = ("daysPlayer", "hoursPlayer", "minutesPlayer", "daysOpponent", "hoursOpponent", "minutesOpponent")


def page_days_left(page: str, colour: str) -> int:
    """The "days left" figure of one player's card on the game page."""
    card = page.split(f'id="account-{colour}"', 1)[1]
    return int(re.search(r'class="big remaining">(-?\d+)<', card).group(1))


# (preset, read after white's 1. e4, black's XFCC fields, white's days left on the page). The arithmetic:
# - iccf_10_50 (whole days, 50 days for 10 moves, a move's days doubled past 20): 3 days 5 hours on move are
#   3 whole days, 50 - 3 = 47 left. The flag is 17 + 30 / 2 = 32 days 19 hours away: corr said 32 before.
# - rus_50_4 (dates, 30 days for 10 moves): received 2 March, as of 5 March, 3 days used, 27 left.
# - lichess_days_3 (exact, 3 days a move): 1 day 5 hours used of 72 hours: 1 day 19 hours left.
CASES = [("iccf_10_50", timedelta(days=3, hours=5), ("47", "0", "0", "50", "0", "0"), 50),
         ("rus_50_4", timedelta(days=3, hours=5), ("27", "0", "0", "30", "0", "0"), 30),
         ("lichess_days_3", timedelta(days=1, hours=5), ("1", "19", "0", "3", "0", "0"), 3)]


@pytest.mark.parametrize(("preset", "later", "fields", "white_days"), CASES, ids=[c[0] for c in CASES])
def test_xfcc_says_the_days_left_of_the_game_page(arbiter, anna, boris, api, preset, later, fields, white_days):
    game = game_of(arbiter, instant_tournament(arbiter, preset=preset), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    password = xfcc_password_issue(user=boris, now=WHITE_SENT)
    browser = Client()
    browser.force_login(boris)
    with time_machine.travel(WHITE_SENT + later, tick=False):
        answer = soap(envelope("GetMyGames", {"username": "boris", "password": password})).content.decode()
        page = browser.get(f"/games/{game.pk}/").content.decode()
        mine = browser.get("/games/").content.decode()
    said = tuple(field(answer, name)[0] for name in FIELDS)
    assert said == fields
    assert (page_days_left(page, "black"), page_days_left(page, "white")) == (int(said[0]), int(said[3]))
    assert page_days_left(page, "white") == white_days
    row = mine.split(f'href="/games/{game.pk}/"', 1)[1]
    assert re.search(r'class="first">(-?\d+)</td>', row).group(1) == said[0]  # My games: the same figure


def test_an_overstepped_control_is_no_time_left_over_xfcc(arbiter, anna, boris, api):
    game = game_of(arbiter, instant_tournament(arbiter, preset="lichess_days_3"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    password = xfcc_password_issue(user=boris, now=WHITE_SENT)
    browser = Client()
    browser.force_login(boris)
    with time_machine.travel(WHITE_SENT + timedelta(days=5), tick=False):
        answer = soap(envelope("GetMyGames", {"username": "boris", "password": password})).content.decode()
        page = browser.get(f"/games/{game.pk}/").content.decode()
    assert page_days_left(page, "black") == -2  # the page: two days over, "control 1 exceeded"
    assert [field(answer, name)[0] for name in FIELDS[:3]] == ["0", "0", "0"]
