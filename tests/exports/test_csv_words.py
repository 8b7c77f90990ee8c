"""The ledger's CSV in the reader's language (issue 39): its text columns in words, as the game page says the
ledger, no code (``unregistered_mail``, ``void_move``) in them; the codes in ``player_code`` and ``kind_code``."""

from __future__ import annotations

import csv
import io
import re

import pytest

from corr.games import services
from tests.conftest import TODAY
from tests.i18n.test_languages import english_left, sign_in

pytestmark = pytest.mark.django_db

CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


@pytest.mark.parametrize("language, words", [
    ("ru", {"player": "белые", "kind": "штраф", "note": "не заказная почта: первый штраф"}),
    ("fr", {"player": "blancs", "kind": "pénalité", "note": "envoi non recommandé : première pénalité"}),
])
def test_the_csv_says_the_ledger_in_the_readers_language(postal_game, arbiter, anna, language, words):
    services.penalty_assess(game=postal_game, by=arbiter, today=TODAY, player="white", reason="unregistered_mail",
                            note="")
    response = sign_in(anna, "anna-pass-1", language).get(f"/games/{postal_game.pk}/export/csv/")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    (penalty,) = [row for row in rows if row["kind_code"] == "penalty"]
    assert penalty["player_code"] == "white" and words["player"] in penalty["player"]
    assert words["kind"] in penalty["kind"] and words["note"] in penalty["note"], penalty
    text = [row[k] for row in rows for k in ("player", "kind", "rule", "note")]
    assert [cell for cell in text if CODE.search(cell)] == []
    if language == "ru":
        assert english_left(text) == []
