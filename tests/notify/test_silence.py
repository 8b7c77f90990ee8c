"""ICCF's silence (issue 40): reminders after 14, 28 and 35 days without a move, as delivered.

The beat's sweep runs in this process at injected instants (``time_machine``, as the flag warnings' test does);
the real Celery worker sends the e-mails to a real SMTP server on loopback. The games are played over HTTP.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import time_machine

from corr.models import GameEvent, OutboundEmail
from corr.notify.models import Notice
from corr.notify.preferences import kinds_turn_off
from corr.notify.silence import silence_reminders_due
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
        f"Partie n° {second.pk} : aucun coup de votre part depuis 14 jours",
        f"Partie n° {second.pk} : aucun coup de votre part depuis 28 jours",
        f"Partie n° {second.pk} : dernier rappel, aucun coup de votre part depuis 35 jours"])
    # By the days' words, not a bare "35": the game's number is in the subject too (game 143 held "14").
    text = body(next(m for m in russian if "35 дней" in m["Subject"]))
    assert "Вы не делали ход в этой партии 35 дней." in text
    assert "«Использую 40+ дней»" in text and f"https://corr.example.org/games/{first.pk}/" in text
    text = body(next(m for m in french if "14 jours" in m["Subject"]))
    assert "Vous n'avez pas joué dans cette partie depuis 14 jours." in text
    assert "« Utiliser 40+ jours »" in text
    # Nothing more can come: three reminders stored for each, each with its one e-mail (unique keys), and no
    # other e-mail to either player is stored to be sent. Counted in the rows, not waited for.
    assert Notice.objects.filter(kind="silence").count() == 6
    stored = [e.recipients for e in OutboundEmail.objects.all()]
    assert sum("boris@example.org" in str(r) for r in stored) == 3
    assert sum("anna@example.org" in str(r) for r in stored) == 3
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


def test_games_beyond_a_sweeps_page_get_their_reminders(db, api, arbiter, anna, boris):
    # Issue 40 review: the sweep looks at ``limit`` games in id order; a game reminded for its latest day passed
    # is not among them, so the games beyond the first page are reached by the next sweeps, not starved.
    for user in (anna, boris):
        kinds_turn_off(user_id=user.pk, kinds=["game_start", "your_move", "flag_warning"])
    tournament = league(arbiter, preset="iccf_10_50")
    games = [new_game(arbiter, tournament, anna, boris) for _ in range(3)]
    for game in games:
        post(api, anna, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"})
    moved = max(GameEvent.objects.filter(game__in=games, kind="move").values_list("entered_at", flat=True))

    def sweep_one(at):
        with time_machine.travel(at, tick=False):
            return [int(key.split(":")[1]) for key in silence_reminders_due(now=at, limit=1)]

    day14 = moved + timedelta(days=14, minutes=1)
    assert [sweep_one(day14) for _ in range(4)] == [[games[0].pk], [games[1].pk], [games[2].pk], []]
    day28 = moved + timedelta(days=28, minutes=1)
    assert [sweep_one(day28) for _ in range(4)] == [[games[0].pk], [games[1].pk], [games[2].pk], []]
    assert sweep_one(moved + timedelta(days=34)) == []  # all served until day 35
    assert Notice.objects.filter(kind="silence").count() == 6
