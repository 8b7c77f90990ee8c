"""See before you act (issue 41) in chromium at 1280 and 390 px, in English and Russian.

The pages ask corr's own preview API as the fields change (``corr/static/corr/preview.js``): what they show is
checked against what the API answers for the same event in the same language, and against the page before the
change. The postal game started 20 days ago (30 days a control, 4 days' transit); white (anna) is to move.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from selenium.webdriver.support.ui import WebDriverWait

from corr.games import services

from ..conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)
CASES = [(width, language) for width in ("desktop", "phone") for language in ("en", "ru")]


@pytest.fixture
def game(arbiter, anna, boris):
    today = timezone.localdate()
    t = services.tournament_create(by=arbiter, name="Preview cup", official_start=today - timedelta(days=27),
                                   mode="postal", presumed_transit_days=4)
    return services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=today)


def speak(page, language: str) -> None:
    page.driver.add_cookie({"name": "django_language", "value": language, "path": "/"})


def shown(page, form: str, not_before: str | None = None) -> str:
    """The preview's text in ``form`` once answered (and different from ``not_before``)."""
    def ready(driver):
        out = page.find(f"{form} output[data-preview]")
        state, text = out.get_attribute("data-state"), out.text
        return text if state in ("shown", "refused") and text and text != not_before else False
    return WebDriverWait(page.driver, 20).until(ready)


def api_changes(user, url: str, body: dict, language: str) -> list[str]:
    answer = client_for(user).post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.mark.parametrize(("width", "language"), CASES)
def test_the_postal_move_forms_preview_changes_as_the_sent_date_changes(page, game, anna, width, language):
    page.width(width).sign_in(anna)
    speak(page, language)
    page.open(f"/games/{game.pk}/")
    today = timezone.localdate()
    first = shown(page, "#move-form")
    url = f"/api/games/{game.pk}/preview/"
    want = api_changes(anna, url, {"events": [{"kind": "move", "number": 1, "sent_on": today.isoformat()}]},
                       language)["changes"]
    assert first.splitlines() == want
    earlier = (today - timedelta(days=6)).isoformat()
    page.fill("#move-sent_on", earlier)
    page.driver.execute_script("document.getElementById('move-sent_on').dispatchEvent(new Event('change',"
                               " {bubbles: true}))")
    second = shown(page, "#move-form", not_before=first)
    want = api_changes(anna, url, {"events": [{"kind": "move", "number": 1, "sent_on": earlier}]},
                       language)["changes"]
    assert second.splitlines() == want and second != first
    if language == "ru":
        assert "instead of" not in second and "вместо" in second
    assert page.find("#move-sent_on").get_attribute("value") == earlier  # an ISO value in every language
    assert page.layout_problems() == []


@pytest.mark.parametrize(("width", "language"), CASES)
def test_the_leave_page_lists_the_deadlines_a_booking_moves_game_by_game(page, game, anna, width, language):
    page.width(width).sign_in(anna)
    speak(page, language)
    page.open("/leave/")
    today = timezone.localdate()
    first, last = (today + timedelta(days=2)).isoformat(), (today + timedelta(days=5)).isoformat()
    page.fill("#id_first", first)
    page.fill("#id_last", last)
    page.driver.execute_script("document.getElementById('id_last').dispatchEvent(new Event('change',"
                               " {bubbles: true}))")
    text = shown(page, "#leave-form")
    want = api_changes(anna, "/api/leaves/preview/", {"from": first, "to": last}, language)["games"]
    assert [row["game"] for row in want] == [game.pk]
    assert want[0]["changes"] and all(line in text for line in want[0]["changes"])
    assert str(game.pk) in text and "Preview cup" in text and "boris" in text
    assert page.layout_problems() == []


@pytest.mark.parametrize(("width", "language"), CASES)
def test_an_arbiters_penalty_form_says_a_case_would_open_before_it_is_confirmed(page, game, arbiter, width,
                                                                              language):
    page.width(width).sign_in(arbiter)
    speak(page, language)
    page.open(f"/games/{game.pk}/")
    page.fill("#penalty-player", "white")
    page.fill("#penalty-reason", "address_error")
    page.driver.execute_script("document.getElementById('penalty-reason').dispatchEvent(new Event('change',"
                               " {bubbles: true}))")
    text = shown(page, "#penalty-form")
    want = api_changes(arbiter, f"/api/games/{game.pk}/preview/",
                       {"events": [{"kind": "penalty", "player": "white", "reason": "address_error"}]},
                       language)["changes"]
    assert text.splitlines() == want
    # 27 days used and 5 of penalty: 32 of 30, over the control (50.4.3).
    with_case = [line for line in want if "50.4.3" in line and "32" in line]
    assert with_case, want
    if language == "en":
        assert with_case[0].startswith("an overstep case would open: white, control 1, 32 of 30 days")
    assert not game.events.filter(kind="penalty").exists()  # nothing stored before the confirmation
    assert page.layout_problems() == []
