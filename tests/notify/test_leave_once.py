"""A leave booking tells each partner once (issue 39): one e-mail per booking listing their games it stops, in
the partner's language, its days written as their pages write dates."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
import time_machine

from corr.games import services
from corr.models import OutboundEmail

pytestmark = pytest.mark.django_db

START = date(2026, 1, 10)


@pytest.fixture
def games(arbiter, postal, anna, boris, eve):
    with time_machine.travel(datetime(2026, 1, 10, 12, tzinfo=timezone.utc), tick=False):
        return [services.game_create(by=arbiter, tournament=postal, white=w, black=b, today=START)
                for w, b in ((anna, boris), (boris, anna), (anna, eve))]


@pytest.mark.parametrize("language, boris_words, eve_words", [
    ("ru", ("anna в отпуске с 20.01.2026 по 29.01.2026 в 2 партиях",
            "Его (её) часы не идут в эти дни в этих 2 партиях"),
     ("Партия №", "anna в отпуске с 20.01.2026 по 29.01.2026")),
    ("fr", ("anna est en congé du 20/01/2026 au 29/01/2026 dans 2 parties",
            "Sa pendule ne tourne pas ces jours-là dans ces 2 parties"),
     ("Partie n°", "anna est en congé du 20/01/2026 au 29/01/2026")),
])
def test_a_booking_mails_each_partner_once_listing_their_games_in_their_language(
        api, games, anna, boris, eve, settings, django_capture_on_commit_callbacks, language, boris_words,
        eve_words):
    settings.NOTIFY_INPROCESS = "inline"
    for user in (boris, eve):
        user.language = language
        user.save(update_fields=["language"])
    with time_machine.travel(datetime(2026, 1, 10, 12, tzinfo=timezone.utc), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            answer = api(anna).post("/api/leaves/", {"from": "2026-01-20", "to": "2026-01-29"}, format="json")
    assert answer.status_code == 201, answer.json()
    emails = list(OutboundEmail.objects.filter(key__startswith="notice:"))
    assert sorted(e.recipients[0] for e in emails) == ["boris@example.org", "eve@example.org"]
    (to_boris,) = [e for e in emails if e.recipients == ["boris@example.org"]]
    (to_eve,) = [e for e in emails if e.recipients == ["eve@example.org"]]
    assert boris_words[0] in to_boris.subject and boris_words[1] in to_boris.body
    assert f"/games/{games[0].pk}/" in to_boris.body and f"/games/{games[1].pk}/" in to_boris.body
    assert f"/games/{games[2].pk}/" not in to_boris.body
    assert eve_words[0] in to_eve.subject and eve_words[1] in to_eve.subject
    assert "2026-01-20" not in to_boris.body + to_boris.subject + to_eve.body + to_eve.subject
