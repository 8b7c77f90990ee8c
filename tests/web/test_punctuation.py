"""Clauses and labels joined in code are punctuated as the reader's language does it (corr/web/clauses.py): French
sets a space before ":" and ";", as every message of its catalogue does; the browser walk of 2026-12-06 read
"Envoyé le: La date d'envoi ..." and "cumulé; au plus 40 jours par coup" on French pages."""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
from django.test import Client

from corr.games import services

from ..conftest import TODAY

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


def signed_in(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@pytest.mark.parametrize("language, control", [
    ("en", "10 moves in 50 days, repeated, accumulated; at most 40 days a move; days count double beyond 20"),
    ("ru", "; не более 40 дней на ход; "),
    ("fr", "10 coups en 50 jours, répété, cumulé ; au plus 40 jours par coup ; les jours au-delà de 20 comptent"),
])
def test_the_time_control_s_clauses(arbiter, anna, boris, frozen, language, control):
    tournament = services.tournament_create(by=arbiter, name="ICCF cup", official_start=date(2026, 1, 10),
                                            mode="server", preset="iccf_10_50")
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    for path in (f"/tournaments/{tournament.pk}/", f"/games/{game.pk}/"):
        assert control in text_of(signed_in(arbiter, language).get(path)), (path, language)


@pytest.mark.parametrize("language, summary", [
    ("en", "Not saved. Sent on: "), ("ru", "Не сохранено. Отправлен: "), ("fr", "Non enregistré. Envoyé le : ")])
def test_a_refused_form_s_summary_names_the_field_as_the_language_punctuates_it(postal_game, anna, language,
                                                                                 summary):
    refused = signed_in(anna, language).post(f"/games/{postal_game.pk}/move/", {
        "number": 1, "notation": "e4", "sent_on": "01/02/2026"})  # ambiguous: a field error
    assert refused.status_code == 400
    assert summary in text_of(refused)
