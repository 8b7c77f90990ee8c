"""Flags when they fall (issue 22): recorded at flag_at with nobody connected, once, and a move first wins."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import time_machine

from corr.games import flagclock
from corr.models import EventKind, Game, GameEvent, OutboundEmail, OverstepCase, PlayerClock
from corr.timeouts.services import flag_record
from corr.timeouts.sweep import flags_sweep

from .conftest import BLACK_FLAG, WHITE_SENT, game_of, instant_tournament, move_at, z

pytestmark = pytest.mark.django_db

# A real game (tests/live/test_flags.py): after black's 23rd move, Kxb8, black has a lone king.
LONE_KING_GAME = ["Nc3", "d5", "Nxd5", "Qxd5", "Rb1", "Qxa2", "g4", "Bxg4", "b4", "Qxb1", "Nf3", "Qxc2", "Qxc2",
                  "Bxf3", "Qxc7", "Bxe2", "Kxe2", "a6", "Qxe7+", "Nxe7", "Bb2", "Ng8", "Bxg7", "Bxb4", "Bxh8", "Bxd2",
                  "Kxd2", "Kd8", "Bxa6", "Rxa6", "Kd3", "Rh6", "Kc3", "Rxh2", "Rxh2", "b5", "Rxh7", "Ne7", "Rxf7",
                  "Nf5", "Rxf5", "Kd7", "Rxb5", "Kc8", "Rxb8+", "Kxb8"]


def record(game, at: datetime, **kwargs) -> bool:
    with time_machine.travel(at, tick=False):
        return flag_record(game_id=game.pk, now=at, **kwargs)


def mails(game) -> list[OutboundEmail]:
    return list(OutboundEmail.objects.filter(tournament_id=game.tournament_id).order_by("id"))


def test_one_second_early_nothing_is_recorded(exact_game):
    assert record(exact_game, BLACK_FLAG - timedelta(seconds=1)) is False
    assert not OverstepCase.objects.exists() and not OutboundEmail.objects.exists()


def test_at_the_flag_the_case_is_opened_and_the_arbiters_emailed_at_once(exact_game, arbiter):
    assert record(exact_game, BLACK_FLAG) is True
    case = OverstepCase.objects.get(game=exact_game)
    assert (case.player, case.status, case.announced_on) == ("black", "open", BLACK_FLAG.date())
    [mail] = mails(exact_game)
    assert mail.recipients == [arbiter.email]
    assert mail.subject == f"Overstep case in game #{exact_game.pk}: black exceeded control 1"
    assert "boris" in mail.body and "Confirm (the game is lost on time)" in mail.body
    # The sweep's column is cleared: the case holds the flag now.
    assert PlayerClock.objects.get(game=exact_game, player="black").flag_at is None
    # Twice is once: no second case, no second e-mail.
    assert record(exact_game, BLACK_FLAG + timedelta(seconds=30)) is False
    assert OverstepCase.objects.count() == 1 and len(mails(exact_game)) == 1


def test_a_check_queued_for_an_older_version_does_nothing(exact_game, boris, api):
    version = Game.objects.get(pk=exact_game.pk).events_version
    assert move_at(api(boris), exact_game, 1, "e5", BLACK_FLAG - timedelta(hours=1)).status_code == 201
    assert record(exact_game, BLACK_FLAG, version=version) is False
    assert not OverstepCase.objects.exists()


def test_a_move_before_the_flag_wins(exact_game, boris, api):
    assert move_at(api(boris), exact_game, 1, "e5", BLACK_FLAG - timedelta(seconds=1)).status_code == 201
    assert record(exact_game, BLACK_FLAG) is False
    assert not OverstepCase.objects.exists() and not mails(exact_game)


def test_the_sweep_finds_the_fallen_flags_by_their_column_and_runs_twice_harmlessly(exact_game):
    with time_machine.travel(BLACK_FLAG - timedelta(seconds=1), tick=False):
        assert flags_sweep(now=BLACK_FLAG - timedelta(seconds=1)) == {"checked": 0, "recorded": 0}
    with time_machine.travel(BLACK_FLAG + timedelta(seconds=29), tick=False):
        assert flags_sweep(now=BLACK_FLAG + timedelta(seconds=29)) == {"checked": 1, "recorded": 1}
        assert flags_sweep(now=BLACK_FLAG + timedelta(seconds=29)) == {"checked": 0, "recorded": 0}
    assert OverstepCase.objects.filter(game=exact_game).count() == 1


def test_the_nightly_run_still_checks_the_game(exact_game):
    from corr.nightly.job import nightly_job

    with time_machine.travel(BLACK_FLAG + timedelta(hours=20), tick=False):
        nightly_job(on=(BLACK_FLAG + timedelta(hours=20)).date())
    assert OverstepCase.objects.filter(game=exact_game, player="black").count() == 1


# --- timeouts: automatic ------------------------------------------------------------------------------

@pytest.fixture
def automatic_game(arbiter, anna, boris, api):
    game = game_of(arbiter, instant_tournament(arbiter, timeouts="automatic"), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game


def test_automatic_timeouts_record_the_loss_at_the_flag_and_tell_everyone(automatic_game, anna, boris, arbiter,
                                                                          api):
    assert record(automatic_game, BLACK_FLAG) is True
    body = api(anna).get(f"/api/games/{automatic_game.pk}/").json()
    assert (body["status"], body["result"]) == ("finished", "1-0")
    assert body["termination"] == "black lost on time: the flag fell at 2026-03-03T10:00:00Z"
    history = api(anna).get(f"/api/games/{automatic_game.pk}/history/").json()
    assert history[-2]["kind"] == "result" or history[-1]["kind"] == "result"
    [line] = [h for h in history if h["kind"] == "result"]
    assert line["note"] == "result 1-0: black lost on time: the flag fell at 2026-03-03T10:00:00Z"
    sent = mails(automatic_game)
    assert sorted(r for m in sent for r in m.recipients) == sorted([anna.email, boris.email, arbiter.email])
    assert {m.subject for m in sent} == {f"Game #{automatic_game.pk}: black lost on time"}
    assert "ran out of time at 2026-03-03T10:00:00Z (UTC)" in sent[0].body
    assert not OverstepCase.objects.filter(status="open").exists()  # the result, not a case
    # The late reply is refused: the game is over.
    late = move_at(api(boris), automatic_game, 1, "e5", BLACK_FLAG + timedelta(seconds=5))
    assert late.status_code == 409
    assert record(automatic_game, BLACK_FLAG + timedelta(seconds=30)) is False  # recorded once


def test_a_late_move_under_automatic_timeouts_is_refused_before_the_check_ran(automatic_game, boris, api):
    late = move_at(api(boris), automatic_game, 1, "e5", BLACK_FLAG + timedelta(seconds=1))
    assert late.status_code == 409
    assert late.json() == {"detail": "black's time ran out at 2026-03-03T10:00:00Z: the game is lost on time",
                           "field": "number"}
    assert GameEvent.objects.filter(game=automatic_game, kind="move").count() == 1


def test_the_arbiter_can_reopen_an_automatic_loss(automatic_game, arbiter, api):
    assert record(automatic_game, BLACK_FLAG) is True
    with time_machine.travel(BLACK_FLAG + timedelta(hours=1), tick=False):
        response = api(arbiter).post(f"/api/games/{automatic_game.pk}/reopen/",
                                     {"note": "the server was down that evening", "overstep": "keep"},
                                     format="json")
    assert response.status_code in (200, 201), response.content
    assert response.json()["status"] == "ongoing"
    assert GameEvent.objects.filter(game=automatic_game, kind=EventKind.REOPEN).exists()
    # Reopened, the game is the arbiter's: its flag is a case now, not a second result.
    record(automatic_game, BLACK_FLAG + timedelta(hours=2))
    assert Game.objects.get(pk=automatic_game.pk).status == "ongoing"


def test_a_flag_against_a_lone_king_is_a_draw(arbiter, anna, boris, api):
    game = game_of(arbiter, instant_tournament(arbiter, timeouts="automatic"), anna, boris)
    players = [api(anna), api(boris)]
    at = WHITE_SENT
    for ply, san in enumerate(LONE_KING_GAME):
        at += timedelta(minutes=1)
        response = move_at(players[ply % 2], game, ply // 2 + 1, san, at)
        assert response.status_code == 201, (san, response.content)
    # White to move; black has a lone king: when white's flag falls, black cannot checkmate (FIDE 6.9).
    flag = at + timedelta(days=1)
    assert z(PlayerClock.objects.get(game=game, player="white").flag_at) == z(flag)
    assert record(game, flag) is True
    game.refresh_from_db()
    assert (game.status, game.result) == ("finished", "1/2-1/2")
    assert game.termination == (f"white's time ran out at {z(flag)}, but black cannot checkmate"
                                " (insufficient material, FIDE 6.9): drawn")
    assert {m.subject for m in mails(game)} == {f"Game #{game.pk} drawn: white's time ran out"}


def test_a_late_move_under_arbiter_timeouts_is_stored_and_its_case_announced_at_once(
        exact_game, boris, arbiter, api, settings, monkeypatch, django_capture_on_commit_callbacks, mailoutbox):
    """The 50.4 way: the late move stands and opens the case; the check it queues for now e-mails the arbiters."""
    from corr.live import timesource

    late = BLACK_FLAG + timedelta(seconds=10)
    settings.SERVER_FLAG_INPROCESS = True  # the embedded run's timer, made to fire at once on the injected clock
    monkeypatch.setattr(flagclock, "_sweeper_ensure", lambda: None)  # no sweep thread outliving the test
    monkeypatch.setattr(timesource, "now_ms", lambda: int(late.timestamp() * 1000))
    monkeypatch.setattr(timesource, "call_at", lambda at_ms, callback: callback() if at_ms <= late.timestamp() * 1000
                        else None)
    with django_capture_on_commit_callbacks(execute=True):
        response = move_at(api(boris), exact_game, 1, "e5", late)
    assert response.status_code == 201
    assert any("overstep case is open" in w for w in response.json()["warnings"])
    case = OverstepCase.objects.get(game=exact_game)
    assert (case.player, case.status) == ("black", "open") and case.announced_on is not None
    [mail] = mailoutbox
    assert mail.to == [arbiter.email]
    assert mail.subject == f"Overstep case in game #{exact_game.pk}: black exceeded control 1"
