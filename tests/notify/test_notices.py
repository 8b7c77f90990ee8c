"""Notifications in-process (issue 38): tasks eager, e-mails in Django's locmem outbox. The acceptance tests
with a real SMTP server and a real worker are in test_delivered.py."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client

from corr.games import services
from corr.notify.models import Notice, Pace
from corr.notify.presence import presence_mark

from ..conftest import NOW, TODAY

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def locmem(settings):
    settings.NOTIFY_INPROCESS = "inline"  # the notice is read in the test's own transaction
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://corr.example.org"


def move(api, user, game, number, notation, capture):
    with capture(execute=True):
        r = api(user).post(f"/api/games/{game.pk}/moves/", {"number": number, "notation": notation}, format="json")
    assert r.status_code == 201, r.json()
    return r


@pytest.fixture
def game(server, arbiter, anna, boris, frozen, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return services.game_create(by=arbiter, tournament=server, white=anna, black=boris, today=TODAY)


def test_a_game_start_tells_both_players_once(game):
    starts = [m for m in mail.outbox if "has started" in m.subject]
    assert sorted(m.to[0] for m in starts) == ["anna@example.org", "boris@example.org"]
    assert all(f"https://corr.example.org/games/{game.pk}/" in m.body for m in starts)


def test_the_partner_is_told_of_the_move_with_the_page_s_words(api, game, anna, boris, frozen,
                                                                  django_capture_on_commit_callbacks):
    mail.outbox.clear()
    frozen.move_to(NOW + timedelta(minutes=20))  # past the quiet period the start's e-mail began
    move(api, anna, game, 1, "e4", django_capture_on_commit_callbacks)
    [email] = mail.outbox
    assert email.to == ["boris@example.org"]
    assert email.subject == f"Game #{game.pk}: your move 1 (anna played e4)"
    assert "anna played move 1: e4." in email.body
    assert "Your move 1: on move, deadline" in email.body  # the game page's banner
    # The one answer to the time left (issue 39): the e-mail says what the game page says at the same instant.
    browser = Client()
    browser.force_login(boris)
    page = browser.get(f"/games/{game.pk}/").content.decode()
    shown = re.search(r'id="account-black".*?class="big remaining time-left">([^<]*)<', page, re.S).group(1)
    assert f"\n{html.unescape(shown)}.\n" in email.body
    assert f"https://corr.example.org/games/{game.pk}/" in email.body
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert email.extra_headers["List-Unsubscribe"].startswith("<https://corr.example.org/notifications/unsubscribe/")


def test_within_the_quiet_period_the_moves_wait_for_one_e_mail(api, game, anna, boris, frozen,
                                                                django_capture_on_commit_callbacks):
    from corr.notify.pace import digest_send

    mail.outbox.clear()
    # The start's e-mail went at NOW: boris's quiet period runs to NOW + 15 min.
    move(api, anna, game, 1, "e4", django_capture_on_commit_callbacks)
    assert mail.outbox == []
    pace = Pace.objects.get(user=boris)
    assert pace.due_at == NOW + timedelta(minutes=15)
    assert digest_send(user=boris, now=NOW + timedelta(minutes=14)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert digest_send(user=boris, now=NOW + timedelta(minutes=15)) == 1
    [email] = mail.outbox
    assert email.subject == f"Game #{game.pk}: your move 1 (anna played e4)"


def test_a_player_with_the_page_open_is_not_told_of_that_move(api, game, anna, boris, frozen,
                                                              django_capture_on_commit_callbacks):
    mail.outbox.clear()
    frozen.move_to(NOW + timedelta(minutes=20))
    presence_mark(user_id=boris.pk, game_id=game.pk)
    move(api, anna, game, 1, "e4", django_capture_on_commit_callbacks)
    assert mail.outbox == [] and not Notice.objects.filter(user=boris, kind="your_move").exists()


def test_a_turned_off_kind_is_not_sent(api, game, anna, boris, frozen, django_capture_on_commit_callbacks):
    from corr.notify.preferences import kinds_turn_off

    kinds_turn_off(user_id=boris.pk, kinds=["your_move"])
    mail.outbox.clear()
    frozen.move_to(NOW + timedelta(minutes=20))
    move(api, anna, game, 1, "e4", django_capture_on_commit_callbacks)
    assert mail.outbox == []


def test_a_move_s_notice_run_after_the_partner_answered_it_tells_no_one_and_never_words_a_later_move(
        api, game, anna, boris, frozen, settings, django_capture_on_commit_callbacks):
    # A busy worker runs e4's notice only after boris answered it and anna played again (the race CI met): it
    # must neither tell boris "your move 1" (he has played it) nor word anna's later move a second time.
    from corr.models import EventKind, GameEvent
    from corr.notify.events import change_notify

    frozen.move_to(NOW + timedelta(minutes=20))
    settings.NOTIFY_INPROCESS = "off"  # e4's notice is not run now: it is run late, below
    move(api, anna, game, 1, "e4", django_capture_on_commit_callbacks)
    game.refresh_from_db()
    version = game.events_version
    seq = GameEvent.objects.get(game=game, kind=EventKind.MOVE, player="white", number=1).seq
    settings.NOTIFY_INPROCESS = "inline"
    move(api, boris, game, 1, "e5", django_capture_on_commit_callbacks)
    frozen.move_to(NOW + timedelta(minutes=40))  # past anna's quiet period after e5's e-mail to her
    mail.outbox.clear()
    move(api, anna, game, 2, "Nf3", django_capture_on_commit_callbacks)
    assert [m.subject for m in mail.outbox if m.to == ["boris@example.org"]] == [
        f"Game #{game.pk}: your move 2 (anna played Nf3)"]
    mail.outbox.clear()
    frozen.move_to(NOW + timedelta(minutes=60))
    with django_capture_on_commit_callbacks(execute=True):
        keys = change_notify(change="move", game_id=game.pk, version=version, colour="white", now=NOW
                             + timedelta(minutes=60), seq=seq)
    assert keys == [] and mail.outbox == []
