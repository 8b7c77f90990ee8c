"""One answer to "how much time do I have" (issues 37 and 39, STYLE 17): the game page, My games, the
tournament page, the calendar event, XFCC's ``daysPlayer``/``hoursPlayer``/``minutesPlayer`` and the API's
``time_left`` state the same time left, read at the same instant as each reader receives it (the page's
text, the ICS, the SOAP body, the JSON), with the control's days and why they differ beside it."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.test import Client
from icalendar import Calendar

from accounts.xfcc import xfcc_password_issue

from ..server_instants.conftest import WHITE_SENT, game_of, instant_tournament, move_at
from .conftest import envelope
from .test_xfcc_soap import field, soap

pytestmark = pytest.mark.django_db

FIELDS = ("daysPlayer", "hoursPlayer", "minutesPlayer", "daysOpponent", "hoursOpponent", "minutesOpponent")


def card(page: str, colour: str) -> str:
    return page.split(f'id="account-{colour}"', 1)[1].split("</svg>", 1)[0]


def page_time_left(page: str, colour: str) -> str:
    """The "time left" of one player's card on the game page, as shown."""
    return html.unescape(re.search(r'class="big remaining time-left">([^<]*)<', card(page, colour)).group(1))


def page_why(page: str, colour: str) -> str:
    found = re.search(r'class="why time-left-why">([^<]*)<', card(page, colour))
    return html.unescape(found.group(1)) if found else ""


def cell_time_left(page: str, after: str) -> str:
    """The first "time left" cell of a table after the text ``after``."""
    return html.unescape(re.search(r'class="first time-left">([^<]*)<', page.split(after, 1)[1]).group(1))


# (preset, the time black has thought after white's 1. e4, black's XFCC fields, black's control days, why)
# - iccf_10_50 (whole days, 50 days for 10 moves, a move's days double past 20): 23 days 5 hours on move are
#   23 whole days, charged 20 + 2 x 3 = 26: 24 of 50 left in the control. The flag: at 35 whole days the move
#   is charged 20 + 2 x 15 = 50, still in time; the 36th day makes it 52, over: the flag falls 36 days after
#   the move arrived, 12 d 19 h from now. corr said 24 on the page and 12 d 19 h in Scid before (issue 39's
#   "49 days" beside "34 d 21 h").
# - chesscom_days_3 (exact, 3 days a move): 1 day 5 hours used of 72 hours: 1 d 19 h 00 min, the control's
#   1 whole day beside it (they agree: a day under way counts whole).
# - rus_50_4 (dates, 30 days for 10 moves): received 2 March, as of 5 March, 3 days used, 27 left.
CASES = [("iccf_10_50", timedelta(days=23, hours=5), ("12", "19", "0"), 24, "double",
          "12 d 19 h 00 min left"),
         ("chesscom_days_3", timedelta(days=1, hours=5), ("1", "19", "0"), 1, None, "1 d 19 h 00 min left"),
         ("rus_50_4", timedelta(days=3, hours=5), ("27", "0", "0"), 27, None, "27 days left")]


@pytest.mark.parametrize(("preset", "later", "fields", "control_days", "why", "text"), CASES,
                         ids=[c[0] for c in CASES])
def test_every_reader_states_the_same_time_left(arbiter, anna, boris, api, preset, later, fields, control_days,
                                                why, text):
    game = game_of(arbiter, instant_tournament(arbiter, preset=preset), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    password = xfcc_password_issue(user=boris, now=WHITE_SENT)
    browser = Client()
    browser.force_login(boris)
    feed = urlsplit(api(boris).get("/api/users/me/").json()["calendar_url"]).path
    with time_machine.travel(WHITE_SENT + later, tick=False):
        answer = soap(envelope("GetMyGames", {"username": "boris", "password": password})).content.decode()
        page = browser.get(f"/games/{game.pk}/").content.decode()
        mine = browser.get("/games/").content.decode()
        tournament = browser.get(f"/tournaments/{game.tournament_id}/").content.decode()
        (event,) = Calendar.from_ical(Client().get(feed).content).walk("VEVENT")
        left = api(boris).get(f"/api/games/{game.pk}/").json()["time_left"]["black"]
    # The API: the answer's figures, the control's days and why they differ.
    assert (str(left["days"]), str(left["hours"]), str(left["minutes"])) == fields
    assert (left["control_days"], left["why"]) == (control_days, why)
    # XFCC: the same figures.
    assert tuple(field(answer, name)[0] for name in FIELDS[:3]) == fields
    # The game page, My games, the tournament page and the calendar event: the same words.
    assert page_time_left(page, "black") == text
    assert cell_time_left(mine, f'href="/games/{game.pk}/"') == text
    assert cell_time_left(tournament, "Games by deadline") == text  # black, on move, first
    description = str(event["description"])
    assert f"; {text}." in description
    if why == "double":
        said = ("24 days left in the control; the days of one move beyond 20 count double, so this move can take"
                " up to 12 d 19 h 00 min.")
        assert page_why(page, "black") == said
        assert said in description and said in html.unescape(mine) and said in html.unescape(tournament)
    else:
        assert page_why(page, "black") == ""


def test_an_overstepped_control_is_no_time_left_over_xfcc(arbiter, anna, boris, api):
    game = game_of(arbiter, instant_tournament(arbiter, preset="lichess_days_3"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    password = xfcc_password_issue(user=boris, now=WHITE_SENT)
    browser = Client()
    browser.force_login(boris)
    with time_machine.travel(WHITE_SENT + timedelta(days=5), tick=False):
        answer = soap(envelope("GetMyGames", {"username": "boris", "password": password})).content.decode()
        page = browser.get(f"/games/{game.pk}/").content.decode()
    assert page_time_left(page, "black") == "2 days over the control"  # and "control 1 exceeded" below
    assert [field(answer, name)[0] for name in FIELDS[:3]] == ["0", "0", "0"]


@pytest.mark.parametrize("preset", ["iccf_10_50", "chesscom_days_3"])
def test_the_your_move_e_mail_states_the_pages_time_left(settings, arbiter, anna, boris, api, preset,
                                                          django_capture_on_commit_callbacks):
    """The e-mail is the one answer too (issue 39): the notice of white's move says black's time left as the
    game page says it at that instant."""
    from django.core import mail

    settings.NOTIFY_INPROCESS = "inline"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = game_of(arbiter, instant_tournament(arbiter, preset=preset), anna, boris)
    # The notice is composed after the commit, at the move's instant (the task reads the clock then).
    with time_machine.travel(WHITE_SENT, tick=False), django_capture_on_commit_callbacks(execute=True):
        assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    browser = Client()
    browser.force_login(boris)
    with time_machine.travel(WHITE_SENT, tick=False):
        page = browser.get(f"/games/{game.pk}/").content.decode()
    [told] = [m for m in mail.outbox if m.to == [boris.email] and "your move 1" in m.subject]
    assert f"\n{page_time_left(page, 'black')}.\n" in told.body, told.body
