"""The models carry the limits as validators: the admin's forms refuse what the API refuses."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from corr.models import Tournament

pytestmark = pytest.mark.django_db


def admin_form(arbiter, **changes) -> dict:
    return {"name": "Admin cup", "official_start": "2026-01-10", "mode": "postal", "kind": "chess", "time_zone": "UTC",
            "presumed_transit_days": 0, "moves_per_control": 10, "days_per_control": 30, "grace_days": 3,
            "first_penalty_days": 5, "repeat_penalty_days": 10, "time_trouble_days": 5,
            "late_notice_start_days": 3, "arbiters": [arbiter.pk], "created_by": arbiter.pk,
            "created_at_0": "2026-01-01", "created_at_1": "12:00:00"} | changes


def test_the_admin_adds_a_tournament_within_bounds(admin_user, arbiter):
    client = Client()
    client.force_login(admin_user)
    assert client.post("/admin/corr/tournament/add/", admin_form(arbiter)).status_code == 302
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(("changes", "field"), [
    ({"days_per_control": 100_000}, "days_per_control"),
    ({"official_start": "9999-12-31"}, "official_start"),
    ({"presumed_transit_days": 366}, "presumed_transit_days"),
])
def test_the_admin_refuses_a_tournament_out_of_bounds(admin_user, arbiter, changes, field):
    client = Client()
    client.force_login(admin_user)
    response = client.post("/admin/corr/tournament/add/", admin_form(arbiter, **changes))
    assert response.status_code == 200  # the form again, with its errors
    assert list(response.context["adminform"].form.errors) == [field]
    assert Tournament.objects.count() == 0


def test_full_clean_names_the_field_outside_the_window(arbiter):
    tournament = Tournament(name="Old", official_start=date(1, 1, 1), mode="postal", created_by=arbiter)
    with pytest.raises(ValidationError) as error:
        tournament.full_clean()
    assert list(error.value.message_dict) == ["official_start"]
