"""Previews of a leave and a result (issue 41): the booking across every game of the player, the arbiter's result.

The postal cup starts 2026-01-10 (Europe/Moscow, 4 days presumed transit, leave allowed); a server league
allows none. Bookings are previewed on 2026-01-10, the day the games start.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
import time_machine
from django.apps import apps
from django.core import mail

from corr.games import services
from corr.models import Leave, OutboundEmail

pytestmark = pytest.mark.django_db

START = date(2026, 1, 10)


@pytest.fixture
def games(arbiter, postal, anna, boris, eve):
    """Anna: white against boris by post (her move), black against eve on a server that allows no leave."""
    with time_machine.travel(datetime(2026, 1, 10, 12, tzinfo=timezone.utc), tick=False) as traveller:
        server = services.tournament_create(by=arbiter, name="No leave", official_start=START, mode="server",
                                            leave_days=0)
        postal_game = services.game_create(by=arbiter, tournament=postal, white=anna, black=boris, today=START)
        server_game = services.game_create(by=arbiter, tournament=server, white=eve, black=anna, today=START)
        yield postal_game, server_game, traveller


def counts():
    return {m._meta.label: m.objects.count() for m in apps.get_models()}


def test_a_leave_preview_lists_game_by_game_the_deadlines_it_moves_and_those_it_does_not(games, anna, api):
    postal_game, server_game, _ = games
    client = api(anna)  # its token stored before the count
    before, outbox = counts(), OutboundEmail.objects.count()
    answer = client.post("/api/leaves/preview/", {"from": "2026-01-20", "to": "2026-01-29"}, format="json")
    assert answer.status_code == 200, answer.content
    rows = {row["game"]: row for row in answer.json()["games"]}
    assert set(rows) == {postal_game.pk, server_game.pk}
    postal_row = rows[postal_game.pk]
    assert postal_row["stops"] is True and postal_row["colour"] == "white" and postal_row["opponent"] == "boris"
    white = next(d for d in postal_row["deadlines"] if d["player"] == "white")
    # 30 days from 01-10: 02-09; ten days of leave put it ten days later.
    assert white == {"player": "white", "before": "2026-02-09", "after": "2026-02-19", "moves": True}
    assert "white: deadline 2026-02-19 instead of 2026-02-09" in postal_row["changes"]
    server_row = rows[server_game.pk]
    assert server_row["stops"] is False and not any(d["moves"] for d in server_row["deadlines"])
    assert server_row["changes"] == []
    # Nothing kept: no leave, no row anywhere, no e-mail to boris.
    assert counts() == before and OutboundEmail.objects.count() == outbox and not Leave.objects.exists()
    assert mail.outbox == []
    # The booking itself then moves the very deadline the preview said.
    booked = api(anna).post("/api/leaves/", {"from": "2026-01-20", "to": "2026-01-29"}, format="json")
    assert booked.status_code == 201
    game = api(anna).get(f"/api/games/{postal_game.pk}/").json()
    assert game["clock"]["players"]["white"]["deadline"] == white["after"]


def test_a_leave_preview_is_refused_as_the_booking_is_in_the_readers_language(games, anna, api):
    wrong = {"from": "2026-01-29", "to": "2026-01-20"}
    for language in ("en", "ru"):
        preview = api(anna).post("/api/leaves/preview/", wrong, format="json", HTTP_ACCEPT_LANGUAGE=language)
        act = api(anna).post("/api/leaves/", wrong, format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert (preview.status_code, preview.json()) == (act.status_code, act.json())
        assert preview.status_code == 400 and preview.json()["field"] == "to"
    assert api(None).post("/api/leaves/preview/", wrong, format="json").status_code in (401, 403)


def test_a_game_preview_of_a_leave_gives_the_games_clock_the_booking_gives(games, anna, api):
    postal_game, _, _ = games
    event = {"kind": "leave", "from": "2026-01-20", "to": "2026-01-29"}
    preview = api(anna).post(f"/api/games/{postal_game.pk}/preview/", {"events": [event]}, format="json")
    assert preview.status_code == 200, preview.content
    assert not Leave.objects.exists()
    api(anna).post("/api/leaves/", {"from": "2026-01-20", "to": "2026-01-29"}, format="json")
    stored = api(anna).get(f"/api/games/{postal_game.pk}/").json()
    assert preview.json()["clock"]["players"] == stored["clock"]["players"]
    ru = api(anna).post(f"/api/games/{postal_game.pk}/preview/", {"events": [event]}, format="json",
                        HTTP_ACCEPT_LANGUAGE="ru")
    assert ru.status_code == 400 and ru.json()["field"] == "from"  # overlaps the leave just booked, in Russian
    assert "overlaps" not in ru.json()["detail"]


def test_a_result_preview_shows_the_game_finished_and_its_clocks_stopped_and_keeps_it_ongoing(games, arbiter, anna,
                                                                                             api):
    postal_game, _, traveller = games
    traveller.move_to(datetime(2026, 2, 20, 12, tzinfo=timezone.utc))  # white 11 days over the control
    result = {"result": "0-1", "termination": "time forfeit"}
    preview = api(arbiter).post(f"/api/games/{postal_game.pk}/preview/",
                                {"events": [{"kind": "result", **result}]}, format="json")
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "time forfeit")
    assert api(arbiter).get(f"/api/games/{postal_game.pk}/").json()["status"] == "ongoing"
    stored = api(arbiter).post(f"/api/games/{postal_game.pk}/result/", result, format="json")
    assert stored.status_code == 201
    assert body["clock"] == stored.json()["clock"]
    # A player may not record a result: nor preview one, with the same answer.
    player = api(anna).post(f"/api/games/{postal_game.pk}/preview/", {"events": [{"kind": "result", **result}]},
                            format="json")
    assert player.status_code == 403
