"""A player looks after their own account in chromium (issue 38), at 1280 and 390 px, in en, ru and fr.

The e-mails come through a real SMTP server on loopback (tests.support.smtp), and their links are opened in
the browser: a forgotten password reset; an invited player joining and seeing their game; the time zone
changed on the settings page and the game page's deadline following it; an e-mail address that changes only
once the new one confirms. Every page fits the screen (``Page.layout_problems``: no sideways scroll).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings as django_settings
from django.utils import translation

from accounts.models import User
from corr.models import Game, GameEvent
from corr.web.describe import deadline_text
from tests.support.smtp import link_in

from ..accounts.test_account_settings import instant_game  # noqa: F401 - the fixture, one game for both

pytestmark = pytest.mark.django_db(transaction=True)

CASES = [(width, language) for width in ("desktop", "phone") for language in ("en", "ru", "fr")]
WORDS = {
    "mailbox": {"en": "Look in your mailbox", "ru": "Проверьте почту", "fr": "Regardez dans votre boîte aux lettres"},
    "changed": {"en": "Your password is changed", "ru": "Пароль изменён", "fr": "Votre mot de passe est changé"},
    "welcome": {"en": "Welcome, newcomer: here is your game.", "ru": "Добро пожаловать, newcomer: вот ваша партия.",
                "fr": "Bienvenue, newcomer : voici votre partie."},
    "saved": {"en": "Your settings are saved.", "ru": "Настройки сохранены.", "fr": "Vos réglages sont enregistrés."},
    "now": {"en": "Your e-mail address is now anna.new@example.net.", "ru": "Ваш адрес теперь anna.new@example.net.",
            "fr": "Votre adresse e-mail est maintenant anna.new@example.net."},
}


def in_language(page, language: str):
    """The language cookie the header's switcher writes, as a returning visitor has it."""
    page.driver.add_cookie({"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    return page


def fits(page) -> None:
    assert page.layout_problems() == [], page.driver.current_url


def go(page, base: str, link: str) -> None:
    page.open(link.removeprefix(base))


@pytest.mark.parametrize("width, language", CASES)
def test_a_forgotten_password_is_reset_through_the_emails_link(page, anna, smtp, settings, width, language):
    anna.language = language
    anna.save(update_fields=["language"])
    settings.SITE_URL = page.base_url
    page.width(width).open("/login/")
    page.driver.delete_all_cookies()
    in_language(page, language).open("/login/")
    fits(page)
    page.click("#forgot-password")
    fits(page)
    page.fill("#id_email", "anna@example.org")
    page.click("#password-reset-form button")
    assert WORDS["mailbox"][language] in page.text()
    go(page, page.base_url, link_in(smtp.last_to("anna@example.org")))
    fits(page)
    page.fill("#id_new_password1", "Fresh-pass-2026")
    page.fill("#id_new_password2", "Fresh-pass-2026")
    page.click("#password-set-form button")
    assert WORDS["changed"][language] in page.text()
    page.open("/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "Fresh-pass-2026")
    page.click("main form button")
    assert page.driver.current_url.endswith("/games/")


@pytest.mark.parametrize("width, language", CASES)
def test_an_invited_player_joins_from_the_invitation_email_and_sees_their_game(
        page, arbiter, boris, server, smtp, settings, width, language):
    settings.SITE_URL = page.base_url
    page.width(width).sign_in(arbiter).open(f"/tournaments/{server.pk}/")
    fits(page)
    page.fill("#invitation-form #id_email", "new@example.net")
    page.fill("#invitation-form #id_opponent", "boris")
    page.fill("#invitation-form #id_colour", "white")
    page.fill("#invitation-form #id_language", language)
    page.click("#invitation-form button")
    link = link_in(smtp.last_to("new@example.net"))
    page.driver.delete_all_cookies()  # the invitee's own browser
    go(page, page.base_url, link)
    assert page.find("html").get_attribute("lang") == language  # the e-mail's language
    fits(page)
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", "Newcomer-pass-2026")
    page.fill("#id_password2", "Newcomer-pass-2026")
    page.click("#invitation-form button")
    game = Game.objects.get(tournament=server, white__username="newcomer", black=boris)
    assert page.driver.current_url.endswith(f"/games/{game.pk}/")
    text = page.text()
    assert WORDS["welcome"][language] in text and "boris" in text
    fits(page)


@pytest.mark.parametrize("width, language", CASES)
def test_the_settings_page_changes_the_time_zone_and_the_game_pages_deadline_follows(
        page, instant_game, boris, width, language):  # noqa: F811 - the imported fixture
    flag = GameEvent.objects.get(game=instant_game, kind="move").sent_at + dt.timedelta(days=1)
    with translation.override(language):
        moscow, tokyo = deadline_text(at=flag, zone="Europe/Moscow"), deadline_text(at=flag, zone="Asia/Tokyo")
    page.width(width).sign_in(boris)
    in_language(page, language).open(f"/games/{instant_game.pk}/")
    assert page.find("time[data-countdown] .deadline-text").text == moscow
    page.open("/account/")
    fits(page)
    page.fill("#id_language", language)
    page.fill("#id_time_zone", "Asia/Tokyo")
    page.click("#settings-form button")
    assert WORDS["saved"][language] in page.text()
    fits(page)
    page.open(f"/games/{instant_game.pk}/")
    assert page.find("time[data-countdown] .deadline-text").text == tokyo
    fits(page)


@pytest.mark.parametrize("width, language", CASES)
def test_an_email_change_takes_effect_only_after_confirmation(page, anna, smtp, settings, width, language):
    settings.SITE_URL = page.base_url
    anna.language = language
    anna.save(update_fields=["language"])
    page.width(width).sign_in(anna)
    in_language(page, language).open("/account/")
    page.fill("#id_email", "anna.new@example.net")
    page.fill("#id_password", "anna-pass-1")
    page.click("#email-form button")
    assert "anna.new@example.net" in page.text()
    fits(page)
    assert User.objects.get(pk=anna.pk).email == "anna@example.org"  # not before the link is followed
    go(page, page.base_url, link_in(smtp.last_to("anna.new@example.net")))
    fits(page)
    assert User.objects.get(pk=anna.pk).email == "anna@example.org"  # opening it changes nothing yet
    page.click("#email-confirm-form button")
    assert WORDS["now"][language] in page.text()
    assert User.objects.get(pk=anna.pk).email == "anna.new@example.net"
    assert smtp.last_to("anna@example.org")  # the old address was told
    fits(page)
