"""An arbiter's invitation (issue 38): the e-mail's link makes the account and pairs the game; page and API.

Over a real SMTP server (tests.support.smtp), in en, ru and fr.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from accounts.models import User
from corr.models import Game, Invitation
from tests.conftest import client_for
from tests.support.smtp import body, link_in, subject

SUBJECT = {"en": "corr: an invitation to Server league", "ru": "corr: приглашение в турнир Server league",
           "fr": "corr : une invitation à Server league"}
JOINED = {"en": "Welcome, newcomer: here is your game.", "ru": "Добро пожаловать, newcomer: вот ваша партия.",
          "fr": "Bienvenue, newcomer : voici votre partie."}
ACCOUNT = {"username": "newcomer", "password1": "Newcomer-pass-2026", "password2": "Newcomer-pass-2026"}


def invite(arbiter, server, language="en", **changes):
    client = Client()
    client.force_login(arbiter)
    data = {"email": "new@example.net", "opponent": "boris", "colour": "white", "language": language, **changes}
    return client.post(f"/tournaments/{server.pk}/invitations/", data)


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_an_invited_player_joins_from_the_invitation_email_and_sees_their_game(
        arbiter, boris, server, smtp, settings, language):
    assert invite(arbiter, server, language).status_code == 302
    mail = smtp.last_to("new@example.net")
    assert subject(mail) == SUBJECT[language]
    assert "boris" in body(mail) and "arbiter" in body(mail)
    link = link_in(mail, settings.SITE_URL)
    invitee = Client()
    page = invitee.get(link)
    assert page.status_code == 200 and page.headers["Content-Language"] == language  # the e-mail's language
    joined = invitee.post(link, {**ACCOUNT, "language": language}, follow=True)
    game = Game.objects.get(tournament=server, black=boris)
    assert joined.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert JOINED[language] in joined.content.decode()
    user = User.objects.get(username="newcomer")
    assert (game.white, user.email, user.language) == (user, "new@example.net", language)
    # Single-use: a second acceptance makes nothing.
    again = Client().post(link, {**ACCOUNT, "username": "second", "language": "en"})
    assert again.status_code == 400 and b'id="link-refused"' in again.content
    assert not User.objects.filter(username="second").exists()


@pytest.mark.parametrize("language, words", [("en", "A user with that username already exists."),
                                             ("ru", "Пользователь с таким именем уже существует."),
                                             ("fr", "Un utilisateur avec ce nom existe déjà.")])
def test_a_taken_username_is_refused_beside_its_field_and_the_invitation_kept(
        arbiter, boris, server, smtp, settings, language, words):
    invite(arbiter, server, language)
    link = link_in(smtp.wait()[0], settings.SITE_URL)
    refused = Client().post(link, {**ACCOUNT, "username": "Boris", "language": language})
    assert refused.status_code == 200 and words in refused.content.decode()
    assert not Game.objects.filter(tournament=server).exists()
    assert Invitation.objects.get().accepted_at is None


def test_a_lookalike_username_is_refused(arbiter, boris, server, smtp, settings):
    invite(arbiter, server)
    refused = Client().post(link_in(smtp.wait()[0], settings.SITE_URL),
                            {**ACCOUNT, "username": "bоris", "language": "en"})  # a Cyrillic о
    assert "looks like the existing boris" in refused.content.decode()


def test_an_expired_invitation_is_refused(arbiter, boris, server, smtp, settings, time_machine):
    invite(arbiter, server)
    link = link_in(smtp.wait()[0], settings.SITE_URL)
    time_machine.move_to(dt.datetime.now(dt.UTC) + dt.timedelta(days=settings.INVITATION_DAYS, minutes=1))
    assert Client().get(link).status_code == 400
    assert Client().post(link, {**ACCOUNT, "language": "en"}).status_code == 400
    assert not User.objects.filter(username="newcomer").exists()


@pytest.mark.parametrize("language, words", [
    ("en", "Opponent must be the username of an account, got &#x27;nobody&#x27;"),
    ("ru", "Opponent должен быть именем пользователя, получено &#x27;nobody&#x27;"),
    ("fr", "Opponent doit être le nom d&#x27;utilisateur d&#x27;un compte, reçu &#x27;nobody&#x27;")])
def test_an_unknown_opponent_is_refused_on_the_tournament_page_and_nothing_sent(
        arbiter, server, smtp, language, words):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(arbiter)
    refused = client.post(f"/tournaments/{server.pk}/invitations/",
                          {"email": "new@example.net", "opponent": "nobody", "colour": "white", "language": "en"})
    assert refused.status_code == 400 and words in refused.content.decode()
    assert not Invitation.objects.exists() and smtp.messages == []


def test_only_the_tournaments_arbiters_invite(anna, server, smtp):
    client = Client()
    client.force_login(anna)
    r = client.post(f"/tournaments/{server.pk}/invitations/",
                    {"email": "x@example.net", "opponent": "anna", "colour": "white", "language": "en"})
    assert r.status_code == 403 and not Invitation.objects.exists()


def test_the_api_invites_and_lists_without_the_secret(arbiter, boris, server, smtp, settings):
    api = client_for(arbiter)
    r = api.post(f"/api/tournaments/{server.pk}/invitations/",
                 {"email": "api@example.net", "opponent": "boris", "colour": "black", "language": "fr"}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["email"] == "api@example.net" and r.json()["accepted_at"] is None
    mail = smtp.last_to("api@example.net")
    assert subject(mail) == SUBJECT["fr"]
    secret = link_in(mail, settings.SITE_URL).split("/")[2]
    listed = api.get(f"/api/tournaments/{server.pk}/invitations/")
    assert listed.status_code == 200 and len(listed.json()) == 1 and secret not in listed.content.decode()
    Client().post(link_in(mail, settings.SITE_URL), {**ACCOUNT, "language": "fr"})
    after = api.get(f"/api/tournaments/{server.pk}/invitations/").json()[0]
    assert after["user"] == "newcomer" and Game.objects.get(pk=after["game"]).black.username == "newcomer"


@pytest.mark.parametrize("data, field", [
    ({"email": "not-an-address", "opponent": "boris", "colour": "white"}, "email"),
    ({"email": "a@example.net", "opponent": "boris", "colour": "green"}, "colour"),
    ({"email": "a@example.net", "opponent": "boris", "colour": "white", "language": "de"}, "language"),
    ({"email": "a@example.net", "opponent": "boris", "colour": "white", "seat": 1}, "seat"),
])
def test_the_api_refuses_bad_input_naming_the_field_and_stores_nothing(arbiter, boris, server, smtp, data, field):
    r = client_for(arbiter).post(f"/api/tournaments/{server.pk}/invitations/", data, format="json",
                                 HTTP_ACCEPT_LANGUAGE="ru")
    assert r.status_code == 400 and field in r.content.decode(), r.content
    assert not Invitation.objects.exists() and smtp.messages == []


def test_a_mail_server_that_refuses_leaves_no_invitation(arbiter, boris, server, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 9  # nothing listens on the discard port
    r = client_for(arbiter).post(f"/api/tournaments/{server.pk}/invitations/",
                                 {"email": "a@example.net", "opponent": "boris", "colour": "white"}, format="json")
    assert r.status_code == 503 and not Invitation.objects.exists()

