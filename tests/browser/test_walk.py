"""A walk through every page of the demo, in each language, on a 390 px phone (issue 25, "Done when").

The demo of ``make run`` is driven through a season first: open cases of both kinds, leave booked and
granted, a correction, a penalty, a delay withdrawn, a nightly report, and a live game with moves, a
pause and a sanction. Then, as each of its users and in English, Russian and French, every page is read
in chromium at 390 px, served by daphne (the live page's WebSocket included). The walk fails on
sideways scroll and anything cut at the screen's edge (``Page.layout_problems``), on a raw stored value
or seed number in the text (``impossible_move``, ``in_byoyomi False``, ``002 6.9``), and on a message
outside the page's language (a catalogue message left in English on a Russian or French page, a run of
English words on a Russian one).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from corr.games import services
from corr.games.clockstate import local_today
from corr.games.demo import demo_create
from corr.games.services.leave import leave_book, special_leave_grant
from corr.live import services as live
from corr.live.stops import live_stop
from corr.models import Game, GameEvent, OverstepCase, Tournament
from corr.nightly.job import nightly_job

from ..i18n.test_languages import untranslated_messages, visible_text
from .conftest import Page

pytestmark = pytest.mark.django_db(transaction=True)

RAW = re.compile(r"\b(impossible_move|illegible_move|address_error|late_repeat|unregistered_mail|wrong_repetition"
                 r"|registered_mail|time_trouble|on_move|over_the_control|in_the_post|sudden_death|per_move"
                 r"|main_days|period_days|in_byoyomi|flag_fallen|remaining_ms|True|False)\b")
"""Stored values and enum members, as the code spells them: a page says them in words."""
SEED_NUMBER = re.compile(r"\b00[0-4] \d+(\.\d+)+")
"""The project's seed numbers ("002 6.9"): a page cites the rulebook by name."""
ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z']{2,}(?:[ ,:;()]+[A-Za-z][A-Za-z']{2,})+")


TYPED = {
    "en": {"correction": "the postcard writes the long form", "penalty": "no return address",
           "withdrawal": "entered on the wrong game", "leave": "in hospital", "pause": "a phone rang",
           "sanction": "sanction against white"},
    "ru": {"correction": "на открытке длинная запись", "penalty": "нет обратного адреса",
           "withdrawal": "внесено не в ту партию", "leave": "в больнице", "pause": "зазвонил телефон",
           "sanction": "санкция против белых"},
    "fr": {"correction": "la carte écrit la forme longue", "penalty": "pas d'adresse de retour",
           "withdrawal": "saisi dans la mauvaise partie", "leave": "à l'hôpital", "pause": "un téléphone a sonné",
           "sanction": "sanction contre les blancs"},
}
"""What the season's arbiter types (notes, reasons), in the language of the walk: a person's words, not corr's."""


def season(now, language: str):
    """The demo, driven through cases, leave, corrections and a live game; its users and its pages."""
    typed = TYPED[language]
    demo = demo_create(now=now)
    arbiter, anna, boris = (User.objects.get(username=n) for n in ("arbiter", "anna", "boris"))
    postal = Game.objects.get(pk=demo.game_ids[0])
    cup = postal.tournament
    today = local_today(cup, now)
    start = cup.official_start
    day = lambda n: start + timedelta(days=n)  # noqa: E731
    # An overstep case (boris has not moved in the cup's 40 days) and a registered-mail case (anna's move 1
    # went by ordinary mail with 3 days left).
    services.game_create(by=arbiter, tournament=cup, white=boris, black=anna, today=today)
    mail = services.game_create(by=arbiter, tournament=cup, white=boris, black=anna, today=today)
    services.move_submit(game=mail, by=boris, number=1, notation="d4", sent_on=day(1), mail="registered", today=today)
    services.move_submit(game=mail, by=anna, number=1, notation="d5", received_on=day(4), sent_on=day(31),
                         mail="ordinary", today=today)
    assert {c.kind for c in OverstepCase.objects.filter(game__tournament=cup, status="open")} == {
        "overstep", "registered_mail"}
    # A correction, a penalty, a delay withdrawn.
    first = GameEvent.objects.get(game=postal, kind="move", player="white", number=1)
    services.event_correct(game=postal, by=arbiter, seq=first.seq, changes={"notation": "e2-e4"},
                           note=typed["correction"], today=today)
    services.penalty_assess(game=postal, by=arbiter, player="black", reason="address_error",
                            note=typed["penalty"], today=today)
    services.delay_assess(game=postal, by=arbiter, player="white", days=2, reason="late_repeat", today=today)
    services.event_withdraw(game=postal, by=arbiter, seq=GameEvent.objects.get(game=postal, kind="delay").seq,
                            note=typed["withdrawal"], today=today)
    # Leave booked by anna, special leave granted to boris in the server league.
    leave_book(by=anna, first=today + timedelta(days=10), last=today + timedelta(days=14), now=now)
    server = Game.objects.get(pk=demo.game_ids[1])
    special_leave_grant(by=arbiter, game=server, player="white", first=today + timedelta(days=3),
                        last=today + timedelta(days=5), reason=typed["leave"], now=now)
    nightly_job(on=today, now=now)
    # A live game: two moves, a pause and a sanction.
    blitz = services.tournament_create(by=arbiter, name="Demo live blitz", official_start=today, mode="live",
                                       ruleset={"time_control": {"unit": "seconds", "system": "fischer",
                                                                 "initial": 300, "increment": 5}})
    now_ms = int(now.timestamp() * 1000)
    game = live.live_game_create(by=arbiter, tournament=blitz, white=anna, black=boris, starts_at_ms=now_ms,
                                 now_ms=now_ms)
    live.live_move(game_id=game.pk, by=anna, number=1, notation="e4")
    live.live_move(game_id=game.pk, by=boris, number=1, notation="c5")
    live.live_pause(game_id=game.pk, by=arbiter, reason=typed["pause"])
    live.live_resume(game_id=game.pk, by=arbiter)
    live.live_adjust(game_id=game.pk, by=arbiter, player="black", seconds=60, reason=typed["sanction"])
    # A live game that a player's stop ended (its termination read on the pages), and a Go server game under
    # Japanese byo-yomi with two moves made (its system's state read on the pages).
    stopped = live.live_game_create(by=arbiter, tournament=blitz, white=boris, black=anna, starts_at_ms=now_ms,
                                    now_ms=now_ms)
    live.live_move(game_id=stopped.pk, by=boris, number=1, notation="d4")
    live_stop(game_id=stopped.pk, by=anna)
    go = services.tournament_create(by=arbiter, name="Demo Go league", official_start=start, mode="server",
                                    kind="go", preset="dgs_byoyomi")
    go_game = services.game_create(by=arbiter, tournament=go, white=anna, black=boris, today=today)
    services.move_submit(game=go_game, by=boris, number=1, notation="D4", today=today)
    services.move_submit(game=go_game, by=anna, number=1, notation="Q16", today=today)
    games = list(Game.objects.order_by("pk"))
    tournaments = list(Tournament.objects.order_by("pk"))
    paths = {
        anna: ["/games/", "/leave/", "/account/",
               *(f"/games/{g.pk}/" for g in games if anna.pk in (g.white_id, g.black_id)),
               *(f"/tournaments/{t.pk}/" for t in tournaments), "/games/999999/"],
        boris: ["/games/", "/leave/", "/account/",
                *(f"/games/{g.pk}/" for g in games if boris.pk in (g.white_id, g.black_id))],
        arbiter: ["/games/", *(f"/games/{g.pk}/" for g in games), *(f"/tournaments/{t.pk}/" for t in tournaments),
                  f"/tournaments/{cup.pk}/reports/{today.isoformat()}/"],
    }
    names = {u.username for u in (arbiter, anna, boris)} | {t.name for t in tournaments}
    return arbiter, cup, paths, names


