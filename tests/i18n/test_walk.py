"""Every page, e-mail, feed and file a player or an arbiter receives, walked in Russian and French (issue 39):
no English left (``english_left`` for ru; for fr, which shares the Latin letters, a list of English words French
never uses), no catalogue message left untranslated, and no code of the product's own (an IANA zone, an ISO date
inside a sentence, a ``snake_case`` value) where a reader reads words.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest
import time_machine

from corr.games import services
from corr.games.services.leave import leave_book
from corr.models import OutboundEmail
from tests.conftest import TODAY
from tests.i18n.test_languages import english_left, scenario, sign_in, untranslated_messages, visible_text
from tests.live_page.conftest import live_game, live_tournament, server_clock
from tests.nightly.conftest import at, day

pytestmark = pytest.mark.django_db
__all__ = ["live_game", "live_tournament", "scenario", "server_clock"]  # fixtures used here

TRANSLATED = ("ru", "fr")

ZONE = re.compile(r"\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Pacific)/[A-Z][A-Za-z_]+")
ISO_DATE = re.compile(r"\b\d{4}-\d\d-\d\d\b")
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
ENGLISH_IN_FRENCH = re.compile(r"\b(?:the|and|your|you|with|which|has|have|been|left|days|day|move|moves|game|"
                               r"games|draw|resigned|offers|deadline|send|before|clock|leave|time|period|periods)\b")
"""English words French never writes: what an English phrase left on a French page is caught by."""
URL = re.compile(r"https?://\S+")
FILE = re.compile(r"\S+\.(?:pgn|pdn|sgf|csv|ics|json)\b")
"""A file's name (``game-12.pgn``): the same in every language."""


def codes_left(texts: list[str]) -> list[str]:
    """IANA zones, ISO dates and ``snake_case`` codes in what a reader reads."""
    text = "\n".join(texts)
    return ZONE.findall(text) + ISO_DATE.findall(text) + SNAKE.findall(text)


def words_left(texts: list[str], language: str, *, names: tuple[str, ...] = ()) -> list[str]:
    """English left in ``texts`` (``language``'s check), and codes; ``names``: the fixtures' own words."""
    kept = []
    for text in texts:
        text = FILE.sub("", URL.sub("", text))
        for name in names:
            text = text.replace(name, "")
        kept.append(text)
    found = codes_left(kept)
    if language == "ru":
        found += english_left(kept)
    else:
        found += [t for t in kept if ENGLISH_IN_FRENCH.search(t)]
    return found


def page_problems(client, path: str, language: str, names: tuple[str, ...] = ()) -> list:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    texts = visible_text(response.content.decode(), language)
    return [(path, problem) for problem in [*untranslated_messages(texts, language),
                                            *words_left(texts, language, names=names)]]


NAMES = ("Postal cup", "Server league", "Live cup", "Live blitz", "Scid, ChessBase, Arena", "ICCF, SchemingMind")


# --- a postal game with a penalty, a case and a report; the player's pages ---------------------------------------

@pytest.mark.parametrize("language", TRANSLATED)
def test_the_postal_pages_of_a_player_and_an_arbiter_say_everything_in_words(scenario, arbiter, anna, boris,
                                                                            language):
    with time_machine.travel(at(day(50)), tick=False):
        leave_book(by=boris, first=day(60), last=day(65), now=at(day(50)))
        problems = []
        client = sign_in(anna, "anna-pass-1", language)
        for path in ("/games/", f"/games/{scenario.pk}/", f"/tournaments/{scenario.tournament_id}/", "/leave/",
                     "/account/", "/account/notifications/"):
            problems += page_problems(client, path, language, NAMES)
        client = sign_in(boris, "boris-pass-1", language)  # on move, with the move form prefilled; on leave
        problems += page_problems(client, f"/games/{scenario.pk}/", language, NAMES)
        problems += page_problems(client, "/leave/", language, NAMES)
        client = sign_in(arbiter, "arbiter-pass-1", language)
        for path in (f"/games/{scenario.pk}/", f"/tournaments/{scenario.tournament_id}/",
                     f"/tournaments/{scenario.tournament_id}/reports/{day(50).isoformat()}/"):
            problems += page_problems(client, path, language, NAMES)
    assert problems == [], problems


# --- server games: drawn, resigned, reopened, and one on move counted in instants -------------------------------

