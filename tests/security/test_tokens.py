"""Token policy: a token expires TOKEN_TTL_DAYS (30) days after it was issued; a password change deletes it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.forms import PasswordChangeForm
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def documented_ttl(settings):
    settings.TOKEN_TTL_DAYS = 30  # the conftest stretches it for time-travelling tests


def sign_in(username, password) -> str:
    response = APIClient().post("/api/auth/token/", {"username": username, "password": password}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["token"]


def me(token: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/users/me/")


def test_a_token_works_until_its_thirtieth_day(anna, frozen):
    token = sign_in("anna", "anna-pass-1")
    frozen.shift(timedelta(days=30) - timedelta(seconds=1))
    assert me(token).status_code == 200


def test_a_token_thirty_days_old_answers_401_and_is_deleted(anna, frozen):
    token = sign_in("anna", "anna-pass-1")
    frozen.shift(timedelta(days=30))
    response = me(token)
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]
    assert not Token.objects.filter(key=token).exists()


def test_signing_in_again_replaces_an_expired_token_and_keeps_a_valid_one(anna, frozen):
    first = sign_in("anna", "anna-pass-1")
    frozen.shift(timedelta(days=10))
    assert sign_in("anna", "anna-pass-1") == first
    frozen.shift(timedelta(days=20))
    second = sign_in("anna", "anna-pass-1")
    assert second != first and me(second).status_code == 200


def test_a_password_change_deletes_the_users_tokens(anna, boris):
    token, kept = sign_in("anna", "anna-pass-1"), sign_in("boris", "boris-pass-1")
    anna.set_password("a-new-pass-2")
    anna.save()
    assert me(token).status_code == 401
    assert me(kept).status_code == 200
    assert me(sign_in("anna", "a-new-pass-2")).status_code == 200


def test_a_password_change_through_the_form_deletes_the_token_too(anna):
    token = sign_in("anna", "anna-pass-1")
    form = PasswordChangeForm(User.objects.get(pk=anna.pk), {"old_password": "anna-pass-1",
                                                              "new_password1": "quite-new-pass-9",
                                                              "new_password2": "quite-new-pass-9"})
    assert form.is_valid(), form.errors
    form.save()
    assert me(token).status_code == 401


def test_other_saves_and_a_hash_upgrade_at_sign_in_keep_the_token(anna, settings):
    token = sign_in("anna", "anna-pass-1")
    anna = User.objects.get(pk=anna.pk)
    anna.email = "anna@elsewhere.example"
    anna.save()
    # A stronger hasher first: signing in re-hashes the MD5 password, which is not a password change.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher",
                                 "django.contrib.auth.hashers.MD5PasswordHasher"]
    assert sign_in("anna", "anna-pass-1") == token
    assert User.objects.get(pk=anna.pk).password.startswith("pbkdf2_")
    assert me(token).status_code == 200
