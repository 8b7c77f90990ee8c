"""Usernames are stored in NFKC and refused when they look like an existing one (400 naming ``username``)."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.usernames import username_lookalike

pytestmark = pytest.mark.django_db


def create(api, arbiter, username):
    return api(arbiter).post("/api/users/", {"username": username, "password": "carl-pass-123"}, format="json")


@pytest.mark.parametrize("lookalike", [
    "\u0430rb1",  # Cyrillic а
    "arbI",  # capital I for the digit 1
    "ARB1",
    "\uff41rb1",  # fullwidth a: NFKC makes it arb1 itself
    "\u0430RB\u0406",  # Cyrillic а and І, in capitals
])
def test_a_username_that_looks_like_an_existing_one_is_refused(api, arbiter, lookalike):
    User.objects.create_user("arb1", password="arb1-pass-123")
    response = create(api, arbiter, lookalike)
    assert response.status_code == 400
    assert response.json()["field"] == "username"
    assert User.objects.count() == 2  # the arbiter and arb1


def test_the_refusal_names_the_existing_username(api, arbiter):
    User.objects.create_user("arb1", password="arb1-pass-123")
    assert "'arb1'" in create(api, arbiter, "\u0430rb1").json()["detail"]


def test_a_username_is_stored_in_nfkc(api, arbiter):
    response = create(api, arbiter, "\uff43\uff41\uff52\uff4c")  # fullwidth carl
    assert response.status_code == 201
    assert response.json()["username"] == "carl"
    assert User.objects.filter(username="carl").exists()


def test_distinct_names_in_any_script_are_accepted(api, arbiter):
    for name in ("arb2", "\u0438\u0432\u0430\u043d", "anna_k"):  # иван
        assert create(api, arbiter, name).status_code == 201, name


def test_a_name_that_nfkc_turns_invalid_is_refused_with_400(api, arbiter):
    response = create(api, arbiter, "carl\u00bd")  # ½ becomes 1⁄2, whose slash is no username character
    assert response.status_code == 400
    assert response.json()["field"] == "username"


@pytest.mark.parametrize("new, existing, alike", [
    ("\u0430nna", "anna", True),
    ("paypa1", "paypal", True),
    ("m", "rn", True),
    ("boris", "anna", False),
    ("anna2", "anna", False),
])
def test_lookalikes_are_found_by_their_keys(new, existing, alike):
    assert (username_lookalike(new, [existing]) == existing) is alike


@pytest.mark.parametrize("existing, lookalike", [
    ("p6", "\u1d186"),  # ᴘ6: LATIN LETTER SMALL CAPITAL P (issue 23)
    ("boris", "\u0299o\u0280\u026as"),  # ʙoʀɪs
    ("anna", "\u1d00\u0274\u0274\u1d00"),  # ᴀɴɴᴀ
    ("ivan", "\ua7aevan"),  # Ɪvan: LATIN CAPITAL LETTER SMALL CAPITAL I
    ("nina", "\u1db0ina"),  # ᶰina: a modifier small capital N, NFKC ɴ
])
def test_a_username_in_small_capitals_is_refused_beside_its_small_letters(api, arbiter, existing, lookalike):
    User.objects.create_user(existing, password="some-pass-123")
    response = create(api, arbiter, lookalike)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == "username" and repr(existing) in response.json()["detail"]


def test_a_small_capital_of_another_letter_is_no_lookalike():
    assert username_lookalike("\u1d186", ["q6", "b6", "r6"]) is None
