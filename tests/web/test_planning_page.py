"""The game page's planning ahead (issue 41) in en, ru and fr: the latest days beside the deadline, the table.

The days are the API's ``latest_send`` (checked at their boundaries in ``tests/planning``); here the page says
them, worded, in the reader's language, and its small form asks the table, refusing a bad number by its field.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format

from corr.games import services

from ..conftest import TODAY

pytestmark = pytest.mark.django_db
WORDS = {"en": ("to stay out of time trouble", "to stay in time", "Planning ahead"),
         "ru": ("чтобы не попасть в цейтнот", "чтобы уложиться в контроль", "Планирование"),
         "fr": ("pour rester hors de zeitnot", "pour rester dans le temps", "Prévoir")}


@pytest.fixture
def moved(postal_game, anna):
    """White's move 1 sent 02-20; black's move 1 pending from 02-24 (presumed): deadline 03-26."""
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=date(2026, 2, 20), today=TODAY)
    return postal_game


def page(user, path: str, language: str) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    answer = client.get(path)
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_card_of_the_player_on_move_says_the_latest_days_in_the_readers_language(moved, boris, api, language):
    latest = api(boris).get(f"/api/games/{moved.pk}/").json()["latest_send"]["black"]
    html = page(boris, f"/games/{moved.pk}/", language)
    card = html[html.index('id="latest-send-black"'):]
    card = card[:card.index("</ul>")]
    trouble, in_time, _title = WORDS[language]
    assert trouble in card and in_time in card and "50.4.12" in card
    # The days are the API's, in the locale's short form, as the deadline is written.
    with translation.override(language):
        for day in (date.fromisoformat(latest["out_of_time_trouble"]), date.fromisoformat(latest["in_time"])):
            assert date_format(day, "SHORT_DATE_FORMAT") in card
    assert 'id="latest-send-white"' not in html  # white is not on move


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_planning_form_shows_each_controls_end_and_refuses_a_bad_number_by_its_field(moved, boris, api,
                                                                                         language):
    html = page(boris, f"/games/{moved.pk}/?think_days=2&post_days=3", language)
    assert WORDS[language][2] in html and 'id="plan-table"' in html
    rows = api(boris).get(f"/api/games/{moved.pk}/plan/?think_days=2&post_days=3").json()["control_ends"]
    table = html[html.index('id="plan-table"'):html.index("</table>", html.index('id="plan-table"'))]
    assert table.count('class="plan-sent"') == len(rows) == 6
    bad = page(boris, f"/games/{moved.pk}/?think_days=-1", language)
    assert 'id="plan-table"' not in bad and 'class="errorlist' in bad[bad.index('id="plan-form"'):]
