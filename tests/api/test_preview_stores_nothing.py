"""A preview equals the act and keeps nothing (issue 41).

Property: over random games of four systems and counts (50.4 in dates by post, ICCF's 10 moves in 50 days
in whole days, chess.com's 3 days a move counted exactly, Dragon Go Server's byo-yomi), the preview of the
next move, sent on a random date or at a random instant, gives field by field the clock that storing it
gives. And a thousand previews change no table's row count, send no e-mail and queue no task.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
import time_machine
from django.apps import apps
from django.core import mail
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corr.games import services
from corr.games.clockstate import local_today

from ..conftest import NOW, TODAY

LINE = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7".split()
START = date(2026, 1, 10)

SYSTEMS = [("postal", "rus_50_4"), ("server", "iccf_10_50"), ("server", "chesscom_days_3"),
           ("server", "dgs_byoyomi")]


def colour(ply: int) -> str:
    return "white" if ply % 2 == 0 else "black"


def postal_play(game, users, gaps):
    """Moves by post: each sent ``think`` days after its receipt, received 4 days (the transit) after sending."""
    received = START
    for ply, think in enumerate(gaps):
        sent = received + timedelta(days=think)
        services.move_submit(game=game, by=users[colour(ply)], number=ply // 2 + 1, notation=LINE[ply],
                             received_on=None if ply == 0 else received, sent_on=sent, today=TODAY)
        received = sent + timedelta(days=4)
    return received


def server_play(game, users, gaps):
    """Server moves, each ``gap`` hours after the last (the first after the start, 00:00 UTC)."""
    at = datetime(2026, 1, 10, tzinfo=timezone.utc)
    for ply, hours in enumerate(gaps):
        at += timedelta(hours=hours)
        with time_machine.travel(at, tick=False):
            services.move_submit(game=game, by=users[colour(ply)], number=ply // 2 + 1, notation=LINE[ply],
                                 today=local_today(game.tournament, at))
    return at


@pytest.fixture
def tournaments(arbiter):
    return {preset: services.tournament_create(by=arbiter, name=preset, official_start=START, mode=mode,
                                               preset=preset, presumed_transit_days=4 if mode == "postal" else 0)
            for mode, preset in SYSTEMS}


@pytest.mark.django_db
@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# At most 5 moves of up to 5 days and 4 in the post: 45 days from the start (01-10), all sent by TODAY (03-01).
@given(system=st.sampled_from(SYSTEMS), gaps=st.lists(st.integers(0, 5), max_size=5),
       last=st.integers(0, 80))
def test_a_preview_of_the_next_move_gives_the_clock_storing_it_gives(tournaments, arbiter, anna, boris, api,
                                                                     system, gaps, last):
    mode, preset = system
    users = {"white": anna, "black": boris}
    with time_machine.travel(NOW, tick=False):
        game = services.game_create(by=arbiter, tournament=tournaments[preset], white=anna, black=boris, today=TODAY)
    ply = len(gaps)
    mover = users[colour(ply)]
    if mode == "postal":
        with time_machine.travel(NOW, tick=False):
            received = postal_play(game, users, gaps)
        sent = min(received + timedelta(days=last), TODAY)
        if sent < received:
            return  # the move is still in the post on TODAY
        move = {"number": ply // 2 + 1, "notation": LINE[ply], "sent_on": sent.isoformat()}
        if ply:
            move["received_on"] = received.isoformat()
        at = NOW
    else:
        at = server_play(game, users, [g * 7 for g in gaps]) + timedelta(hours=last * 3, minutes=last)
        move = {"number": ply // 2 + 1, "notation": LINE[ply]}
    with time_machine.travel(at, tick=False):
        preview = api(mover).post(f"/api/games/{game.pk}/preview/", {"events": [{"kind": "move", **move}]},
                                  format="json")
        stored = api(mover).post(f"/api/games/{game.pk}/moves/?ledger=1", move, format="json")
    assert preview.status_code == (200 if stored.status_code == 201 else stored.status_code), preview.content
    if stored.status_code != 201:  # refused (a flag fell under automatic timeouts): refused alike
        assert preview.json() == stored.json()
        return
    want, got = stored.json(), preview.json()
    for field in ("to_move", "pending", "turn", "time_left", "warnings"):
        assert got[field] == want[field], field
    for player, account in want["clock"]["players"].items():
        for name, value in account.items():
            assert got["clock"]["players"][player][name] == value, (player, name)
    assert got["clock"] == want["clock"]


def row_counts() -> dict[str, int]:
    return {model._meta.db_table: model.objects.count() for model in apps.get_models()}


@pytest.mark.django_db
def test_a_thousand_previews_keep_nothing_send_nothing_and_queue_nothing(arbiter, anna, boris, api,
                                                                        django_capture_on_commit_callbacks):
    t = services.tournament_create(by=arbiter, name="Daily", official_start=START, mode="server",
                                   preset="chesscom_days_3")
    at = datetime(2026, 1, 10, 9, tzinfo=timezone.utc)
    with time_machine.travel(at, tick=False):
        game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, today=START)
        services.move_submit(game=game, by=anna, number=1, notation="e4", today=START)
    client = api(boris)  # its token made now, before the counts
    before, sent = row_counts(), len(mail.outbox)
    events = {"events": [{"kind": "move", "number": 1, "notation": "e5"}]}
    with time_machine.travel(at + timedelta(days=1), tick=False), django_capture_on_commit_callbacks() as queued:
        for _ in range(1000):
            r = client.post(f"/api/games/{game.pk}/preview/", events, format="json")
            assert r.status_code == 200
    assert (row_counts(), len(mail.outbox), queued) == (before, sent, [])
    # The same move stored: rows are written and its notice and flag check are queued (the check can fail).
    with time_machine.travel(at + timedelta(days=1), tick=False), django_capture_on_commit_callbacks() as queued:
        assert client.post(f"/api/games/{game.pk}/moves/", {"number": 1, "notation": "e5"},
                           format="json").status_code == 201
    assert row_counts() != before and len(queued) >= 1
