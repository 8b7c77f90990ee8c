"""Notifications as delivered (issue 38): a real SMTP server (aiosmtpd) and a real Celery worker on Redis.

The games are played over HTTP (the API and the pages, Django's test client) at the present instant: the
worker reads the games with its own clock. Each test waits for the messages the server received.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone, translation

from corr.games import services
from corr.games.clockstate import local_today
from corr.notify.preferences import choices_of, kinds_turn_off
from corr.web.describe import deadline_text

from .conftest import body

pytestmark = pytest.mark.django_db(transaction=True)

SITE = "https://corr.example.org"


def league(arbiter, **extra):
    start = local_today(type("T", (), {"time_zone": extra.get("time_zone", "UTC")})(), timezone.now())
    return services.tournament_create(by=arbiter, name="Notify league", official_start=start, mode="server", **extra)


def new_game(arbiter, tournament, white, black):
    return services.game_create(by=arbiter, tournament=tournament, white=white, black=black,
                                today=local_today(tournament, timezone.now()))


def post(api, user, path, data=None):
    r = api(user).post(path, data or {}, format="json")
    assert r.status_code in (200, 201), r.content
    return r


def subjects(messages) -> list[str]:
    return [m["Subject"] for m in messages]


def test_a_server_game_played_over_http_tells_the_partner_once_per_move(worker, api, arbiter, anna, boris):
    inbox = worker
    game = new_game(arbiter, league(arbiter), anna, boris)
    url = f"{SITE}/games/{game.pk}/"
    [start] = inbox.wait("boris@example.org", 1)
    assert start["Subject"] == f"Game #{game.pk} has started: anna – boris" and url in body(start)
    for number, (white, black) in enumerate([("e4", "e5"), ("Nf3", "Nc6")], start=1):
        post(api, anna, f"/api/games/{game.pk}/moves/", {"number": number, "notation": white})
        told = inbox.wait("boris@example.org", 1 + number)[-1]
        assert told["Subject"] == f"Game #{game.pk}: your move {number} (anna played {white})"
        text = body(told)
        assert f"anna played move {number}: {white}." in text
        assert f"Your move {number}: on move, deadline" in text and " left." in text
        assert "deadline: " in text and url in text
        post(api, boris, f"/api/games/{game.pk}/moves/", {"number": number, "notation": black})
        told = inbox.wait("anna@example.org", 1 + number)[-1]
        assert told["Subject"] == f"Game #{game.pk}: your move {number + 1} (boris played {black})"
    time.sleep(2)  # nothing more comes: exactly one e-mail per move
    assert len(inbox.to("boris@example.org")) == 3 and len(inbox.to("anna@example.org")) == 3
    assert told["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # One-click unsubscribe (RFC 8058): a POST without a session, as a mail client sends it.
    link = re.search(r"<(https://[^>]+)>", str(told["List-Unsubscribe"])).group(1)
    assert link.startswith(f"{SITE}/notifications/unsubscribe/")
    path = link.removeprefix(SITE)
    stranger = Client(enforce_csrf_checks=True)
    assert stranger.get(path).status_code == 200 and choices_of(anna.pk).wants("your_move")  # GET asks only
    answer = stranger.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200 and not choices_of(anna.pk).wants("your_move")
    # The settings page shows it off, and turns it back on.
    page = Client()
    page.force_login(anna)
    shown = page.get("/account/notifications/").content.decode()
    assert 'name="kind_your_move"' in shown and 'name="kind_your_move" id="id_kind_your_move" checked' not in shown
    form = {f"kind_{k}": "on" for k in ("your_move", "conditional", "game_start", "draw", "result", "leave",
                                        "flag_warning")} | {"warning_hours": "24, 1"}
    assert page.post("/account/notifications/", form).status_code == 302
    assert choices_of(anna.pk).wants("your_move")


def test_draw_offers_resignation_and_an_arbiter_s_result_each_send_theirs(worker, api, arbiter, anna, boris):
    inbox = worker
    tournament = league(arbiter)
    first, second, third = (new_game(arbiter, tournament, anna, boris) for _ in range(3))
    inbox.wait("boris@example.org", 3)
    post(api, anna, f"/api/games/{first.pk}/moves/", {"number": 1, "notation": "e4"})
    post(api, anna, f"/api/games/{first.pk}/draw-offer/")
    # The move's notice and the offer's are sent by two worker processes: either may arrive first.
    told = subjects(inbox.wait("boris@example.org", 5)[-2:])
    assert sorted(told) == sorted([f"Game #{first.pk}: anna offers a draw",
                                   f"Game #{first.pk}: your move 1 (anna played e4)"])
    post(api, boris, f"/api/games/{first.pk}/draw-offer/decline/")
    assert inbox.wait("anna@example.org", 4)[-1]["Subject"] == f"Game #{first.pk}: boris declined your draw offer"
    post(api, boris, f"/api/games/{second.pk}/resign/")
    resigned = inbox.wait("anna@example.org", 5)[-1]
    assert resigned["Subject"] == f"Game #{second.pk}: boris resigned" and "0-1" not in body(resigned)
    post(api, arbiter, f"/api/games/{third.pk}/result/", {"result": "1/2-1/2", "termination": "adjudication"})
    for address, count in (("anna@example.org", 6), ("boris@example.org", 6)):
        assert inbox.wait(address, count)[-1]["Subject"] == (
            f"Game #{third.pk}: an arbiter recorded the result 1/2-1/2")


def test_a_conditional_reply_tells_its_owner_the_line_that_fired(worker, api, arbiter, anna, boris):
    inbox = worker
    game = new_game(arbiter, league(arbiter), anna, boris)
    inbox.wait("anna@example.org", 1)
    line = [{"if": "e5", "then": "Nf3", "next": [{"if": "Nc6", "then": "Bb5"}]}]
    post(api, anna, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4", "conditional": line})
    post(api, boris, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e5"})
    fired = inbox.wait("anna@example.org", 2)[-1]
    assert fired["Subject"] == f"Game #{game.pk}: your conditional line played Nf3"
    text = body(fired)
    assert "boris played move 1: e5." in text and "Your conditional line replied Nf3 for you." in text
    assert "Still pending in your line: Nc6 Bb5" in text
    # The start and Nf3; e4's notice too, unless the worker ran it only after boris had answered e4 (then it tells
    # no one: tests/notify/test_notices.py). Never a later move worded twice.
    nf3 = f"Game #{game.pk}: your move 2 (anna played Nf3)"
    deadline = time.monotonic() + 60
    while nf3 not in subjects(inbox.to("boris@example.org")) and time.monotonic() < deadline:
        time.sleep(0.2)
    told = subjects(inbox.to("boris@example.org"))
    assert told.count(nf3) == 1, told
    assert set(told) <= {f"Game #{game.pk} has started: anna – boris", nf3,
                         f"Game #{game.pk}: your move 1 (anna played e4)"}, told


def test_a_russian_player_is_told_in_russian_with_the_deadline_in_their_zone(worker, api, arbiter, anna, boris):
    inbox = worker
    boris.language, boris.time_zone = "ru", "Asia/Vladivostok"
    boris.save()
    tournament = league(arbiter, preset="chesscom_days_1", time_zone="Europe/Moscow")
    game = new_game(arbiter, tournament, anna, boris)
    inbox.wait("boris@example.org", 1)
    sent = timezone.now().replace(microsecond=0)
    post(api, anna, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"})
    told = inbox.wait("boris@example.org", 2)[-1]
    text = body(told)
    assert told["Subject"].strip() == f"Партия №{game.pk}: ваш ход 1 (anna сыграл(а) e4)"  # RFC 2047, folded
    assert re.search(r"\nосталось (\d+ д )?\d+ ч \d+ мин\.\r?\n", text), text  # the page's time left
    with translation.override("ru"):
        flag = sent + timedelta(days=1)
        deadlines = {deadline_text(at=flag + timedelta(seconds=s), zone="Asia/Vladivostok") for s in range(3)}
    assert any(d in text for d in deadlines), text
    assert "Владивосток" in text and "Asia/Vladivostok" not in text  # the zone by its city (issue 39)


@pytest.mark.parametrize("quiet_seconds", [5])
def test_thirty_games_moved_within_a_minute_make_one_e_mail_listing_the_thirty(worker, api, arbiter, anna, boris):
    inbox = worker
    kinds_turn_off(user_id=boris.pk, kinds=["game_start"])
    tournament = league(arbiter)
    games = [new_game(arbiter, tournament, anna, boris) for _ in range(30)]
    started = time.monotonic()
    for game in games:
        post(api, anna, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"})
    assert time.monotonic() - started < 60
    first, digest = inbox.wait("boris@example.org", 2, seconds=90)
    assert first["Subject"].endswith("(anna played e4)")
    assert digest["Subject"] == "30 games need you"
    assert all(f"{SITE}/games/{game.pk}/" in body(digest) for game in games)
    time.sleep(QUIET_AFTER)
    assert len(inbox.to("boris@example.org")) == 2


QUIET_AFTER = 6


def test_a_player_whose_page_is_open_is_not_told_of_that_move(worker, api, arbiter, anna, boris):
    inbox = worker
    kinds_turn_off(user_id=boris.pk, kinds=["game_start"])
    tournament = league(arbiter)
    watched, other = new_game(arbiter, tournament, anna, boris), new_game(arbiter, tournament, anna, boris)
    page = Client()
    page.force_login(boris)
    assert page.get(f"/games/{watched.pk}/").status_code == 200
    assert page.post(f"/games/{watched.pk}/presence/").status_code == 204  # the page's heartbeat
    post(api, anna, f"/api/games/{watched.pk}/moves/", {"number": 1, "notation": "e4"})
    post(api, anna, f"/api/games/{other.pk}/moves/", {"number": 1, "notation": "d4"})
    [told] = inbox.wait("boris@example.org", 1)
    time.sleep(3)
    assert subjects(inbox.to("boris@example.org")) == [f"Game #{other.pk}: your move 1 (anna played d4)"]


def test_the_24_and_1_hour_warnings_go_once_each_at_their_instants_never_after_the_move(worker, api, arbiter,
                                                                                         anna, boris):
    from corr.notify.tasks import notify_sweep

    inbox = worker
    kinds_turn_off(user_id=boris.pk, kinds=["game_start", "your_move"])
    kinds_turn_off(user_id=anna.pk, kinds=["flag_warning"])  # white's own flag after black's move: not this test's
    tournament = league(arbiter, preset="chesscom_days_1")
    game = new_game(arbiter, tournament, anna, boris)
    post(api, anna, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e4"})
    from corr.models import PlayerClock

    flag = PlayerClock.objects.get(game=game, player="black").flag_at
    assert flag is not None

    def sweep(at: datetime) -> int:
        with time_machine.travel(at, tick=False):
            return notify_sweep.apply().get()["warnings"]

    assert sweep(flag - timedelta(hours=24, seconds=1)) == 0  # not yet (the move's instant minus a second)
    assert sweep(flag - timedelta(hours=24) + timedelta(seconds=1)) == 1
    assert sweep(flag - timedelta(hours=23)) == 0  # once
    assert sweep(flag - timedelta(hours=1, seconds=1)) == 0
    assert sweep(flag - timedelta(hours=1) + timedelta(seconds=1)) == 1
    assert sweep(flag - timedelta(minutes=59)) == 0
    warnings = inbox.wait("boris@example.org", 2)
    assert sorted(subjects(warnings)) == [f"Game #{game.pk}: your flag falls in 1 hour",  # two sends: any order
                                          f"Game #{game.pk}: your flag falls in 24 hours"]
    # After the move, nothing: black moved, the clock is no longer on move.
    post(api, boris, f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e5"})
    assert sweep(flag - timedelta(minutes=30)) == 0
    time.sleep(2)
    assert len(inbox.to("boris@example.org")) == 2
