"""A forgotten password, reset through the e-mail's link (issue 38), in en, ru and fr, over a real SMTP server.

The e-mail is read as delivered (tests.support.smtp), its link followed with the test client.
"""

from __future__ import annotations

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import authenticate
from django.test import Client, RequestFactory

from tests.support.smtp import body, link_in, subject

SUBJECT = {"en": "corr: choose a new password", "ru": "corr: выберите новый пароль",
           "fr": "corr : choisissez un nouveau mot de passe"}
NEW = "Fresh-pass-2026"


def ask(client: Client, email: str):
    return client.post("/password-reset/", {"email": email}, follow=True)


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_a_forgotten_password_is_reset_through_the_emails_link_in_the_accounts_language(
        anna, smtp, settings, language):
    anna.language = language
    anna.save(update_fields=["language"])
    answer = ask(Client(), "anna@example.org")
    assert answer.status_code == 200 and answer.redirect_chain[-1][0] == "/password-reset/sent/"
    mail = smtp.last_to("anna@example.org")
    assert subject(mail) == SUBJECT[language]
    assert "anna" in body(mail)
    link = link_in(mail, settings.SITE_URL)
    assert link.startswith("/password-reset/")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get(link, follow=True)  # Django swaps the token for a session mark, then shows the form
    assert page.status_code == 200 and b'id="password-set-form"' in page.content
    done = client.post(page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert done.redirect_chain[-1][0] == "/password-reset/done/"
    assert authenticate(RequestFactory().post("/"), username="anna", password=NEW) is not None
    # Single-use: the link dies with the password it replaced.
    again = Client().get(link, follow=True)
    assert b'id="link-refused"' in again.content and b'id="password-set-form"' not in again.content


@pytest.mark.parametrize("language, words", [("en", "This password is too short"),
                                             ("ru", "Введённый пароль слишком короткий"),
                                             ("fr", "Ce mot de passe est trop court")])
def test_a_weak_new_password_is_refused_in_the_readers_language_and_the_old_one_kept(
        anna, smtp, settings, language, words):
    ask(Client(), "anna@example.org")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get(link_in(smtp.wait()[0], settings.SITE_URL), follow=True)
    refused = client.post(page.redirect_chain[-1][0], {"new_password1": "a1", "new_password2": "a1"})
    assert refused.status_code == 200
    assert words in refused.content.decode()
    anna.refresh_from_db()
    assert anna.check_password("anna-pass-1")


def test_an_unknown_address_gets_the_same_answer_and_no_email(anna, smtp):
    known, unknown = ask(Client(), "anna@example.org"), ask(Client(), "nobody@example.org")
    assert known.redirect_chain == unknown.redirect_chain
    # No user enumeration: the same words (the pages differ only by their nonce and CSRF token).
    said = [re.search(rb'<p id="reset-sent">(.*?)</p>', r.content, re.S)[1] for r in (known, unknown)]
    assert said[0] == said[1] and b"If an account has this address" in said[0]
    smtp.wait(1)
    assert [m["To"] for m in smtp.messages] == ["anna@example.org"]


def test_the_link_is_built_on_site_url_whatever_host_the_request_named(anna, smtp, settings):
    settings.ALLOWED_HOSTS = ["*"]
    Client(HTTP_HOST="evil.example").post("/password-reset/", {"email": "anna@example.org"})
    assert re.search(r"^" + re.escape(settings.SITE_URL) + "/password-reset/", body(smtp.wait()[0]), re.M)
    assert "evil.example" not in body(smtp.messages[0])


def test_an_expired_link_is_refused(anna, smtp, settings, time_machine):
    ask(Client(), "anna@example.org")
    link = link_in(smtp.wait()[0], settings.SITE_URL)
    time_machine.move_to(__import__("datetime").datetime.now() + __import__("datetime").timedelta(
        seconds=settings.PASSWORD_RESET_TIMEOUT + 60))
    page = Client().get(link, follow=True)
    assert b'id="link-refused"' in page.content


def test_a_reset_ends_a_sign_in_lockout_of_that_username(anna, smtp, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/login/", {"username": "anna", "password": "wrong-guess"})
    assert client.post("/login/", {"username": "anna", "password": "anna-pass-1"}).status_code == 429
    ask(client, "anna@example.org")
    page = client.get(link_in(smtp.wait()[0], settings.SITE_URL), follow=True)
    client.post(page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert not AccessAttempt.objects.filter(username="anna").exists()
    signed_in = client.post("/login/", {"username": "anna", "password": NEW})
    assert signed_in.status_code == 302


def test_the_login_page_links_to_the_reset(db, client):
    assert b'href="/password-reset/"' in client.get("/login/").content
