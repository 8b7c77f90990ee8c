"""See before you act (issue 41) in French: the game page's preview boxes and planning table, and the preview
API's sentences the page's script shows (it asks in the page's ``<html lang>``).

The browser tests (``tests/browser/test_previews_*``) check that the page shows the API's sentences as they are;
here the page is read through Django's test client in French, and the sentences are checked to be French, the
API's own days and dates in the French forms.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format

from corr.games import services

pytestmark = pytest.mark.django_db
TODAY = date(2026, 3, 1)


def page(user, path: str) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "fr"
    answer = client.get(path)
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.fixture
def game(arbiter, anna, boris):
    """A postal game started 27 days before ``TODAY`` (30 days a control): white (anna) to move, 27 days used."""
    with time_machine.travel(TODAY, tick=False):
        t = services.tournament_create(by=arbiter, name="Coupe", official_start=TODAY - timedelta(days=27),
                                       mode="postal", presumed_transit_days=4)
        return services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=TODAY)


def test_the_arbiters_forms_preview_in_french_and_the_api_words_a_case_that_would_open(game, arbiter, api):
    with time_machine.travel(TODAY, tick=False):
        html = page(arbiter, f"/games/{game.pk}/")
        answer = api(arbiter).post(f"/api/games/{game.pk}/preview/", {"events": [
            {"kind": "penalty", "player": "white", "reason": "address_error"}]}, format="json",
            HTTP_ACCEPT_LANGUAGE="fr")
    assert '<html lang="fr">' in html  # preview.js asks the API in this language
    # Each of the four arbiter's forms holds the preview box, its title and "no change" in French.
    assert html.count("Aperçu : ce que cela changerait") == 4
    assert 'data-none="aucun changement aux pendules"' in html
    changes = answer.json()["changes"]
    # 27 days used and 5 of penalty: 32 of 30 days.
    assert any(line.startswith("un dossier de dépassement serait ouvert") and "32" in line for line in changes)
    assert any("au lieu de" in line for line in changes), changes
    assert not any("instead of" in line or "would open" in line for line in changes)


def test_the_planning_table_reads_in_french_with_the_apis_days(game, anna, api):
    with time_machine.travel(TODAY, tick=False):
        html = page(anna, f"/games/{game.pk}/?think_days=2&post_days=4")
        rows = api(anna).get(f"/api/games/{game.pk}/plan/?think_days=2&post_days=4").json()["control_ends"]
    table = html[html.index('id="plan-table"'):html.index("</table>", html.index('id="plan-table"'))]
    assert "se termine au coup" in table and "Prévoir : quand chaque contrôle se terminerait" in html
    with translation.override("fr"):
        for row in rows:
            day = date.fromisoformat(row["sent"])
            assert f'<time datetime="{row["sent"]}">{date_format(day, "SHORT_DATE_FORMAT")}</time>' in table
    assert table.count("<time datetime=") == len(rows) == 6
    assert ("le contrôle serait dépassé" in table) is (not all(row["in_time"] for row in rows))
