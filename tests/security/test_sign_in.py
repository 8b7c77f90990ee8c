"""Sign-in hardening: the token endpoint's throttle and the lockout shared by the API and both sign-in pages.

Documented numbers (docs/security.md, and the settings in docs/operations.md): ``POST /api/auth/token/``
takes 10 requests a minute per client address; 5 failed sign-ins for one
username from one address lock that pair out for 15 minutes, on every sign-in:
the fifth failure is already answered 429.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

TOKEN = "/api/auth/token/"


def token_post(username, password, address="10.0.0.1"):
    return APIClient().post(TOKEN, {"username": username, "password": password}, format="json",
                            REMOTE_ADDR=address)


def test_the_documented_limits_are_the_settings(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["sign-in"] == "10/min"
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60


def test_the_fifth_wrong_password_on_the_token_endpoint_locks_out_even_the_right_one(anna):
    assert [token_post("anna", "wrong").status_code for _ in range(5)] == [400] * 4 + [429]
    locked = token_post("anna", "anna-pass-1")
    assert locked.status_code == 429
    assert "too many failed sign-ins" in locked.json()["detail"]
    assert locked["Retry-After"] == str(15 * 60)


def test_the_lockout_is_per_username_and_address(anna, boris):
    for _ in range(5):
        token_post("anna", "wrong")
    assert token_post("anna", "anna-pass-1", address="10.0.0.2").status_code == 200  # the real anna elsewhere
    assert token_post("boris", "boris-pass-1").status_code == 200  # another user behind the same address


def test_a_right_password_resets_the_count_of_failures(anna):
    for _ in range(4):
        token_post("anna", "wrong")
    assert token_post("anna", "anna-pass-1").status_code == 200
    for _ in range(4):
        assert token_post("anna", "wrong").status_code == 400
    assert token_post("anna", "anna-pass-1").status_code == 200


def test_the_lockout_is_over_after_the_cool_off(anna, frozen):
    for _ in range(5):
        token_post("anna", "wrong")
    assert token_post("anna", "anna-pass-1").status_code == 429
    frozen.shift(15 * 60 + 1)
    assert token_post("anna", "anna-pass-1").status_code == 200


def test_the_token_endpoint_answers_429_after_ten_requests_a_minute_from_one_address(anna):
    # Unknown usernames, so that the lockout (per username) never counts: this is the throttle.
    answers = [token_post(f"nobody{i}", "x").status_code for i in range(11)]
    assert answers == [400] * 10 + [429]
    throttled = token_post("anna", "anna-pass-1")
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    assert "detail" in throttled.json()
    assert token_post("anna", "anna-pass-1", address="10.0.0.9").status_code == 200


def test_a_forged_forwarded_for_header_does_not_escape_the_throttle(anna):
    for i in range(10):
        APIClient().post(TOKEN, {"username": f"n{i}", "password": "x"}, format="json", REMOTE_ADDR="10.0.0.1",
                         HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")
    response = APIClient().post(TOKEN, {"username": "anna", "password": "anna-pass-1"}, format="json",
                                REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert response.status_code == 429


@pytest.mark.parametrize("page", ["/login/", "/admin/login/"])
def test_a_sign_in_page_locks_out_after_five_wrong_passwords(page, arbiter):
    client = Client(REMOTE_ADDR="10.0.0.1")
    answers = [client.post(page, {"username": "arbiter", "password": "wrong"}).status_code for _ in range(5)]
    assert answers == [200] * 4 + [429]  # the form again with its error, then the lockout
    locked = client.post(page, {"username": "arbiter", "password": "arbiter-pass-1"})
    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_on_the_pages_and_the_api_count_together(anna):
    client = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(3):
        client.post("/login/", {"username": "anna", "password": "wrong"})
    for _ in range(2):
        token_post("anna", "wrong")
    assert token_post("anna", "anna-pass-1").status_code == 429
    assert client.post("/login/", {"username": "anna", "password": "anna-pass-1"}).status_code == 429


@pytest.mark.parametrize("env, message", [
    ({"SIGN_IN_RATE": "lots"}, "SIGN_IN_RATE must look like 10/min"),
    ({"TOKEN_TTL_DAYS": "0"}, "TOKEN_TTL_DAYS must be at least 1"),
    ({"AXES_FAILURE_LIMIT": "many"}, "AXES_FAILURE_LIMIT must be a whole number"),
])
def test_bad_sign_in_settings_are_refused_by_name(env, message):
    from tests.settings.test_settings import manage

    done = manage("check", DEBUG="1", **env)
    assert done.returncode != 0
    assert message in done.stderr
