"""An ICCF export whose players are people, not usernames, imported on the tournament page in chromium at 1280 and
390 px (issue 37): the arbiter uploads it, matches ``Mäkinen, Eero`` to his account and creates one for the other
player, and the game is imported. Screenshots as the other browser tests take them (``make screenshots``)."""

from __future__ import annotations

from datetime import date

import pytest

from accounts.models import User
from corr.games import services
from corr.models import Game

from ..exports.test_import_names import ICCF

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_an_iccf_export_imports_after_the_arbiter_matches_the_names(page, arbiter, tmp_path, width):
    User.objects.create_user("eero", "eero@example.org", "eero-pass-123", first_name="Eero", last_name="Mäkinen")
    tournament = services.tournament_create(by=arbiter, name="ICCF cup", official_start=date(2026, 2, 20),
                                            mode="server", preset="iccf_10_50", time_zone="Europe/Moscow")
    path = tmp_path / "iccf.pgn"
    path.write_text(ICCF, encoding="utf-8")
    page.width(width).sign_in(arbiter).open(f"/tournaments/{tournament.pk}/")
    page.find("#import-pgn").send_keys(str(path))
    page.click("#import-form button[type=submit]")
    assert "Match the players to accounts" in page.text() and "Mäkinen, Eero · ICCF id 461234" in page.text()
    assert page.find("#choice-0").get_attribute("value") == "eero"  # the one candidate, preselected and shown
    assert page.no_horizontal_scroll(), page.layout_problems()
    page.screenshot(f"import-names-{width}")
    page.fill("#choice-1", "__new__")  # Smith, John has no account: one is created for him
    page.click("#import-names-form button[type=submit]")
    assert "Import #" in page.text() and "1 game imported" in page.find("#import-jobs").text
    game = Game.objects.get(tournament=tournament)
    assert (game.white.username, game.black.get_full_name()) == ("eero", "John Smith")
