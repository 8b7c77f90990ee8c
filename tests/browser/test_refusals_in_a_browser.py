"""The calculator's refusals on the game page, in chromium at 1280 and 390 px (issue 25, findings 4 and 6).

The page's language (here Russian and French, chosen with the switcher's cookie) words the refusal, names
the history's # and the player, says what to do next, and the message fits a phone.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.games import services
from corr.models import GameEvent

pytestmark = pytest.mark.django_db(transaction=True)


def day(n: int):
    return timezone.localdate() + timedelta(days=n)


@pytest.fixture
def answered(arbiter, anna, boris):
    t = services.tournament_create(by=arbiter, name="Browser refusals", official_start=day(-20), mode="postal",
                                   presumed_transit_days=2)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=day(0))
    services.move_submit(game=game, by=anna, number=1, notation="e4", sent_on=day(-18), mail="ordinary",
                         today=day(0))
    services.move_submit(game=game, by=boris, number=1, notation="e5", received_on=day(-16), sent_on=day(-14),
                         mail="ordinary", today=day(0))
    return game


def speak(page, language: str) -> None:
    page.driver.add_cookie({"name": "django_language", "value": language, "path": "/"})


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_move_received_before_it_was_sent_is_refused_in_russian_naming_the_history_line(page, answered, anna,
                                                                                         width):
    page.width(width).sign_in(anna)
    speak(page, "ru")
    page.open(f"/games/{answered.pk}/")
    page.fill("#move-notation", "Nf3")
    page.fill("#move-received_on", day(-15).isoformat())  # boris sent his move 1 on day -14
    page.fill("#move-sent_on", day(-1).isoformat())
    page.click("#move-form button[type=submit]")
    seq = GameEvent.objects.get(game=answered, kind="move", player="black").seq
    summary = page.find("#error-summary").text
    assert "раньше, чем игрок boris отправил то, на что это ответ" in summary, summary
    assert f"№{seq}, ход 1 игрока boris" in summary and "Правила игры по переписке 50.4.4" in summary, summary
    assert f"арбитр исправляет №{seq}" in summary and "event" not in summary, summary
    assert page.layout_problems() == []


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_notice_blocked_by_a_penalty_says_which_line_and_what_to_do_in_french(page, answered, arbiter, anna,
                                                                                width):
    services.penalty_assess(game=answered, by=arbiter, player="black", reason="address_error", today=day(0))
    penalty = GameEvent.objects.get(game=answered, kind="penalty")
    page.width(width).sign_in(anna)
    speak(page, "fr")
    page.open(f"/games/{answered.pk}/")
    # the notice's own <details>: the page's first one is now "Planning ahead" (#plan)
    page.click("details:has(form[action$='/notice/']) > summary", navigates=False)
    page.fill("#notice-received_on", day(-12).isoformat())
    page.fill("#notice-sent_on", day(-11).isoformat())
    page.click("form[action$='/notice/'] button[type=submit]")
    summary = page.find("#error-summary").text
    assert (f"Avec cette saisie, n° {penalty.seq}, pénalité de boris imputée au coup 2 ne tiendrait plus"
            in summary), summary
    assert f"Corrigez ou retirez d'abord n° {penalty.seq}" in summary, summary
    assert page.layout_problems() == []
