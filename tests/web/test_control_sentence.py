"""The game page's sentence on a player's control says the days charged so far, not "through move 10" when two moves
are played (the browser walk of 2026-12-06: "allows 30 days; 10 charged through move 10" read as if move 10 was
reached); in every language, from the same numbers as the clock card."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SENTENCE = {
    "en": r"Control 1 \(moves 1-10, accumulated\) allows 30 days; (\d+) charged so far \((\d+) thinking, 0 penalty,"
          r" 0 delay in all\): (\d+) left \(Correspondence rules 50\.4\.3\)\.",
    "ru": r"Контроль 1 \(ходы 1-10, с накоплением\) даёт 30 дней; уже начислено (\d+) \(всего (\d+) на обдумывание,"
          r" 0 штрафа, 0 задержки\): осталось (\d+) \(Правила игры по переписке 50\.4\.3\)\.",
    "fr": r"Le contrôle 1 \(coups 1-10, cumulé\) accorde 30 jours ; (\d+) déjà comptés \((\d+) de réflexion, 0 de"
          r" pénalité, 0 de délai en tout\) : il en reste (\d+) \(Règles du jeu par correspondance 50\.4\.3\)\.",
}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_control_sentence_says_the_days_charged_so_far(api, postal_game, anna, language):
    answer = api(anna).post(f"/api/games/{postal_game.pk}/moves/",
                            {"number": 1, "notation": "e4", "sent_on": "2026-01-15"}, format="json")
    assert answer.status_code == 201, answer.json()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(anna)
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", client.get(f"/games/{postal_game.pk}/")
                                                   .content.decode())))
    found = re.search(SENTENCE[language], text)
    assert found, text[:3000]
    used, thinking, left = map(int, found.groups())
    assert used == thinking > 0 and used + left == 30
