"""Text inputs bounded before they reach a library (issue 23, item 5).

django-axes records every failed sign-in's username in a ``varchar(255)``: PostgreSQL refuses a
longer one (a 500 before the bound), SQLite stores it. CI runs these tests on both (.ci/run), so the
varchar limit is met where it bites. The bound is the username column's own, 150 characters: no
account has a longer name, so nothing a right password opened before is refused now.
"""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db

LONG = "a" * 300


@pytest.mark.parametrize("length", [151, 256, 300, 10_000])
def test_a_username_over_the_bound_at_the_token_endpoint_gets_400_naming_username(anna, length):
    response = APIClient().post("/api/auth/token/", {"username": "a" * length, "password": "x"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "username"
    assert "150" in body["detail"]
    assert not AccessAttempt.objects.exists()  # refused before axes counts it


@pytest.mark.parametrize("language, words", [("ru", "150"), ("fr", "150")])
def test_the_refusal_is_in_the_readers_language(anna, language, words):
    response = APIClient().post("/api/auth/token/", {"username": LONG, "password": "x"}, format="json",
                                HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert words in detail
    english = APIClient().post("/api/auth/token/", {"username": LONG, "password": "x"}, format="json").json()
    assert detail != english["detail"]


def test_a_username_of_the_bound_is_still_a_plain_wrong_sign_in(anna):
    response = APIClient().post("/api/auth/token/", {"username": "a" * 150, "password": "x"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "password"


def test_a_long_username_on_the_sign_in_page_gets_the_forms_error(anna):
    response = Client().post("/login/", {"username": LONG, "password": "x"})
    assert response.status_code == 200  # the form again, with its error: not a 500
    assert response.context["form"].errors["username"]
    assert not AccessAttempt.objects.exists()


def test_a_long_username_on_the_admin_sign_in_page_gets_the_forms_error(anna):
    response = Client().post("/admin/login/", {"username": LONG, "password": "x"})
    assert response.status_code == 200
    assert not AccessAttempt.objects.exists()


def test_the_right_password_still_signs_in(anna):
    assert APIClient().post("/api/auth/token/", {"username": "anna", "password": "anna-pass-1"},
                            format="json").status_code == 200
    assert User.objects.get(username="anna")
