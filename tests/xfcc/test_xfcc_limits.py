"""XFCC's own limits (issue 37): a user's calls with a right password (``XFCC_USER_RATE``), an address's wrong
sign-ins (``SIGN_IN_RATE``, counted apart), each a SOAP fault whose text starts with the word Scid reacts to."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.xfcc import xfcc_password_issue
from corr.models import GameEvent

from ..conftest import NOW
from .conftest import envelope, move_params
from .test_xfcc_soap import field, result, soap

pytestmark = pytest.mark.django_db


@pytest.fixture
def secrets(anna, boris, frozen):
    return {"anna": xfcc_password_issue(user=anna, now=NOW), "boris": xfcc_password_issue(user=boris, now=NOW)}


def games(user: str, password: str, address: str = "127.0.0.1"):
    return soap(envelope("GetMyGames", {"username": user, "password": password}), REMOTE_ADDR=address)


def fault_text(response) -> str:
    return field(response.content.decode(), "faultstring")[0]


def test_the_default_user_rate_is_one_no_client_reaches(settings):
    number, per = settings.XFCC_USER_RATE.split("/")
    assert per in ("m", "min") and int(number) >= 120


def test_a_user_past_the_rate_gets_a_server_error_fault_and_others_behind_the_address_do_not(
        server_game, secrets, settings, frozen):
    settings.XFCC_USER_RATE = "3/min"
    assert [games("anna", secrets["anna"]).status_code for _ in range(3)] == [200] * 3
    refused = games("anna", secrets["anna"])
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    # "ServerError" first: Scid's SOAPError shows its message box for it; newer clients show the rest.
    assert fault_text(refused) == f"ServerError: too many XFCC requests for this account: try again in" \
                                  f" {refused['Retry-After']} seconds"
    move = envelope("MakeAMove", move_params("anna", secrets["anna"], server_game.pk, 1, "e4"))
    assert soap(move).status_code == 429 and GameEvent.objects.filter(kind="move").count() == 0
    assert games("boris", secrets["boris"]).status_code == 200  # one user's count, not the address's
    frozen.shift(61)
    assert result(soap(move)) == "Success"


@pytest.mark.parametrize(("language", "words"), [("ru", "слишком много запросов XFCC"),
                                                 ("fr", "trop de requêtes XFCC")])
def test_the_user_limit_is_said_in_the_users_language(server_game, secrets, settings, language, words):
    User.objects.filter(username="anna").update(language=language)
    settings.XFCC_USER_RATE = "1/min"
    games("anna", secrets["anna"])
    text = fault_text(games("anna", secrets["anna"]))
    assert text.startswith("ServerError: ") and words in text


def test_wrong_sign_ins_from_one_address_are_throttled_before_any_password_is_checked(
        server_game, secrets, settings, frozen):
    settings.SIGN_IN_RATE = "10/min"
    # Ten wrong sign-ins under ten usernames: no username is locked out (5 each), the address is throttled.
    assert [games(f"guess{n}", "wrong").status_code for n in range(10)] == [403] * 10
    refused = games("anna", secrets["anna"])  # the right password is not even checked now
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert fault_text(refused).startswith("AuthenticationFailed: too many failed XFCC sign-ins from this address")
    assert games("anna", secrets["anna"], address="10.0.0.9").status_code == 200  # another address
    # The sign-in throttle of the pages and the API is another count: the token endpoint still answers.
    assert Client().post("/api/auth/token/", {"username": "anna", "password": "anna-pass-1"}).status_code == 200
    frozen.shift(61)
    assert games("anna", secrets["anna"]).status_code == 200


def test_right_sign_ins_are_not_counted_as_failures(server_game, secrets, settings):
    settings.SIGN_IN_RATE = "2/min"
    assert [games("anna", secrets["anna"]).status_code for _ in range(20)] == [200] * 20
    assert games("eve", "wrong").status_code == 403
    assert games("anna", secrets["anna"]).status_code == 200