def english_left(texts: list[str], names: set[str]) -> list[str]:
    """Runs of two or more Latin words, not names, not notation: English on a Russian page."""
    known = {w for name in names for w in re.findall(r"[A-Za-z']+", name)} | {"corr", "API", "CSV", "UTC", "Europe",
                                                                              "Moscow", "ICCF", "FIDE", "e-mail",
                                                                              "Scid", "ChessBase", "Arena", "XFCC",
                                                                              # Go's notation: a pass is typed so,
                                                                              # in every language (GTP, corr's boards)
                                                                              "pass"}
    found = []
    for text in texts:
        for run in ENGLISH_RUN.findall(text):
            words = [w for w in re.findall(r"[A-Za-z][A-Za-z']+", run) if w not in known and len(w) > 2]
            if len(words) >= 2:
                found.append(run)
    return found


def problems_of(page: Page, path: str, language: str, names: set[str]) -> list[str]:
    found = [f"{path}: {p}" for p in page.layout_problems()]
    text = page.driver.execute_script("return document.body.innerText")
    found += [f"{path}: raw value {m.group(0)!r} in {text[max(0, m.start() - 80):m.end() + 40]!r}"
              for m in RAW.finditer(text)]
    found += [f"{path}: seed number {m.group(0)!r}" for m in SEED_NUMBER.finditer(text)]
    if language != "en":
        texts = visible_text(page.driver.page_source, language)
        found += [f"{path}: English message {m!r}" for m in untranslated_messages(texts, language)]
        if language == "ru":
            found += [f"{path}: English words {m!r}" for m in english_left(texts, names)]
    return found


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_every_page_of_the_demo_after_a_season_fits_a_phone_and_speaks_its_language(
        browser, asgi_server, language):  # noqa: F811  (the fixture imported above)
    arbiter, cup, paths, names = season(timezone.now(), language)
    page = Page(browser, asgi_server).width("phone")
    found, walked = [], 0
    for user, user_paths in paths.items():
        page.sign_in(user)
        page.driver.add_cookie({"name": "django_language", "value": language, "path": "/"})
        for path in user_paths:
            page.open(path)
            assert page.find("html").get_attribute("lang") == language, path
            found += problems_of(page, path, language, names)
            walked += 1
    # The arbiter's confirmation of a case, and the sign-in page of someone signed out.
    page.sign_in(arbiter)
    page.driver.add_cookie({"name": "django_language", "value": language, "path": "/"})
    page.open(f"/tournaments/{cup.pk}/")
    page.click("td.actions button[value=confirm]")
    found += problems_of(page, "confirmation of a case", language, names)
    page.driver.delete_all_cookies()
    page.open("/login/")
    page.driver.add_cookie({"name": "django_language", "value": language, "path": "/"})
    page.open("/login/")
    found += problems_of(page, "/login/", language, names)
    assert walked >= 25
    assert found == [], "\n".join(found)
