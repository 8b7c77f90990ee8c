"""Russian, French and English throughout: the catalogues are complete and current, every page renders in
each language with nothing left in English, plural forms, API errors and e-mails in the reader's language.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from datetime import date, timedelta
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
import time_machine
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import translation
from django.utils.translation import ngettext

from corr.catalogues import catalogue_paths, catalogue_problems
from corr.games import services
from corr.models import OutboundEmail
from corr.nightly.job import nightly_job
from tests.conftest import TODAY
from tests.nightly.conftest import START, at, day

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ("en", "ru", "fr")
TRANSLATED = ("ru", "fr")


# --- the catalogues ---------------------------------------------------------------------------------

def test_english_stays_the_default_and_the_three_languages_are_offered():
    assert settings.LANGUAGE_CODE == "en"
    assert [code for code, _ in settings.LANGUAGES] == ["en", "ru", "fr"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_has_a_translation_for_every_message_and_nothing_fuzzy(language):
    path = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    assert path in catalogue_paths(ROOT / "locale")
    assert catalogue_problems(path) == []
    assert len(polib.pofile(str(path))) > 300


def _msgids(locale_dir: Path, language: str) -> set[str]:
    return {e.msgid for e in polib.pofile(str(locale_dir / language / "LC_MESSAGES" / "django.po")) if not e.obsolete}


def test_makemessages_finds_no_message_missing_from_the_catalogues(tmp_path):
    """Extract again (Django's makemessages, GNU xgettext) from a copy of the code: the same messages."""
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext (xgettext) is not installed: `make messages` installs it")
    copy = tmp_path / "corr"
    for name in ("corr", "accounts", "templates", "locale"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "ru", "-l", "fr", "--no-obsolete"],
                   cwd=copy, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", "DEBUG": "1"})
    for language in TRANSLATED:
        extracted, committed = _msgids(copy / "locale", language), _msgids(ROOT / "locale", language)
        assert extracted - committed == set(), f"new messages to translate in {language}: run make messages"
        assert committed - extracted == set(), f"messages no longer used in {language}: run make messages"


# --- plural forms -----------------------------------------------------------------------------------

@pytest.mark.parametrize("language, expected", [
    ("ru", ["1 день", "2 дня", "5 дней", "21 день", "11 дней", "22 дня"]),
    ("fr", ["1 jour", "2 jours", "5 jours", "21 jours", "11 jours", "22 jours"]),
    ("en", ["1 day", "2 days", "5 days", "21 days", "11 days", "22 days"]),
])
def test_days_take_the_plural_form_of_the_language(language, expected):
    template = Template("{% load i18n %}{% blocktranslate count days=n %}{{ days }} day{% plural %}"
                        "{{ days }} days{% endblocktranslate %}")
    with translation.override(language):
        said = [ngettext("%(days)s day", "%(days)s days", n) % {"days": n} for n in (1, 2, 5, 21, 11, 22)]
        rendered = [template.render(Context({"n": n})) for n in (1, 2, 5, 21, 11, 22)]
    assert said == expected
    assert rendered == expected


# --- pages ------------------------------------------------------------------------------------------

class _Text(HTMLParser):
    """The text a reader sees (and the SVGs' titles), without code, styles and parts marked in another
    language (``lang="en"``: the calculator's original notes, the language names of the switcher)."""

    SKIP = {"style", "script", "code"}

    def __init__(self, language: str):
        super().__init__()
        self.language, self.stack, self.parts = language, [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skip = tag in self.SKIP or (attrs.get("lang") not in (None, self.language) and tag != "html")
        if tag not in ("br", "input", "meta", "link", "img", "hr", "rect", "line", "circle", "polyline"):
            self.stack.append(skip)
        for name in ("aria-label", "placeholder", "data-label"):
            if attrs.get(name) and not any(self.stack):
                self.parts.append(attrs[name])

    def handle_endtag(self, tag):
        if tag not in ("br", "input", "meta", "link", "img", "hr", "rect", "line", "circle", "polyline") and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if data.strip() and not any(self.stack):
            self.parts.append(data.strip())


def visible_text(html: str, language: str) -> list[str]:
    parser = _Text(language)
    parser.feed(html)
    return parser.parts


# Words that are the same in every language: names from the fixtures, notation, the product's name.
NAMES = {"anna", "boris", "arbiter", "Postal", "cup", "corr", "API", "CSV", "UTC"}
ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z']{2,}(?:[ ,:;()-]+[A-Za-z][A-Za-z']{2,})+")