@pytest.fixture
def server_games(api, arbiter, anna, boris, frozen):
    tournament = services.tournament_create(by=arbiter, name="Server league", official_start=date(2026, 2, 20),
                                            mode="server", preset="iccf_10_50", time_zone="Europe/Moscow")
    made = {}
    for state in ("ongoing", "drawn", "resigned", "reopened"):
        game = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
        assert api(anna).post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"},
                              format="json").status_code == 201
        if state == "drawn":
            assert api(anna).post(f"/api/games/{game.pk}/draw-offer/").status_code in (200, 201)
            assert api(boris).post(f"/api/games/{game.pk}/draw-offer/accept/").status_code in (200, 201)
        elif state in ("resigned", "reopened"):
            services.game_resign(game=game, by=boris, today=TODAY)
            if state == "reopened":
                game.refresh_from_db()
                services.game_reopen(game=game, by=arbiter, note="ошибка", today=TODAY)
        made[state] = game
    return made


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_server_games_pages_in_every_state_say_everything_in_words(server_games, arbiter, anna, boris,
                                                                       language):
    problems = []
    for user, password in ((anna, "anna-pass-1"), (boris, "boris-pass-1"), (arbiter, "arbiter-pass-1")):
        client = sign_in(user, password, language)
        for game in server_games.values():
            problems += page_problems(client, f"/games/{game.pk}/", language, NAMES)
        problems += page_problems(client, f"/tournaments/{server_games['drawn'].tournament_id}/", language, NAMES)
    problems += page_problems(sign_in(boris, "boris-pass-1", language), "/games/", language, NAMES)
    assert problems == [], problems


@pytest.mark.parametrize("language, zone", [("ru", "Москва"), ("fr", "Moscou")])
def test_a_deadline_at_an_instant_names_the_zone_as_the_reader_knows_it(server_games, boris, language, zone):
    page = "\n".join(visible_text(sign_in(boris, "boris-pass-1", language).get(
        f"/games/{server_games['ongoing'].pk}/").content.decode(), language))
    assert f", {zone}" in page and "Europe/Moscow" not in page


# --- the live page of a chess game ------------------------------------------------------------------------------

@pytest.mark.parametrize("language", TRANSLATED)
def test_the_live_page_of_a_chess_game_says_everything_in_words(live_game, anna, arbiter, language):
    problems = page_problems(sign_in(anna, "anna-pass-1", language), f"/games/{live_game.pk}/", language, NAMES)
    problems += page_problems(sign_in(arbiter, "arbiter-pass-1", language), f"/games/{live_game.pk}/", language,
                              NAMES)
    assert problems == [], problems


# --- what is sent: the calendar, the e-mails, the ledger's CSV --------------------------------------------------

@pytest.mark.parametrize("language", TRANSLATED)
def test_the_calendar_the_emails_and_the_csv_say_everything_in_words(api, server_games, arbiter, anna, boris,
                                                                     settings, client, language,
                                                                     django_capture_on_commit_callbacks):
    from icalendar import Calendar
    from urllib.parse import urlsplit

    settings.NOTIFY_INPROCESS = "inline"
    settings.NOTIFY_QUIET_SECONDS = 0
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    for user in (anna, boris):
        user.language = language
        user.save(update_fields=["language"])
    problems = []
    path = urlsplit(api(boris).get("/api/users/me/").json()["calendar_url"]).path
    for event in Calendar.from_ical(client.get(path).content).walk("VEVENT"):
        text = [str(event["SUMMARY"]), str(event["DESCRIPTION"])]
        problems += [("ics", p) for p in words_left(text, language, names=NAMES)]
    game = server_games["ongoing"]
    with django_capture_on_commit_callbacks(execute=True):  # a your-move notice to anna, then the game's end
        assert api(boris).post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e5"},
                               format="json").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        assert api(boris).post(f"/api/games/{game.pk}/resign/").status_code in (200, 201)
    emails = list(OutboundEmail.objects.filter(key__startswith="notice:"))
    assert len(emails) >= 2
    for email in emails:
        body = email.body.split("\n-- \n")[0]  # the footer's links
        text = [email.subject, *[line for line in body.splitlines() if "://" not in line]]
        problems += [("e-mail", p) for p in words_left(text, language, names=NAMES)]
    rows = csv.DictReader(io.StringIO(sign_in(anna, "anna-pass-1", language).get(
        f"/games/{game.pk}/export/csv/").content.decode()))
    cells = [row[k] for row in rows for k in ("player", "kind", "rule", "note")]
    problems += [("csv", p) for p in words_left(cells, language)]
    assert problems == [], problems
