"""ICCF's silence (issue 40): reminders after 14, 28 and 35 days without a move, as delivered.

The beat's sweep runs in this process at injected instants (``time_machine``, as the flag warnings' test does);
the real Celery worker sends the e-mails to a real SMTP server on loopback. The games are played over HTTP.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
import time_machine

from corr.models import GameEvent
from corr.notify.preferences import kinds_turn_off
from corr.notify.tasks import notify_sweep

from .conftest import body
from .test_delivered import league, new_game, post, subjects

pytestmark = pytest.mark.django_db(transaction=True)


def sweep(at: datetime) -> int:
    with time_machine.travel(at, tick=False):
        return notify_sweep.apply().get()["silence"]


def test_the_silent_player_is_reminded_on_days_14_28_and_35_once_each_in_their_language(
        worker, api, arbiter, anna, boris):
    inbox = worker
    anna.language, boris.language = "fr", "ru"
    anna.save()
    boris.save()
    for user in (anna, boris):
        # The flag of 10 moves in 50 days (double time after 20) falls at day 35: its warnings are not this test's.
        kinds_turn_off(user_id=user.pk, kinds=["game_start", "your_move", "flag_warning"])
    tournament = league(arbiter, preset="iccf_10_50")
    first = new_game(arbiter, tournament, anna, boris)  # boris (black, ru) will be silent
    second = new_game(arbiter, tournament, boris, anna)  # anna (black, fr) will be silent
    post(api, anna, f"/api/games/{first.pk}/moves/", {"number": 1, "notation": "e4"})
    post(api, boris, f"/api/games/{second.pk}/moves/", {"number": 1, "notation": "d4"})
    # Each silence runs from its partner's move (the later of the two: both reminders are due from there).
    moved = max(GameEvent.objects.filter(game__in=[first, second], kind="move").values_list("entered_at", flat=True))

    assert sweep(moved + timedelta(days=14) - timedelta(minutes=1)) == 0  # 13 days 23:59: not yet
    assert sweep(moved + timedelta(days=14, minutes=1)) == 2
    assert sweep(moved + timedelta(days=20)) == 0  # once
    assert sweep(moved + timedelta(days=28, minutes=1)) == 2
    assert sweep(moved + timedelta(days=34)) == 0
    assert sweep(moved + timedelta(days=35, minutes=1)) == 2
    assert sweep(moved + timedelta(days=39)) == 0  # after the final reminder, nothing more

    russian = inbox.wait("boris@example.org", 3)
    french = inbox.wait("anna@example.org", 3)
    assert sorted(s.strip() for s in subjects(russian)) == sorted([
        f"Партия №{first.pk}: вы не ходили 14 дней",
        f"Партия №{first.pk}: вы не ходили 28 дней",
        f"Партия №{first.pk}: последнее напоминание, вы не ходили 35 дней"])
    assert sorted(s.strip() for s in subjects(french)) == sorted([
        f"Partie nº {second.pk} : aucun coup de votre part depuis 14 jours",
        f"Partie nº {second.pk} : aucun coup de votre part depuis 28 jours",
        f"Partie nº {second.pk} : dernier rappel, aucun coup de votre part depuis 35 jours"])
    text = body(next(m for m in russian if "35" in m["Subject"]))
    assert "Вы не делали ход в этой партии 35 дней." in text
    assert "«Использую 40+ дней»" in text and f"https://corr.example.org/games/{first.pk}/" in text
    text = body(next(m for m in french if "14" in m["Subject"]))
    assert "Vous n'avez pas joué dans cette partie depuis 14 jours." in text
    assert "« Utiliser 40+ jours »" in text
    time.sleep(2)  # nothing more comes: three each
    assert len(inbox.to("boris@example.org")) == 3 and len(inbox.to("anna@example.org")) == 3


def test_a_move_ends_the_silence_and_a_game_with_no_silence_limit_is_never_reminded(db, api, arbiter, anna, boris):
    iccf, daily = league(arbiter, preset="iccf_10_50"), league(arbiter, preset="chesscom_days_14")
    game, other = new_game(arbiter, iccf, anna, boris), new_game(arbiter, daily, anna, boris)
    for g in (game, other):
        post(api, anna, f"/api/games/{g.pk}/moves/", {"number": 1, "notation": "e4"})
    moved = GameEvent.objects.filter(game=game, kind="move").get().entered_at
    with time_machine.travel(moved + timedelta(days=10), tick=False):
        post(api, boris, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e5"})
    # anna's silence runs from boris's move: 14 days after e4 she has been silent 4 days.
    assert sweep(moved + timedelta(days=14, minutes=1)) == 0
    assert sweep(moved + timedelta(days=24, minutes=1)) == 1  # anna's 14 days, in the ICCF game only