def english_left(texts: list[str]) -> list[str]:
    """Runs of two or more Latin words that are not names: English left on a Russian page."""
    found = []
    for text in texts:
        for run in ENGLISH_RUN.findall(text):
            words = re.findall(r"[A-Za-z][A-Za-z'/]+", run)
            if len([w for w in words if w not in NAMES and len(w) > 2]) >= 2:
                found.append(run)
    return found


def untranslated_messages(texts: list[str], language: str) -> list[str]:
    """Catalogue messages whose English shows on the page although their translation differs."""
    text = "\n".join(texts)
    found = []
    for entry in polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po")):
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for original in filter(None, (entry.msgid, entry.msgid_plural)):
            if original in translations:
                continue
            for fragment in re.split(r"%\(\w+\)[sdr]|<[^>]+>", original):
                fragment = fragment.strip(" .,:;()")
                if len(fragment) >= 12 and " " in fragment and fragment in text:
                    found.append(fragment)
    return found


def sign_in(user, password: str, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.post("/login/", {"username": user.username, "password": password}).status_code == 302
    return client


@pytest.fixture
def scenario(postal, arbiter, anna, boris):
    """A postal game with a move, a penalty and a nightly run (a report, a case, flags): every part shown."""
    with time_machine.travel(at(START), tick=False):
        game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=START)
    with time_machine.travel(at(day(2)), tick=False):
        services.move_submit(game=game, by=anna, today=day(2), number=1, notation="e4", sent_on=day(2))
    with time_machine.travel(at(day(20)), tick=False):
        services.penalty_assess(game=game, by=arbiter, today=day(20), player="white",
                                reason="address_error", note="адрес")
    with time_machine.travel(at(day(50)), tick=False):
        nightly_job(on=day(50))
    return game


