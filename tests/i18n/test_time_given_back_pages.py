"""Issue 39's words on the game page in Russian and French: the arbiter's credit form, the delay that charges,
the history's reopening, the reopened case and the credit, the ledger's line; no English left."""

from __future__ import annotations

import pytest
from django.test import Client

from corr.games import services
from corr.models import OverstepCase
from corr.nightly.cases import overstep_confirm
from tests.conftest import NOW, TODAY

from .test_languages import english_left, untranslated_messages, visible_text

WORDS = {
    "ru": ("21 день возвращено игроку белые при возобновлении, снова в контроле 1: штемпель", "Вернуть время",
           "Засчитывается игроку", "возвращено времени: 21 день", "вновь открыто вместе с партией"),
    "fr": ("21 jours rendu(s) à blancs à la réouverture, de nouveau dans le contrôle 1 : штемпель",
           "Rendre du temps", "Décompté au joueur", "temps rendu : 21 jours", "rouvert avec la partie"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "fr"])
def test_the_reopened_and_credited_game_reads_in_the_readers_language(postal_game, other_arbiter, arbiter,
                                                                       language):
    postal_game.tournament.arbiters.add(other_arbiter)
    case = OverstepCase.objects.get(game=postal_game, player="white")  # 50 days of 30
    overstep_confirm(case=case, by=arbiter, now=NOW, today=TODAY)
    services.game_reopen(game=postal_game, by=arbiter, note="штемпель", overstep="credit", today=TODAY)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(other_arbiter)
    client.cookies["django_language"] = language
    response = client.get(f"/games/{postal_game.pk}/")
    assert response.status_code == 200
    texts = visible_text(response.content.decode(), language)
    text = "\n".join(texts)
    for words in WORDS[language]:
        assert words in text, (words, language)
    if language == "ru":  # runs of Latin words: English on a Russian page (French is Latin too)
        assert english_left(texts) == []
    assert untranslated_messages(texts, language) == []
