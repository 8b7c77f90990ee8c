"""An outage of the service given back in correspondence server games (issue 39).

The beat is ``corr.live.gaps.beat``, the one the web processes run, called with an injected instant (the
suite turns the beat thread off; ``LIVE_BEAT_SECONDS`` on here makes the heartbeat count). A beat at 11:00,
none until 13:00: no process could take moves for 2 hours (``LIVE_GAP_MS`` is 30 s).

``chesscom_days_1``: 1 day per move, counted exactly. White sent 1. e4 at 10:00 (``WHITE_SENT``), so black's
flag is at 10:00 the next day (``BLACK_FLAG``); 2 hours back put it at 12:00.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
import time_machine
from django.test import Client

from corr.games import services
from corr.games.services.outages import outage_credit
from corr.live.gaps import beat
from corr.models import EventKind, Game, GameEvent, GameStatus, OverstepCase, PlayerClock, ServiceOutage
from corr.timeouts.services import flag_record

from .conftest import BLACK_FLAG, WHITE_SENT, game_of, instant_tournament, move_at, read_at

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
DOWN_FROM, DOWN_TO = WHITE_SENT + HOUR, WHITE_SENT + 3 * HOUR  # 11:00 to 13:00
LINE = ("the service was down from 2026-03-02T11:00:00Z to 2026-03-02T13:00:00Z: 0 d 02 h 00 min given back"
        " to black")


@pytest.fixture(autouse=True)
def beat_on(settings):
    settings.LIVE_BEAT_SECONDS, settings.LIVE_GAP_MS = 2, 30_000


def beat_at(at: datetime) -> int:
    with time_machine.travel(at, tick=False):
        return beat(now_ms=int(at.timestamp() * 1000))


def record(game, at: datetime) -> bool:
    with time_machine.travel(at, tick=False):
        return flag_record(game_id=game.pk, now=at)


def daily_game(arbiter, anna, boris, api, *, preset="chesscom_days_1", timeouts="arbiter"):
    """A game of ``preset`` where white sent 1. e4 at ``WHITE_SENT``: black on move."""
    game = game_of(arbiter, instant_tournament(arbiter, preset=preset, timeouts=timeouts), anna, boris)
    assert move_at(api(anna), game, 1, "e4", WHITE_SENT).status_code == 201
    return game


def credits(game) -> list[tuple[str, str, int, str, object]]:
    return [(r.player, r.reason, r.days, r.note, r.entered_by) for r in
            GameEvent.objects.filter(game=game, kind=EventKind.CREDIT).order_by("seq")]


def flag_of(game, colour: str = "black"):
    return PlayerClock.objects.get(game=game, player=colour).flag_at


def test_two_hours_down_give_the_player_on_move_two_hours_back_in_the_history(arbiter, anna, boris, api):
    game = daily_game(arbiter, anna, boris, api)
    assert flag_of(game) == BLACK_FLAG
    before = read_at(api(anna), f"/api/games/{game.pk}/", DOWN_TO).json()["clock"]["players"]
    assert beat_at(DOWN_FROM) == 0
    assert beat_at(DOWN_TO) == 1
    assert flag_of(game) == BLACK_FLAG + 2 * HOUR
    assert flag_of(game, "white") is None
    # By corr itself (no person), in seconds; white, not on move, gets nothing.
    assert credits(game) == [("black", "seconds", 7200, LINE, None)]
    after = read_at(api(anna), f"/api/games/{game.pk}/", DOWN_TO).json()["clock"]["players"]
    assert after["black"]["remaining_seconds"] == before["black"]["remaining_seconds"] + 7200
    assert after["white"]["remaining_seconds"] == before["white"]["remaining_seconds"]
    history = read_at(api(anna), f"/api/games/{game.pk}/history/", DOWN_TO).json()
    assert [(h["kind"], h["player"], h["note"], h["entered_by"]) for h in history if h["kind"] == "credit"] == [
        ("credit", "black", LINE, None)]
    outage = ServiceOutage.objects.get()
    assert (outage.started_at, outage.ended_at, outage.games) == (DOWN_FROM, DOWN_TO, 1)


def test_an_outage_is_given_back_once_however_often_it_is_noticed(arbiter, anna, boris, api):
    game = daily_game(arbiter, anna, boris, api)
    beat_at(DOWN_FROM)
    assert beat_at(DOWN_TO) == 1
    assert beat_at(DOWN_TO) == 0  # the same beat again: the silence is over
    # A second process that read the same last beat, or the sweep run again: the outage's row says it was given.
    assert outage_credit(start=DOWN_FROM, end=DOWN_TO) == 0
    assert outage_credit(start=DOWN_FROM, end=DOWN_TO + HOUR) == 0
    assert [c[2] for c in credits(game)] == [7200]
    assert flag_of(game) == BLACK_FLAG + 2 * HOUR


def test_a_turn_that_began_during_the_outage_gets_the_part_after_it(arbiter, anna, boris, api):
    """White's move at 11:30 (stored although no beat came: the test's own request); black's turn is 1 h 30 min
    of the outage."""
    game = game_of(arbiter, instant_tournament(arbiter, preset="chesscom_days_1"), anna, boris)
    beat_at(DOWN_FROM)
    assert move_at(api(anna), game, 1, "e4", DOWN_FROM + HOUR / 2).status_code == 201
    assert beat_at(DOWN_TO) == 1
    assert [(c[0], c[2]) for c in credits(game)] == [("black", 5400)]
    assert flag_of(game) == DOWN_FROM + HOUR / 2 + timedelta(days=1) + 90 * timedelta(minutes=1)


def test_a_short_silence_and_a_game_counted_in_dates_get_nothing(arbiter, anna, boris, api):
    daily = daily_game(arbiter, anna, boris, api)
    dated = services.tournament_create(by=arbiter, name="Dated server", official_start=date(2026, 3, 2),
                                       mode="server", time_zone="Europe/Moscow")
    by_dates = game_of(arbiter, dated, anna, boris)
    assert move_at(api(anna), by_dates, 1, "e4", WHITE_SENT).status_code == 201
    beat_at(DOWN_FROM)
    assert beat_at(DOWN_FROM + timedelta(seconds=29)) == 0  # within LIVE_GAP_MS: charged as usual
    assert credits(daily) == [] and not ServiceOutage.objects.exists()
    assert beat_at(DOWN_TO) == 1
    assert credits(by_dates) == []
    assert [c[2] for c in credits(daily)] == [7200 - 29]


def test_whole_days_give_every_begun_day_back_as_a_day(arbiter, anna, boris, api):
    """ICCF's 50 days for 10 moves, counted in whole days: black's control has 50 days left, 51 after the day back
    (the flag itself moves by what one day buys under double time, counted in whole days)."""
    game = daily_game(arbiter, anna, boris, api, preset="iccf_10_50")
    path = f"/api/games/{game.pk}/"
    before = read_at(api(anna), path, DOWN_TO).json()["clock"]["players"]["black"]["control"]["remaining_days"]
    beat_at(DOWN_FROM)
    assert beat_at(DOWN_TO) == 1
    [(player, unit, amount, note, by)] = credits(game)
    assert (player, unit, amount, by) == ("black", "days", 1, None)
    assert note == ("the service was down from 2026-03-02T11:00:00Z to 2026-03-02T13:00:00Z: 1 day given back"
                    " to black")
    after = read_at(api(anna), path, DOWN_TO).json()["clock"]["players"]["black"]["control"]["remaining_days"]
    assert (before, after) == (50, 51)


def test_a_flag_that_fell_during_the_outage_waits_and_falls_later_by_the_outage(arbiter, anna, boris, api,
                                                                              settings):
    """Black's flag at 10:00 on 03-03; the last beat at 09:00, the service down until 11:00. The worker's check at
    10:10 records nothing; the beat's return gives 2 hours back, so the flag falls at 12:00. (An outage is a silence
    of an hour here, so that the beats after it can be few.)"""
    settings.LIVE_GAP_MS = 3_600_000
    game = daily_game(arbiter, anna, boris, api, timeouts="automatic")
    last_beat, back = BLACK_FLAG - HOUR, BLACK_FLAG + HOUR
    beat_at(last_beat)
    assert record(game, BLACK_FLAG + timedelta(minutes=10)) is False
    game.refresh_from_db()
    assert game.status == GameStatus.ONGOING and not OverstepCase.objects.exists()
    assert beat_at(back) == 1
    assert flag_of(game) == BLACK_FLAG + 2 * HOUR
    assert record(game, back + timedelta(seconds=1)) is False  # the flag moved: nothing has fallen
    assert beat_at(BLACK_FLAG + 2 * HOUR - timedelta(seconds=1)) == 0  # up all along: no outage
    assert record(game, BLACK_FLAG + 2 * HOUR) is False  # fallen after the last beat: waits for the next
    assert beat_at(BLACK_FLAG + 2 * HOUR) == 0
    assert record(game, BLACK_FLAG + 2 * HOUR) is True
    game.refresh_from_db()
    assert (game.status, game.result) == (GameStatus.FINISHED, "1-0")
    assert "2026-03-03T12:00:00Z" in game.termination


def test_a_flag_that_fell_before_the_outage_stands(arbiter, anna, boris, api):
    """Black's flag fell at 10:00 while the service was up (a beat at 10:05), the beat stopped after: the outage
    from 10:05 gives black nothing, and the flag is recorded."""
    game = daily_game(arbiter, anna, boris, api, timeouts="automatic")
    beat_at(BLACK_FLAG + timedelta(minutes=5))
    assert beat_at(BLACK_FLAG + 2 * HOUR) == 0
    assert credits(game) == []
    assert record(game, BLACK_FLAG + 2 * HOUR) is True
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED


WORDS = {
    "en": "the service was down from {start} to {end}: 0 d 02 h 00 min given back to black",
    "ru": "сервис не работал с {start} до {end}: 0 д 02 ч 00 мин возвращено игроку чёрные",
    "fr": "le service était arrêté du {start} au {end} : 0 j 02 h 00 min rendu(s) à noirs",
}
INSTANTS = {"en": ("2026-03-02 11:00", "2026-03-02 13:00"), "ru": ("02.03.2026 11:00", "02.03.2026 13:00"),
            "fr": ("02/03/2026 11:00", "02/03/2026 13:00")}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_game_page_names_the_outage_in_the_readers_language(arbiter, anna, boris, api, language):
    game = daily_game(arbiter, anna, boris, api)
    beat_at(DOWN_FROM)
    beat_at(DOWN_TO)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(boris)
    client.cookies["django_language"] = language
    page = read_at(client, f"/games/{game.pk}/", DOWN_TO + HOUR)
    assert page.status_code == 200
    start, end = INSTANTS[language]
    text = " ".join(page.content.decode().split())
    assert WORDS[language].format(start=start, end=end) in text, text[text.find("2026 11:00") - 60:][:200]

