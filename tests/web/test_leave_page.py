"""The leave page: the booking form, what is used and left, cancelling (issue 14)."""

from __future__ import annotations

import pytest
from django.test import Client

from corr.models import Leave

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_books_sees_and_cancels_leave_on_the_page(postal_game, anna):
    page = signed_in(anna)
    shown = page.get("/leave/")
    assert shown.status_code == 200 and "Postal cup" in shown.content.decode()
    booked = page.post("/leave/", {"first": "2026-03-10", "last": "2026-03-19"})
    assert booked.status_code == 302
    leave = Leave.objects.get(user=anna)
    body = page.get("/leave/").content.decode()
    assert "2026-03-10" in body and f"/leave/{leave.pk}/cancel/" in body
    assert page.post(f"/leave/{leave.pk}/cancel/").status_code == 302
    assert not Leave.objects.exists()


def test_a_refused_booking_says_the_rule(postal_game, anna):
    page = signed_in(anna)
    answer = page.post("/leave/", {"first": "2026-03-01", "last": "2026-03-05"}, follow=True)
    assert "leave_book_ahead_days" in answer.content.decode()
    assert not Leave.objects.exists()
