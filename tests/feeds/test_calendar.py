"""The deadline calendar: secret addresses, the events of the game pages' deadlines, rotation and arbiters' feeds."""

from __future__ import annotations

from datetime import date, timedelta
from urllib.parse import urlsplit

import pytest
from icalendar import Calendar, vDuration

from corr.games import services

from ..conftest import TODAY
from ..exports.test_exports import CHESS, play

pytestmark = pytest.mark.django_db


def calendar_path(client) -> str:
    url = client.get("/api/users/me/").json()["calendar_url"]
    assert url.startswith("http://127.0.0.1:8000/calendar/") and url.endswith(".ics")
    return urlsplit(url).path


def events(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return list(Calendar.from_ical(response.content).walk("VEVENT"))


def page_deadline(api, user, game, player) -> date:
    """The deadline the game page shows (the API's clock as of today)."""
    return date.fromisoformat(api(user).get(f"/api/games/{game.pk}/").json()["clock"]["players"][player]["deadline"])


@pytest.fixture
def games(api, postal_game, server, arbiter, anna, boris, frozen):
    """Boris owes his move 3 in the postal game; Anna owes her move 1 in a server game."""
    play(api, postal_game, {"white": anna, "black": boris}, CHESS)
    server_game = services.game_create(by=arbiter, tournament=server, white=anna, black=boris, today=TODAY)
    return postal_game, server_game


def test_the_feed_has_one_event_per_deadline_the_user_owes_as_the_game_page_shows_it(client, api, games, anna,
                                                                                      boris):
    postal_game, server_game = games
    (event,) = events(client.get(calendar_path(api(boris))))  # no sign-in: the token is the secret
    deadline = page_deadline(api, boris, postal_game, "black")
    # Moves 1 and 2 took 2 + 3 days; move 3, presumed received 02-11, 18 more by 03-01:
    # 23 of 30 days used, 7 left, the last day 03-08.
    assert deadline == date(2026, 3, 8)
    assert event.decoded("dtstart") == deadline
    assert event.decoded("dtend") == deadline + timedelta(days=1)
    assert event["uid"] == f"corr-game-{postal_game.pk}-black-move-3@127.0.0.1"
    assert str(event["url"]).endswith(f"/games/{postal_game.pk}/")
    assert "send your move 3" in str(event["summary"])
    (alarm,) = event.walk("VALARM")
    assert alarm.decoded("trigger") == timedelta(days=-2) and str(alarm["action"]) == "DISPLAY"
    anna_events = events(client.get(calendar_path(api(anna))))
    assert [(e.decoded("dtstart"), str(e["uid"])) for e in anna_events] == [
        (page_deadline(api, anna, server_game, "white"), f"corr-game-{server_game.pk}-white-move-1@127.0.0.1")]


def test_the_event_follows_the_clock_under_the_same_uid(client, api, games, arbiter, boris):
    postal_game, _ = games
    path = calendar_path(api(boris))
    (before,) = events(client.get(path))
    r = api(arbiter).post(f"/api/games/{postal_game.pk}/penalties/", {"player": "black", "reason": "address_error"},
                          format="json")
    assert r.status_code == 201, r.json()
    (after,) = events(client.get(path))
    assert after["uid"] == before["uid"]
    assert after.decoded("dtstart") == before.decoded("dtstart") - timedelta(days=5)  # the first penalty: 5 days
    assert after.decoded("dtstart") == page_deadline(api, boris, postal_game, "black")
    assert after["sequence"] > before["sequence"]


def test_rotating_the_address_makes_the_old_one_404(client, api, games, boris):
    old = calendar_path(api(boris))
    r = api(boris).post("/api/users/me/calendar/rotate/")
    assert r.status_code == 200
    new = urlsplit(r.json()["calendar_url"]).path
    assert new != old and calendar_path(api(boris)) == new
    assert client.get(old).status_code == 404
    assert len(events(client.get(new))) == 1


def test_a_wrong_token_is_a_404(client, api, games, boris):
    path = calendar_path(api(boris))
    token = path.removeprefix("/calendar/").removesuffix(".ics")
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(f"/calendar/{wrong}.ics").status_code == 404
    assert client.get(f"/calendar/tournament/{token}.ics").status_code == 404  # a user's token is no tournament's
    assert client.get("/calendar/short.ics").status_code == 404


def test_the_arbiters_feed_of_a_tournament_has_every_deadline(client, api, games, postal, arbiter, other_arbiter,
                                                               anna, boris):
    postal_game, _ = games
    second_game = services.game_create(by=arbiter, tournament=postal, white=boris, black=anna, today=TODAY)
    r = api(arbiter).get(f"/api/tournaments/{postal.pk}/calendar/")
    assert r.status_code == 200
    path = urlsplit(r.json()["calendar_url"]).path
    assert path.startswith("/calendar/tournament/")
    found = {(str(e["uid"]), e.decoded("dtstart")) for e in events(client.get(path))}
    assert found == {
        (f"corr-game-{postal_game.pk}-black-move-3@127.0.0.1", page_deadline(api, arbiter, postal_game, "black")),
        (f"corr-game-{second_game.pk}-white-move-1@127.0.0.1", page_deadline(api, arbiter, second_game, "white")),
    }
    assert api(anna).get(f"/api/tournaments/{postal.pk}/calendar/").status_code == 403
    assert api(other_arbiter).post(f"/api/tournaments/{postal.pk}/calendar/rotate/").status_code == 403
    # Rotation, and an arbiter who no longer arbitrates the tournament: their address is gone.
    new = urlsplit(api(arbiter).post(f"/api/tournaments/{postal.pk}/calendar/rotate/").json()["calendar_url"]).path
    assert client.get(path).status_code == 404 and client.get(new).status_code == 200
    postal.arbiters.remove(arbiter)
    assert client.get(new).status_code == 404


def test_my_games_page_shows_the_address_and_rotates_it(client, api, games, arbiter, boris, postal):
    client.force_login(boris)
    path = calendar_path(api(boris))
    page = client.get("/games/").content.decode()
    assert path in page
    r = client.post("/calendar/rotate/")
    assert r.status_code == 302
    assert client.get(path).status_code == 404
    assert calendar_path(api(boris)) in client.get("/games/").content.decode()
    client.force_login(arbiter)
    page = client.get("/games/").content.decode()
    assert "/calendar/tournament/" in page and f"/calendar/tournament/{postal.pk}/rotate/" in page


def test_a_line_break_in_the_tournaments_name_stays_text_in_the_arbiters_feed(client, api, games, postal, arbiter):
    # Issue 23: the name went raw into X-WR-CALNAME, and icalendar refused the line: a 500 for every arbiter.
    postal.name = "Cup\nBEGIN:VEVENT\nSUMMARY:forged"
    postal.save(update_fields=["name"])
    path = urlsplit(api(arbiter).get(f"/api/tournaments/{postal.pk}/calendar/").json()["calendar_url"]).path
    response = client.get(path)
    found = events(response)  # 200, and parsed
    assert len(found) == 1 and "forged" not in {str(e["summary"]) for e in found}
    # One content line, its line breaks escaped as TEXT (RFC 5545 3.3.11): the name, whole, as text.
    assert b"\r\nX-WR-CALNAME:corr: deadlines of Cup\\nBEGIN:VEVENT\\nSUMMARY:forged\r\n" in response.content
    assert response.content.count(b"\r\nBEGIN:VEVENT") == 1


def test_the_feed_parses_with_icalendar_and_its_ttl_is_a_duration_of_six_hours(client, api, games, boris):
    response = client.get(calendar_path(api(boris)))
    assert b"\r\nX-PUBLISHED-TTL:PT6H\r\n" in response.content
    calendar = Calendar.from_ical(response.content)
    assert [c.errors for c in calendar.walk() if c.errors] == []
    # An X- property is read back as text: the duration is read as RFC 5545 says (vDuration refuses 6:00:00).
    assert vDuration.from_ical(calendar["X-PUBLISHED-TTL"].to_ical().decode()) == timedelta(hours=6)
    assert calendar.decoded("REFRESH-INTERVAL") == timedelta(hours=6)
