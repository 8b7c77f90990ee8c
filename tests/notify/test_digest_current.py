"""A gathered e-mail says each game once, as of now (corr.notify.pace._still_needed): the e-mail walk of 2026-12-06
found a digest telling anna "your move 1" in two games where she had played it (their start notices, written at the
start), and boris's listing two of his games twice (the start, then the move). And the French e-mail's deadline line
is punctuated as French is (" : ")."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core import mail

from corr.games import services
from corr.notify.pace import digest_send

from ..conftest import NOW, TODAY

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def locmem(settings):
    settings.NOTIFY_INPROCESS = "inline"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://corr.example.org"


@pytest.fixture
def three_games(arbiter, anna, boris, frozen, django_capture_on_commit_callbacks):
    boris.language = "fr"
    boris.save(update_fields=["language"])
    tournament = services.tournament_create(by=arbiter, name="ICCF cup", official_start=date(2026, 1, 10),
                                            mode="server", preset="iccf_10_50")
    with django_capture_on_commit_callbacks(execute=True):
        return [services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
                for _ in range(3)]


def test_a_digest_lists_each_game_once_and_only_those_that_need_the_reader(api, three_games, anna, boris, frozen,
                                                                           django_capture_on_commit_callbacks):
    started = {m.to[0] for m in mail.outbox}
    assert started == {"anna@example.org", "boris@example.org"}  # the first start each; the others wait
    mail.outbox.clear()
    for game in three_games:  # within the quiet period the first start's e-mail began
        with django_capture_on_commit_callbacks(execute=True):
            assert api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"},
                                  format="json").status_code == 201
    later = NOW + timedelta(minutes=20)
    frozen.move_to(later)
    with django_capture_on_commit_callbacks(execute=True):
        assert digest_send(user=anna, now=later) == 0  # she has moved in every game: nothing needs her
    assert [m for m in mail.outbox if m.to == ["anna@example.org"]] == []
    with django_capture_on_commit_callbacks(execute=True):
        assert digest_send(user=boris, now=later) == 3
    sent = [m for m in mail.outbox if m.to == ["boris@example.org"]]
    assert len(sent) == 1, [(m.to, m.subject) for m in mail.outbox]
    email = sent[0]
    assert email.subject == "3 parties vous attendent"
    assert email.body.count("anna a joué le coup 1 : e4") == 3
    for game in three_games:
        assert email.body.count(f"/games/{game.pk}/") == 1, email.body
    assert "échéance : à envoyer avant le" in email.body and "échéance:" not in email.body
