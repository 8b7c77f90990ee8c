"""XFCC through the HTTP stack (issue 26): GetMyGames and MakeAMove, faults for every bad request."""

from __future__ import annotations

import io
import re

import chess.pgn
import pytest
from django.test import Client

from accounts.models import XfccPassword
from accounts.xfcc import xfcc_password_issue
from corr.games import services
from corr.models import GameEvent

from ..conftest import NOW, TODAY
from .conftest import envelope, move_params

pytestmark = pytest.mark.django_db
URL = "/xfcc/xfccbasic.asmx"
SCID_TYPE = 'text/xml; charset="utf-8"'


def soap(body: bytes, *, content_type=SCID_TYPE, **headers):
    return Client().post(URL, body, content_type=content_type, **headers)


def field(text: str, name: str) -> list[str]:
    return re.findall(f"<{name}>(.*?)</{name}>", text, re.S)


def result(response) -> str:
    assert response.status_code == 200, response.content
    return field(response.content.decode(), "MakeAMoveResult")[0]


@pytest.fixture
def secrets(anna, boris, frozen):
    return {"anna": xfcc_password_issue(user=anna, now=NOW), "boris": xfcc_password_issue(user=boris, now=NOW)}


def test_get_my_games_lists_the_ongoing_chess_server_games_with_their_clock(server_game, postal_game, anna, boris,
                                                                           secrets):
    services.move_submit(game=server_game, by=anna, number=1, notation="e2-e4", today=TODAY)
    r = soap(envelope("GetMyGames", {"username": "boris", "password": secrets["boris"]}))
    assert r.status_code == 200 and r["Content-Type"] == "text/xml; charset=utf-8"
    text = r.content.decode()
    assert "<GetMyGamesResult><XfccGame>" in text and text.count("<XfccGame>") == 1  # not the postal game
    assert field(text, "id") == [str(server_game.pk)] and field(text, "myTurn") == ["true"]
    assert field(text, "hasWhite") == ["false"] and field(text, "result") == ["Ongoing"]
    assert field(text, "white") == ["anna"] and field(text, "eventDate") == ["2026.01.10"]
    assert field(text, "timeControl") == ["10/2592000"] and field(text, "drawOffered") == ["false"]
    moves = field(text, "moves")[0]
    assert moves == "1. e4 { [%ccsnt 2026.03.01] }"  # SAN, the typed e2-e4 converted
    game = chess.pgn.read_game(io.StringIO(moves))
    assert [n.san() for n in game.mainline()] == ["e4"]
    api_clock = Client()
    api_clock.force_login(boris)
    players = api_clock.get(f"/api/games/{server_game.pk}/").json()["clock"]["players"]
    # The API's days left; white's move 1 took 50 days of 30 (start 01-10): over the control, 0 left.
    assert field(text, "daysPlayer") == [str(players["black"]["control"]["remaining_days"])] == ["30"]
    assert players["white"]["control"]["remaining_days"] == -20 and field(text, "daysOpponent") == ["0"]
    assert field(text, "hoursPlayer") == ["0"] and field(text, "minutesOpponent") == ["0"]


def test_make_a_move_stores_the_move_through_the_api_service(server_game, anna, boris, secrets):
    r = soap(envelope("MakeAMove", move_params("anna", secrets["anna"], server_game.pk, 1, "Nf3")))
    assert result(r) == "Success"
    move = GameEvent.objects.get(game=server_game, kind="move")
    assert (move.player, move.number, move.notation, move.entered_by) == ("white", 1, "Nf3", anna)
    # The same move again (a client that did not hear the answer): done, nothing new.
    assert result(soap(envelope("MakeAMove", move_params("anna", secrets["anna"], server_game.pk, 1, "Nf3")))) \
        == "Success"
    assert GameEvent.objects.filter(game=server_game, kind="move").count() == 1


@pytest.mark.parametrize("prefixed", [False, True])
def test_each_refusal_answers_its_word_and_stores_nothing(server_game, anna, boris, secrets, prefixed):
    services.move_submit(game=server_game, by=anna, number=1, notation="e4", today=TODAY)
    headers = {"HTTP_SOAPACTION": '"http://www.bennedik.com/webservices/XfccBasic/MakeAMove"'} if prefixed else {}
    before = GameEvent.objects.count()

    def send(user, password, number, move, game_id=server_game.pk, **flags):
        body = envelope("MakeAMove", move_params(user, password, game_id, number, move, **flags), prefixed=prefixed)
        return result(soap(body, **headers))

    assert send("boris", secrets["boris"], 2, "e5") == "InvalidMoveNumber"
    assert send("anna", secrets["anna"], 2, "d4") == "NotYourTurn"
    assert send("boris", secrets["boris"], 1, "e4") == "InvalidMove"  # e4 is white's pawn's square
    assert send("boris", secrets["boris"], 1, "Ke2") == "InvalidMove"
    assert send("boris", "wrong", 1, "e5") == "AuthenticationFailed"
    assert send("nobody", "wrong", 1, "e5") == "AuthenticationFailed"
    assert send("boris", "boris-pass-1", 1, "e5") == "AuthenticationFailed"  # the sign-in password is not one
    assert send("boris", secrets["boris"], 1, "e5", game_id=999999) == "InvalidGameID"
    assert send("boris", secrets["boris"], 1, "e5", acceptDraw="true") == "NoDrawWasOffered"
    # A claim with a move that repeats nothing is unfounded (FIDE 9.2, 9.3; issue 36): no move stored either.
    assert send("boris", secrets["boris"], 1, "e5", claimDraw="true") == "InvalidMove"
    assert send("boris", secrets["boris"], 1, "", claimDraw="true") == "InvalidMove"
    assert GameEvent.objects.count() == before
    assert send("boris", secrets["boris"], 1, "e5") == "Success"


