"""Open sign-up (issue 38), off unless the operator sets SIGNUP_OPEN: the account opens by the e-mailed link."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.support.smtp import link_in, subject

SUBJECT = {"en": "corr: open your account",
           "ru": "corr: откройте свою учётную запись", "fr": "corr : ouvrez votre compte"}
FORM = {"username": "walker", "email": "walker@example.net", "password1": "Walker-pass-2026",
        "password2": "Walker-pass-2026"}


def test_sign_up_is_closed_by_default(db, client, smtp):
    assert client.get("/signup/").status_code == 404
    assert client.post("/signup/", {**FORM, "language": "en"}).status_code == 404
    assert b'href="/signup/"' not in client.get("/login/").content
    assert not User.objects.exists() and smtp.messages == []


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_an_open_sign_up_makes_a_closed_account_that_its_emails_link_opens(db, smtp, settings, language):
    settings.SIGNUP_OPEN = True
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert b'href="/signup/"' in client.get("/login/").content
    sent = client.post("/signup/", {**FORM, "language": language})
    assert sent.status_code == 200 and b'id="sign-up-sent"' in sent.content
    user = User.objects.get(username="walker")
    assert not user.is_active and user.email == "walker@example.net"
    assert client.post("/login/", {"username": "walker", "password": FORM["password1"]}).status_code == 200
    mail = smtp.last_to("walker@example.net")
    assert subject(mail) == SUBJECT[language]
    link = link_in(mail, settings.SITE_URL)
    assert client.get(link).status_code == 200 and not User.objects.get(pk=user.pk).is_active  # GET: only a button
    opened = client.post(link, follow=True)
    assert opened.redirect_chain[-1][0] == "/games/" and User.objects.get(pk=user.pk).is_active
    assert Client().post(link).status_code == 400  # single-use


@pytest.mark.parametrize("language, words", [("en", "The two password fields didn’t match."),
                                             ("ru", "Введенные пароли не совпадают."),
                                             ("fr", "Les deux mots de passe ne correspondent pas.")])
def test_a_refused_sign_up_says_why_in_the_readers_language_and_stores_nothing(db, smtp, settings, language, words):
    settings.SIGNUP_OPEN = True
    r = Client(HTTP_ACCEPT_LANGUAGE=language).post("/signup/", {**FORM, "password2": "other", "language": language})
    assert r.status_code == 200 and words in r.content.decode()
    assert not User.objects.exists() and smtp.messages == []