def pages(game, arbiter, anna):
    on = day(50).isoformat()
    return [
        (None, "", "/login/"),
        (anna, "anna-pass-1", "/games/"),
        (anna, "anna-pass-1", f"/games/{game.pk}/"),
        (anna, "anna-pass-1", f"/tournaments/{game.tournament_id}/"),
        (anna, "anna-pass-1", "/games/999999/"),
        (anna, "anna-pass-1", "/leave/"),
        (arbiter, "arbiter-pass-1", f"/games/{game.pk}/"),
        (arbiter, "arbiter-pass-1", f"/tournaments/{game.tournament_id}/"),
        (arbiter, "arbiter-pass-1", f"/tournaments/{game.tournament_id}/reports/{on}/"),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_renders_in_the_language_with_nothing_left_untranslated(scenario, arbiter, anna, eve,
                                                                           language):
    checked = 0
    with time_machine.travel(at(day(50)), tick=False):
        for user, password, path in [*pages(scenario, arbiter, anna), (eve, "eve-pass-1", f"/games/{scenario.pk}/")]:
            client = sign_in(user, password, language) if user else Client(HTTP_ACCEPT_LANGUAGE=language)
            response = client.get(path)
            assert response.status_code in (200, 403, 404), path
            html = response.content.decode()
            assert f'<html lang="{language}">' in html, path
            texts = visible_text(html, language)
            if language != "en":
                assert untranslated_messages(texts, language) == [], path
            if language == "ru":
                assert english_left(texts) == [], (path, english_left(texts))
            checked += 1
        # The confirmation page of a long delay.
        client = sign_in(arbiter, "arbiter-pass-1", language)
        html = client.post(f"/games/{scenario.pk}/delay/", {"player": "white", "days": 40}).content.decode()
        texts = visible_text(html, language)
        if language != "en":
            assert untranslated_messages(texts, language) == []
        if language == "ru":
            assert english_left(texts) == []
    assert checked == 10


@pytest.mark.django_db
def test_the_game_page_in_russian_and_french_says_dates_and_days_their_way(scenario, anna):
    with time_machine.travel(at(day(50)), tick=False):
        ru = sign_in(anna, "anna-pass-1", "ru").get(f"/games/{scenario.pk}/").content.decode()
        fr = sign_in(anna, "anna-pass-1", "fr").get(f"/games/{scenario.pk}/").content.decode()
        en = sign_in(anna, "anna-pass-1", "en").get(f"/games/{scenario.pk}/").content.decode()
    # Black's presumed receipt of move 1: sent 01-12 + 4 transit days = 01-16.
    assert "16.01.2026" in ru and "16/01/2026" in fr and "2026-01-16" in en
    assert "Часы" in ru and "Pendule" in fr
    # The calculator's ledger notes and rules in the page's language, the rule by its rulebook (issue 25):
    # no English note beside, no raw reason value.
    assert '<span lang="en"' not in ru and "Правила игры по переписке 50.4.4" in ru
    assert "Règles du jeu par correspondance 50.4.4" in fr and "Correspondence rules 50.4.4" in en


@pytest.mark.django_db
def test_signing_in_applies_the_accounts_language_and_the_switcher_saves_it(anna, postal_game):
    anna.language = "fr"
    anna.save(update_fields=["language"])
    client = Client()
    response = client.post("/login/", {"username": "anna", "password": "anna-pass-1"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert "Mes parties" in client.get("/games/").content.decode()
    response = client.post("/language/", {"language": "ru", "next": "/games/"})
    assert response.status_code == 302 and response["Location"] == "/games/"
    anna.refresh_from_db()
    assert anna.language == "ru"
    assert "Мои партии" in client.get("/games/").content.decode()


# --- the API ----------------------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("language, detail", [
    ("ru", "сейчас ход стороны «белые», а не «чёрные»"),
    ("fr", "c'est le tour des blancs, pas des noirs"),
    ("en", "it is white's turn, not black's"),
])
def test_an_api_error_speaks_the_accept_language(api, postal_game, boris, language, detail):
    response = api(boris).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-02-01"},
                               format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 409
    assert response.json() == {"detail": detail, "field": "number"}


@pytest.mark.django_db
def test_without_accept_language_an_api_error_speaks_the_users_language(api, postal_game, boris):
    boris.language = "fr"
    boris.save(update_fields=["language"])
    response = api(boris).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-02-01"},
                               format="json")
    assert response.json()["detail"] == "c'est le tour des blancs, pas des noirs"
    # Field names and values stay as they are: only detail is translated.
    game = api(boris).get(f"/api/games/{postal_game.pk}/", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert game["status"] == "ongoing" and game["clock"]["players"]["white"]["deadline"] == "2026-02-09"


# --- e-mails ----------------------------------------------------------------------------------------

@pytest.fixture
def make_game(arbiter, anna, boris, postal, settings):
    """A postal game in which white's move 1 is pending from the start (01-10): the deadline is 02-09."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    def make():
        with time_machine.travel(at(START), tick=False):
            return services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=START)
    return make


@pytest.mark.django_db
@pytest.mark.parametrize("language, subject, body", [
    ("ru", "Цейтнот в партии №{game}: осталось 5 дней — используйте заказную почту",
     "у вас осталось 5 дней в контроле 1; очередь хода, срок 09.02.2026."),
    ("fr", "Zeitnot dans la partie n° {game} : 5 jours restants — utilisez la lettre recommandée",
     "il vous reste 5 jours dans le contrôle 1 ; au trait, échéance 09/02/2026."),
    ("en", "Time trouble in game #{game}: 5 days left — use registered mail",
     "you have 5 days left in control 1; on move, deadline 2026-02-09."),
])
def test_a_time_trouble_notice_is_mailed_in_the_recipients_language(make_game, anna, language, subject, body):
    anna.language = language
    anna.save(update_fields=["language"])
    game = make_game()
    with time_machine.travel(at(day(25)), tick=False):  # 25 of 30 days used: 5 left, time trouble (50.4.12)
        nightly_job(on=day(25))
    email = OutboundEmail.objects.get(key__startswith="time_trouble:")
    assert email.subject == subject.format(game=game.pk)
    assert body in email.body
    # The rule is quoted in its original Russian; another reader gets the translation beside it.
    assert "50.4.12. Участник, находящийся в цейтноте" in email.body
    assert ("(Article 50.4.12" in email.body) == (language != "ru")


@pytest.mark.django_db
def test_a_reminder_takes_the_plural_form_of_the_recipients_language(make_game, anna):
    anna.language = "ru"
    anna.save(update_fields=["language"])
    make_game()
    with time_machine.travel(at(day(28)), tick=False):  # 2 days before the deadline (02-09)
        nightly_job(on=day(28))
    email = OutboundEmail.objects.get(key__startswith="reminder:")
    assert "(2 дня)" in email.subject and "через 2 дня." in email.body


def test_the_days_of_the_tests_are_those_of_the_fixtures():
    assert TODAY == date(2026, 3, 1) and START + timedelta(days=30) == date(2026, 2, 9)


@pytest.mark.django_db
def test_a_refused_move_form_says_why_in_the_pages_language(postal_game, anna, boris):
    services.move_submit(game=postal_game, by=anna, today=TODAY, number=1, notation="e4", sent_on=date(2026, 2, 20))
    services.receipt_record(game=postal_game, by=boris, today=TODAY, received_on=date(2026, 2, 24))
    client = sign_in(boris, "boris-pass-1", "ru")
    response = client.post(f"/games/{postal_game.pk}/move/", {
        "number": 1, "notation": "c5", "received_on": "2026-02-25", "sent_on": "2026-03-01"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Вы записали, что получили ход игрока anna 24.02.2026; здесь указано 25.02.2026." in page


@pytest.mark.django_db
def test_the_calendar_feed_speaks_its_owners_language(api, postal_game, boris, client):
    from icalendar import Calendar
    from urllib.parse import urlsplit

    services.move_submit(game=postal_game, by=postal_game.white, today=TODAY, number=1, notation="e4",
                         sent_on=date(2026, 2, 20))
    boris.language = "ru"
    boris.save(update_fields=["language"])
    path = urlsplit(api(boris).get("/api/users/me/").json()["calendar_url"]).path
    (event,) = [c for c in Calendar.from_ical(client.get(path).content).walk("VEVENT")]
    assert "очередь хода, срок" in str(event["DESCRIPTION"])
    assert re.search(r"; осталось \d+ (день|дня|дней)\.", str(event["DESCRIPTION"])), str(event["DESCRIPTION"])


def test_french_writes_one_numero_sign():
    """A player received "Partie nº 1" and "Partie n° 1" for the same game (the e-mail walk of 2026-12-06): the
    catalogue writes the degree sign, as most of its messages did, never the masculine ordinal."""
    from pathlib import Path

    catalogue = (Path(__file__).parents[2] / "locale" / "fr" / "LC_MESSAGES" / "django.po").read_text()
    assert "n°" in catalogue and "nº" not in catalogue


@pytest.mark.parametrize("language", ["ru", "fr"])
def test_the_catalogue_passes_gettext_s_own_checks(language):
    """``msgfmt -c``: every message has the language's number of plural forms (Russian: 4) and each translation
    uses the placeholders of its original; a Russian message with 3 forms left a fractional count untranslated."""
    import shutil
    import subprocess
    from pathlib import Path

    from tests.conftest import needs_server

    needs_server("GNU gettext's msgfmt (make messages installs it)", shutil.which("msgfmt") is not None)
    catalogue = Path(__file__).parents[2] / "locale" / language / "LC_MESSAGES" / "django.po"
    checked = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(catalogue)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