def test_a_game_of_others_is_not_yours(server_game, eve, secrets):
    password = xfcc_password_issue(user=eve, now=NOW)
    assert result(soap(envelope("MakeAMove", move_params("eve", password, server_game.pk, 1, "e4")))) \
        == "NotYourGame"


def test_draws_and_resignation_over_xfcc(server_game, anna, boris, secrets):
    r = soap(envelope("MakeAMove", move_params("anna", secrets["anna"], server_game.pk, 1, "e4", offerDraw="true")))
    assert result(r) == "Success"
    text = soap(envelope("GetMyGames", {"username": "boris", "password": secrets["boris"]})).content.decode()
    assert field(text, "drawOffered") == ["true"]
    r = soap(envelope("MakeAMove", move_params("boris", secrets["boris"], server_game.pk, 1, "", acceptDraw="true")))
    assert result(r) == "Success"
    server_game.refresh_from_db()
    assert (server_game.result, server_game.termination) == ("1/2-1/2", "draw agreed")
    text = soap(envelope("GetMyGames", {"username": "boris", "password": secrets["boris"]})).content.decode()
    assert "<XfccGame>" not in text  # finished games are no longer offered


def test_a_resignation_goes_with_a_move_number_scid_computes(server_game, anna, boris, secrets):
    r = soap(envelope("MakeAMove", move_params("anna", secrets["anna"], server_game.pk, 1, "", resign="true")))
    assert result(r) == "Success"
    server_game.refresh_from_db()
    assert (server_game.result, server_game.termination) == ("0-1", "white resigned")
    r = soap(envelope("MakeAMove", move_params("boris", secrets["boris"], server_game.pk, 1, "e5")))
    assert result(r) == "NotYourTurn"


def test_get_my_games_with_a_wrong_password_is_a_fault_that_names_no_user(server_game, secrets):
    for username in ("anna", "nobody"):
        r = soap(envelope("GetMyGames", {"username": username, "password": "wrong"}))
        assert r.status_code == 403
        text = r.content.decode()
        assert "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>AuthenticationFailed</faultstring>" in text


@pytest.mark.parametrize("body, status, words", [
    (b"<soap:Envelope", 400, "not well-formed"),
    (b"not xml at all", 400, "not well-formed"),
    # An encoding no codec reads (issue 42: it was an HTML 500), one too long to echo, and a multi-byte one.
    (b'<?xml version="1.0" encoding="x-unknown-42"?><a/>', 400, "encoding that cannot be read: unknown encoding:"
                                                                " x-unknown-42 (UTF-8 is expected)"),
    (b'<?xml version="1.0" encoding="' + b"e" * 5000 + b'"?><a/>', 400, "encoding that cannot be read"),
    (b'<?xml version="1.0" encoding="shift_jis"?><a/>', 400, "not well-formed"),
    (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
     b'<lolz>&lol2;</lolz>', 400, "no DTD or entity"),
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>', 400,
     "no DTD or entity"),
    (b'<?xml version="1.0"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body/></s:Envelope>',
     400, "SOAP 1.1 envelopes only"),
    (envelope("GetYourGames", {"username": "anna"}), 400, "XfccBasic has GetMyGames and MakeAMove"),
    (envelope("MakeAMove", {"username": "anna", "password": "x", "gameId": "one", "movecount": 1}), 400,
     "gameId must be a whole number"),
])
def test_bad_requests_are_soap_faults_and_store_nothing(server_game, secrets, body, status, words):
    before = GameEvent.objects.count()
    r = soap(body)
    assert r.status_code == status and r["Content-Type"] == "text/xml; charset=utf-8"
    text = r.content.decode()
    assert "<soap:Fault><faultcode>soap:" in text and words in text, text
    assert len(text) < 2000  # nothing of the body echoed beyond a bound
    assert GameEvent.objects.count() == before


