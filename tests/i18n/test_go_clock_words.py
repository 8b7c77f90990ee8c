"""A Go game's clock in words (issue 39): "main time: 30 days left; then 5 periods of 1 day", in the reader's
language, never the state's keys ("byo-yomi periods left 5, a period 1 day, in byo-yomi no")."""

from __future__ import annotations

import html
import re

import pytest

from corr.games import services

from ..conftest import TODAY
from .test_languages import english_left, sign_in, visible_text

pytestmark = pytest.mark.django_db

SAID = {
    ("dgs_byoyomi", "en"): "main time: 30 days left; then 5 periods of 1 day",
    ("dgs_byoyomi", "ru"): "основное время: осталось 30 дней; затем 5 периодов длительностью 1 день",
    ("dgs_byoyomi", "fr"): "temps principal : reste 30 jours ; puis 5 périodes de 1 jour",
    ("dgs_canadian", "en"): "main time: 30 days left; then 10 moves in each 15 days",
    ("dgs_canadian", "ru"): "основное время: осталось 30 дней; затем 10 ходов на каждые 15 дней",
    ("dgs_canadian", "fr"): "temps principal : reste 30 jours ; puis 10 coups par tranche de 15 jours",
}


@pytest.mark.parametrize(("preset", "language"), sorted(SAID))
def test_a_go_games_clock_is_said_in_a_sentence(arbiter, anna, boris, frozen, preset, language):
    tournament = services.tournament_create(by=arbiter, name="Go", official_start=TODAY, mode="server",
                                            preset=preset, kind="go")
    game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    page = sign_in(anna, "anna-pass-1", language).get(f"/games/{game.pk}/").content.decode()
    text = html.unescape(re.sub(r"\s+", " ", page))
    assert SAID[(preset, language)] in text
    assert not re.search(r"in byo-yomi (no|yes)|periods left \d|in overtime (no|yes)", text)
    if language == "ru":
        assert english_left(visible_text(page, language)) == []
