"""One answer to "who is on move, since when, until when, and why" (issue 25, findings 2 and 3).

What each reader receives, from the same game on the same day: the game page's banner and cards, "My
games", the tournament page's "Games by deadline" and timeline, the API's ``turn``, the calendar feed,
and the nightly report. Frozen at noon UTC on 2026-03-01 (tests/conftest.py); the postal cup starts on
2026-01-10, presumes 4 days of transit, and counts 10 moves in 30 days.
"""

from __future__ import annotations

import re
from datetime import date
from urllib.parse import urlsplit

import pytest
from django.test import Client
from icalendar import Calendar

from corr.games import services
from corr.games.selectors import game_get, game_time_get
from corr.games.turns import TurnState, game_turns, stored_turn_state
from corr.models import NightlyReport, PlayerClock
from corr.nightly.job import nightly_job

from ..conftest import TODAY

pytestmark = pytest.mark.django_db


def page(user, path: str, language: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def text(html: str) -> str:
    """The page's words as a reader sees them: tags dropped, entities and spaces plain."""
    words = re.sub(r"<(script|style|title)[^>]*>.*?</\1>", " ", html, flags=re.S)
    words = re.sub(r"<[^>]+>", " ", words).replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")
    return re.sub(r"\s+", " ", words)


def card(html: str, colour: str) -> str:
    return text(re.search(rf'<div class="card[^"]*" id="account-{colour}">(.*?)</svg>', html, re.S).group(1))


def feed_events(api, client, user) -> list:
    path = urlsplit(api(user).get("/api/users/me/").json()["calendar_url"]).path
    return list(Calendar.from_ical(client.get(path).content).walk("VEVENT"))


@pytest.fixture
def in_the_post(postal_game, anna, boris):
    """Anna sent move 1 on 2026-02-28: presumed in the post (4 days) until 2026-03-04, after today."""
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=date(2026, 2, 28),
                         mail="ordinary", today=TODAY)
    return game_get(game_id=postal_game.pk)


# --- finding 2: a move in the post ---------------------------------------------------------------------

def test_a_move_in_the_post_is_the_same_answer_on_every_page_the_api_and_the_feed(in_the_post, api, client, anna,
                                                                                  boris, arbiter):
    game = in_the_post
    # The API: nobody on move, anna's move 1 in the post until 03-04.
    turn = api(boris).get(f"/api/games/{game.pk}/").json()["turn"]
    assert turn["black"] == {"state": "in_the_post", "number": 1, "since": "2026-02-28", "until": "2026-03-04",
                             "why": None, "sender": "white"}
    assert turn["white"]["state"] == "in_the_post"
    # The game page, as boris (the receiver) and as anna (the sender): no "Your move", no deadline.
    mine = page(boris, f"/games/{game.pk}/")
    banner = text(re.search(r'<p class="waiting" id="turn">(.*?)</p>', mine, re.S).group(1))
    assert banner.strip() == ("Waiting: anna's move is presumed in the post until 2026-03-04. If it has arrived,"
                              " record the date below.")
    assert "deadline - " in card(mine, "black")
    assert "waiting: anna's move is presumed in the post until 2026-03-04" in card(mine, "black")
    assert "not on move" not in text(mine)
    sent = page(anna, f"/games/{game.pk}/")
    assert "waiting: your move is presumed in the post until 2026-03-04" in card(sent, "white")
    # The tournament page agrees: no deadline, no "to move: yes", no line on the timeline.
    board = page(arbiter, f"/tournaments/{game.tournament_id}/")
    rows = text(board.split("Games by deadline")[1])
    assert "waiting: anna's move is presumed in the post until 2026-03-04" in rows
    assert "2026-03-" not in rows.replace("until 2026-03-04", "")
    assert "No deadline in the next 28 days." in text(board)
    # The calendar feed has no deadline for boris while the move travels.
    assert feed_events(api, client, boris) == []


def test_the_stored_clock_of_a_move_in_the_post_says_the_same_to_the_nightly_report(in_the_post, boris):
    game = in_the_post
    row = PlayerClock.objects.get(game=game, player="black")
    # Stored as of the arrival (the nightly selects by the deadline), on move there: in the post today.
    assert (row.on_move, row.computed_on) == (True, date(2026, 3, 4))
    assert stored_turn_state(on_move=row.on_move, deadline=row.deadline, computed_on=row.computed_on,
                             on=TODAY) is TurnState.IN_THE_POST
    time, _rows = game_time_get(game=game, as_of=TODAY)
    assert game_turns(game=game, time=time)["black"].state is TurnState.IN_THE_POST
    nightly_job(on=TODAY)
    item = NightlyReport.objects.get(tournament=game.tournament, date=TODAY).data["deadlines_soon"]
    assert [(i["player"], i["state"], i["until"]) for i in item] == []  # its deadline is 04-03, beyond 7 days


def test_the_move_in_the_post_is_said_in_the_readers_language(in_the_post, boris):
    ru = card(page(boris, f"/games/{in_the_post.pk}/", "ru"), "black")
    assert "ожидание: ход anna предположительно в пути до 04.03.2026" in ru
    fr = card(page(boris, f"/games/{in_the_post.pk}/", "fr"), "black")
    assert "en attente : le coup de anna est présumé à la poste jusqu'au 04/03/2026" in fr


