"""Issue 39 in chromium at 1280 and 390 px: an arbiter reopens a game lost on time and credits the days; the
player is back in the control, the case is no longer confirmed, the history shows both; withdrawing the credit
from the history brings the overstep back.

White never moved: 50 days used of a 30-day control, 20 over; the credit is 20 + 1 = 21 days (29 used, 1 left).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from corr.games import services
from corr.models import EventKind, GameEvent, OverstepCase, PlayerClock
from corr.nightly.cases import overstep_confirm

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lost_on_time(arbiter, anna, boris):
    today = timezone.localdate()
    t = services.tournament_create(by=arbiter, name="Reopened", official_start=today - timedelta(days=50),
                                   mode="postal")
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=today)
    case = OverstepCase.objects.get(game=game, player="white")
    overstep_confirm(case=case, by=arbiter, now=timezone.now(), today=today)
    return game


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_an_arbiter_reopens_a_game_lost_on_time_credits_the_days_and_undoes_the_credit(page, lost_on_time, arbiter,
                                                                                      width):
    page.width(width).sign_in(arbiter)
    page.open(f"/games/{lost_on_time.pk}/")
    page.fill("#reopen-note", "the postmark shows the move in time")
    page.click("#reopen-overstep_0", navigates=False)  # credit the time that puts the player back in the control
    page.click("#reopen-form button[type=submit]")
    text = page.text()
    assert "21 days given back to white on reopening, back in control 1: the postmark shows the move in time" in text
    assert "reopened (was 0-1): the postmark shows the move in time" in text
    clock = PlayerClock.objects.get(game=lost_on_time, player="white")
    assert (clock.overstepped_control, clock.remaining_days) == (None, 1)  # back in the control
    assert OverstepCase.objects.get(game=lost_on_time).status == "withdrawn"  # no longer confirmed
    # the clock card states the present clock; the page's previews (e.g. the penalty form's, shown as it loads)
    # say what an act would change, "over the control" included
    card = page.find("#account-white").text
    assert "over the control" not in card and "exceeded" not in card, card
    assert page.layout_problems() == []
    seq = GameEvent.objects.get(game=lost_on_time, kind=EventKind.CREDIT).seq
    page.click(f"#event-{seq} details:nth-of-type(2) summary", navigates=False)
    page.fill(f"#withdraw-{seq}-note", "appeal upheld")
    page.click(f"#event-{seq} details:nth-of-type(2) button[type=submit]")
    clock = PlayerClock.objects.get(game=lost_on_time, player="white")
    assert clock.overstepped_control == 1 and clock.remaining_days == -20  # the overstep returns
    assert OverstepCase.objects.filter(game=lost_on_time, status="open").count() == 1
    assert "withdrawn by #" in page.find(f"#event-{seq}").text
    assert page.layout_problems() == []
