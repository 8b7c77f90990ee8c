"""The pages keep the bounds of corr.limits: a form error instead of a 500, 404 for a malformed URL date."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from corr.models import GameEvent, OverstepCase
from corr.nightly.job import nightly_job

from ..conftest import TODAY

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(("action", "form", "said"), [
    ("delay", {"player": "white", "days": 2**31}, "days: Ensure this value is less than or equal to 3650."),
    ("delay", {"player": "white", "days": 0}, "days: Ensure this value is greater than or equal to 1."),
    ("move", {"number": 2**31, "sent_on": "2026-01-12"}, "number: Ensure this value is less than or equal to 10000"),
    ("move", {"number": 1, "sent_on": "01.01.0001"}, "sent_on: must lie between 1900-01-01 and 2199-12-31"),
    ("move", {"number": 1, "notation": "x" * 65, "sent_on": "2026-01-12"}, "notation: Ensure this value has at most"),
    ("receipt", {"received_on": "9999-12-31"}, "received_on: must lie between 1900-01-01 and 2199-12-31"),
    ("notice", {"reason": "illegible_move", "received_on": "1899-12-31", "sent_on": "2026-01-12"},
     "received_on: must lie between"),
])
def test_a_form_out_of_bounds_says_why_and_stores_nothing(postal_game, arbiter, anna, action, form, said):
    user = arbiter if action == "delay" else anna
    response = signed_in(user).post(f"/games/{postal_game.pk}/{action}/", form)
    assert response.status_code == 400  # the page again, the values kept, the error beside its field
    assert said.split(": ", 1)[1] in messages_of(response)
    assert GameEvent.objects.count() == 0


@pytest.mark.parametrize("path", ["reports/garbage/", "reports/2026-13-45.csv", "reports/2026-13-45/",
                                  "reports/0001-01-01/", "reports/9999-12-31.csv", "reports/2026-2-1/"])
def test_a_malformed_report_date_in_the_url_is_not_found(postal, arbiter, path):
    assert signed_in(arbiter).get(f"/tournaments/{postal.pk}/{path}").status_code == 404


def test_a_dismissal_reason_longer_than_the_limit_is_refused(postal_game, arbiter):
    nightly_job(on=TODAY)  # white's move 1 pending since 01-10: 50 days, control 1 (30 days) exceeded
    case = OverstepCase.objects.get()
    response = signed_in(arbiter).post(f"/overstep-cases/{case.pk}/decide/",
                                       {"decision": "dismiss", "reason": "x" * 2001}, follow=True)
    assert "reason: Ensure this value has at most 2000 characters" in messages_of(response)
    case.refresh_from_db()
    assert case.status == "open"