def test_once_it_arrives_the_receiver_is_on_move_with_the_deadline_the_stored_clock_held(in_the_post, boris, api,
                                                                                         time_machine):
    time_machine.move_to("2026-03-05T12:00:00Z", tick=False)
    turn = api(boris).get(f"/api/games/{in_the_post.pk}/").json()["turn"]["black"]
    stored = PlayerClock.objects.get(game=in_the_post, player="black").deadline
    assert turn == {"state": "on_move", "number": 1, "since": "2026-03-04", "until": stored.isoformat(),
                    "why": "presumed", "sender": None}
    html = page(boris, f"/games/{in_the_post.pk}/")
    assert (f"Your move 1: on move, deadline {stored.isoformat()} (presumed received on 2026-03-04: the partner's"
            " dispatch + 4 transit days).") in text(html)


# --- finding 3: over the control, and the first move of a server game -----------------------------------

@pytest.fixture
def over_the_control(postal_game, anna, boris):
    """Anna sent move 1 after 36 days (30 allowed): her move 2 has no day in time (deadline null)."""
    services.move_submit(game=postal_game, by=anna, number=1, notation="e4", sent_on=date(2026, 2, 15),
                         mail="registered", today=TODAY)
    services.move_submit(game=postal_game, by=boris, number=1, notation="e5", received_on=date(2026, 2, 18),
                         sent_on=date(2026, 2, 20), mail="registered", today=TODAY)
    return game_get(game_id=postal_game.pk)


def test_a_player_over_the_control_is_on_move_with_no_day_in_time(over_the_control, api, anna, arbiter):
    game = over_the_control
    body = api(anna).get(f"/api/games/{game.pk}/").json()
    assert body["clock"]["players"]["white"]["deadline"] is None and body["to_move"] == "white"
    assert body["turn"]["white"] == {"state": "over_the_control", "number": 2, "since": "2026-02-24",
                                     "until": None, "why": "presumed", "sender": None}
    html = page(anna, f"/games/{game.pk}/")
    white = card(html, "white")
    assert "on move, over the control (no day is in time)" in white
    assert "Your move 2: on move, over the control (no day is in time)" in text(html)
    gauge = re.search(r'id="account-white".*?<title id="g\d+">(.*?)</title>', html, re.S).group(1)
    assert "not on move" not in gauge and "over the control" in gauge
    # No "time trouble" with days below zero: the overstep says what is left.
    assert not re.search(r"-\d+ &lt;= \d+ days? left", html) and "time trouble" not in white
    board = text(page(arbiter, f"/tournaments/{game.tournament_id}/"))
    assert "anna (white) on move, over the control (no day is in time)" in board


def test_the_first_move_of_a_server_game_runs_from_the_start(server_game, anna, api):
    html = page(anna, f"/games/{server_game.pk}/")
    turn = api(anna).get(f"/api/games/{server_game.pk}/").json()["turn"]["white"]
    assert turn["state"] == "over_the_control"  # the league started 2026-01-10: 50 of 30 days
    assert "still on its way" not in html and "no clock runs" not in html
    assert "Your move 1: on move, over the control (no day is in time) (counted from the start, 2026-01-10)." \
        in text(html)


def test_the_first_move_of_a_new_server_game_has_its_deadline_from_the_start(arbiter, anna, boris, api, frozen):
    league = services.tournament_create(by=arbiter, name="League", official_start=TODAY, mode="server")
    game = services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)
    html = page(anna, f"/games/{game.pk}/")
    assert "Your move 1: on move, deadline 2026-03-31 (counted from the start, 2026-03-01)." in text(html)
    assert "deadline 2026-03-31" in card(html, "white")
    assert api(boris).get(f"/api/games/{game.pk}/").json()["turn"] == {
        "white": {"state": "on_move", "number": 1, "since": "2026-03-01", "until": "2026-03-31", "why": "start",
                  "sender": None},
        "black": {"state": "waiting", "number": None, "since": None, "until": None, "why": None, "sender": None}}
    assert "waiting for the partner" in card(page(boris, f"/games/{game.pk}/"), "black")


def test_the_nightly_report_lists_a_deadline_of_a_move_in_the_post_as_in_the_post(postal_game, anna, boris,
                                                                                  arbiter):
    # Boris used 26 of his 30 days on move 1; anna's move 2, sent 02-28, is presumed in the post until 03-04,
    # when boris's 4 days left run: his stored deadline 03-08 is among the report's next 7 days.
    for player, number, received, sent in (("white", 1, None, date(2026, 1, 11)),
                                           ("black", 1, date(2026, 1, 15), date(2026, 2, 10)),
                                           ("white", 2, date(2026, 2, 14), date(2026, 2, 28))):
        services.move_submit(game=postal_game, by=anna if player == "white" else boris, number=number,
                             notation="e4" if player == "white" else "e5", received_on=received, sent_on=sent,
                             mail="registered", today=TODAY)
    nightly_job(on=TODAY)
    report = NightlyReport.objects.get(tournament=postal_game.tournament, date=TODAY)
    (item,) = report.data["deadlines_soon"]
    assert (item["player"], item["deadline"], item["state"], item["until"]) == (
        "black", "2026-03-08", "in_the_post", "2026-03-04")
    html = text(page(arbiter, f"/tournaments/{postal_game.tournament_id}/reports/2026-03-01/"))
    assert "boris (black) 2026-03-08 4 waiting: anna's move is presumed in the post until 2026-03-04" in html
