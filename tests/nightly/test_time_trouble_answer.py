"""The time-trouble e-mail gives the game page's one answer to the time left (corr.nightly.flags: Notice.left, worded
by corr.web.describe): under ICCF's 40 days a move, the control's days left and a move's time differ, and the e-mail
walk of 2026-12-06 read "4 days left" in the e-mail and "3 d 00 h 00 min left" on the page at the same moment."""

from __future__ import annotations

import html
import re
from datetime import date, timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client

from corr.games import services
from corr.models import OutboundEmail
from corr.nightly.job import nightly_job

from .conftest import at

pytestmark = pytest.mark.django_db

START = date(2026, 1, 10)


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_time_trouble_e_mail_says_the_page_s_time_left_and_why(arbiter, anna, boris, settings, language):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    boris.language = language
    boris.save(update_fields=["language"])
    tournament = services.tournament_create(by=arbiter, name="ICCF cup", official_start=START, mode="server",
                                            preset="iccf_10_50")
    with time_machine.travel(at(START), tick=False):
        game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=START)
        services.move_submit(game=game, by=anna, number=1, notation="e4", today=START)
    night = START + timedelta(days=33)
    mail.outbox.clear()
    with time_machine.travel(at(night), tick=False):
        nightly_job(on=night)
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(boris)
        page = html.unescape(client.get(f"/games/{game.pk}/").content.decode())
    subject = OutboundEmail.objects.get(key__startswith="time_trouble:").subject
    [email] = [m for m in mail.outbox if m.to == [boris.email] and m.subject == subject]
    shown = re.search(r'id="account-black".*?class="big remaining time-left">([^<]*)<', page, re.S).group(1)
    assert f"\n{shown}." in email.body, (shown, email.body)
    # Its reason: the control's days and the cap on a move's (what made the two figures differ).
    why = re.search(r'id="account-black".*?class="why time-left-why">([^<]*)<', page, re.S).group(1).strip()
    assert why and why in email.body