def test_a_huge_body_a_wrong_media_type_and_a_get_are_faults(server_game, secrets):
    big = envelope("GetMyGames", {"username": "anna", "password": "x" * 70_000})
    assert soap(big).status_code == 413
    assert soap(envelope("GetMyGames", {"username": "anna", "password": "x"}),
                content_type="application/json").status_code == 415
    r = Client().get(URL)
    assert r.status_code == 405 and r["Allow"] == "POST" and "<soap:Fault>" in r.content.decode()


def test_production_answers_xfcc_only_over_https(server_game, secrets, settings):
    settings.XFCC_REQUIRE_HTTPS = True
    body = envelope("GetMyGames", {"username": "anna", "password": secrets["anna"]})
    r = soap(body)
    assert r.status_code == 403 and "HTTPS only" in r.content.decode()
    assert soap(body, secure=True).status_code == 200


def test_the_sign_in_lockout_applies_to_xfcc_passwords(server_game, secrets, settings):
    body = envelope("MakeAMove", move_params("anna", "wrong", server_game.pk, 1, "e4"))
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert result(soap(body)) == "AuthenticationFailed"
    r = soap(body)  # the fifth failure locks the username out from this address, as sign-in does
    assert r.status_code == 429 and "AuthenticationFailed: too many failed sign-ins" in r.content.decode()
    right = envelope("MakeAMove", move_params("anna", secrets["anna"], server_game.pk, 1, "e4"))
    assert soap(right).status_code == 429 and int(soap(right)["Retry-After"]) > 0
    assert GameEvent.objects.filter(kind="move").count() == 0
    # The pages count together with XFCC: the sign-in form is locked for anna too.
    assert Client().post("/login/", {"username": "anna", "password": "anna-pass-1"}).status_code == 429


def test_the_sign_in_throttle_does_not_count_xfcc_requests(server_game, secrets, settings):
    # Contract change (issue 37): XFCC was counted in the sign-in throttle, its 11th call a minute was a 429.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"sign-in": "10/min"}}
    body = envelope("GetMyGames", {"username": "anna", "password": secrets["anna"]})
    assert [soap(body).status_code for _ in range(30)] == [200] * 30
    # Nor does XFCC use up the API's sign-ins of this address: its ten are all there.
    token = [Client().post("/api/auth/token/", {"username": "anna", "password": "anna-pass-1"}).status_code
             for _ in range(11)]
    assert token == [200] * 10 + [429]


def test_xfcc_passwords_are_made_by_the_api_shown_once_and_revoked(api, anna, server_game):
    r = api(anna).post("/api/users/me/xfcc-password/", {}, format="json")
    assert r.status_code == 201 and r["Cache-Control"] == "no-store"
    password = r.json()["xfcc_password"]
    assert len(password) == 32 and XfccPassword.objects.get(user=anna).digest != password
    assert password not in str(XfccPassword.objects.values_list().get())
    body = envelope("GetMyGames", {"username": "anna", "password": password})
    assert soap(body).status_code == 200
    second = api(anna).post("/api/users/me/xfcc-password/", {}, format="json").json()["xfcc_password"]
    assert second != password and soap(body).status_code == 403  # replaced
    assert api(anna).delete("/api/users/me/xfcc-password/").status_code == 204
    assert soap(envelope("GetMyGames", {"username": "anna", "password": second})).status_code == 403
    assert api(None).post("/api/users/me/xfcc-password/", {}, format="json").status_code == 401
    assert api(anna).post("/api/users/me/xfcc-password/", {"password": "mine"}, format="json").status_code == 400
    # An XFCC password opens no page and no token.
    third = api(anna).post("/api/users/me/xfcc-password/", {}, format="json").json()["xfcc_password"]
    assert api(None).post("/api/auth/token/", {"username": "anna", "password": third},
                          format="json").status_code == 400
    assert Client().post("/login/", {"username": "anna", "password": third}).status_code == 200


def test_the_account_page_makes_shows_once_and_revokes_the_xfcc_password(anna, server_game):
    client = Client()
    client.force_login(anna)
    page = client.get("/account/").content.decode()
    assert "Desktop clients (XFCC)" in page and "none yet: make one below" in page
    assert "http://127.0.0.1:8000/xfcc/xfccbasic.asmx" in page and 'href="/account/"' in page
    r = client.post("/account/xfcc-password/")
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    password = re.search(r'<code id="xfcc-password">([^<]+)</code>', r.content.decode()).group(1)
    assert soap(envelope("GetMyGames", {"username": "anna", "password": password})).status_code == 200
    page = client.get("/account/").content.decode()
    assert password not in page and "your XFCC password, made on" in page
    client.post("/account/xfcc-password/revoke/")
    assert soap(envelope("GetMyGames", {"username": "anna", "password": password})).status_code == 403
    assert "none yet" in client.get("/account/").content.decode()
