"""The header of a live tournament's and a live game's page says its control in durations, not days."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from corr.clock.presets import PRESETS
from corr.games import services

from ..live.conftest import START, START_MS, S

pytestmark = pytest.mark.django_db(transaction=True)

CONTROL = re.compile(r'<span id="time-control">([^<]*)</span>')


def header(user, path: str, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return CONTROL.search(response.content.decode())[1]


@pytest.mark.parametrize("language, fide, byoyomi, fischer", [
    ("en", "40 moves in 1 h 30 min + 30 s a move, then the rest of the game in 30 min + 30 s a move, accumulated",
     "Japanese byo-yomi: 1 h, then 5 periods of 30 s", "Fischer: 1 h 30 min + 30 s a move"),
    ("ru", "40 ходов за 1 ч 30 мин + 30 с на ход, затем остаток партии за 30 мин + 30 с на ход, с накоплением",
     "Японское бёёми: 1 ч, затем 5 периодов по 30 с", "Фишер: 1 ч 30 мин + 30 с на ход"),
    ("fr", "40 coups en 1 h 30 min + 30 s par coup, puis le reste de la partie en 30 min + 30 s par coup, cumulé",
     "Byo-yomi japonais : 1 h, puis 5 périodes de 30 s", "Fischer : 1 h 30 min + 30 s par coup"),
])
def test_a_live_control_reads_in_hours_minutes_and_seconds_in_the_pages_language(
        arbiter, anna, clock, create_game, language, fide, byoyomi, fischer):
    said = {}
    for name, ruleset in [("fide", PRESETS["fide_classical_live"]), ("byoyomi", PRESETS["go_byoyomi_live"]),
                          ("fischer", {"time_control": {"system": "fischer", "unit": "seconds", "initial": 5400,
                                                        "increment": 30}})]:
        t = services.tournament_create(by=arbiter, name=name, official_start=START.date(), mode="live",
                                       ruleset=ruleset, kind="go" if name == "byoyomi" else "chess")
        game_id = create_game(t)
        said[name] = (header(arbiter, f"/tournaments/{t.pk}/", language),
                      header(anna, f"/games/{game_id}/", language))
    assert said == {"fide": (fide, fide), "byoyomi": (byoyomi, byoyomi), "fischer": (fischer, fischer)}
    assert not any(word in " ".join(map(" ".join, said.values())) for word in ("day", "дн", "jour"))


@pytest.mark.parametrize("language, expected", [
    ("en", ["sudden death: 0.25 s for the game", "sudden death: 1 h 0.5 s for the game"]),
    ("ru", ["внезапная смерть: 0,25 с на партию", "внезапная смерть: 1 ч 0,5 с на партию"]),
    ("fr", ["mort subite : 0,25 s pour la partie", "mort subite : 1 h 0,5 s pour la partie"]),
])
def test_fractions_of_a_second_read_in_the_languages_decimal_form(arbiter, language, expected):
    said = []
    for n, seconds in enumerate((0.25, 3600.5)):
        t = services.tournament_create(by=arbiter, name=f"t{n}", official_start=START.date(), mode="live",
                                       ruleset={"time_control": {"system": "sudden_death", "unit": "seconds",
                                                                 "time": seconds}})
        said.append(header(arbiter, f"/tournaments/{t.pk}/", language))
    assert said == expected


def test_a_days_control_still_reads_in_days_with_its_plural(arbiter):
    t = services.tournament_create(by=arbiter, name="DGS", official_start=START.date(), mode="server",
                                   ruleset={"time_control": {"system": "byoyomi", "main": 30, "periods": 1,
                                                             "period_time": 2}})
    assert header(arbiter, f"/tournaments/{t.pk}/", "ru") == "Японское бёёми: 30 дней, затем 1 период по 2 дня"
    assert header(arbiter, f"/tournaments/{t.pk}/", "en") == "Japanese byo-yomi: 30 days, then 1 period of 2 days"


def test_my_games_lists_a_live_game_with_its_clock_and_no_days(api, arbiter, anna, boris, clock,
                                                               create_game):
    t = services.tournament_create(by=arbiter, name="Blitz", official_start=START.date(), mode="live",
                                   ruleset={"time_control": {"system": "fischer", "unit": "seconds",
                                                             "initial": 300, "increment": 2}})
    game_id = create_game(t)
    clock.advance_to(START_MS + 65 * S)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(anna)
    r = client.get("/games/")  # was a 500: the days calculator refused the live ruleset
    assert r.status_code == 200
    page = r.content.decode()
    assert f'href="/games/{game_id}/"' in page
    row = re.search(rf'/games/{game_id}/.*?</tr>', page, re.S)[0]
    assert re.search(r'class="first live-left" colspan="2">3:55</td>', row)  # 300 s - 65 s, white's running
    assert "<strong>you</strong>" in row
    # The opponent's clock beside the opponent, not in the column of the control used (issue 25, finding 7).
    assert re.search(r'data-label="opponent">.*boris.*\(5:00 left\)', row)
    assert re.search(r'data-label="control used">-</td>', row)


def test_the_game_file_of_a_live_game_is_the_live_file_manage_py_clock_reads(api, arbiter, anna, boris, clock,
                                                                             create_game):
    import json

    from corr.clock.live import live_clock
    from corr.clock.live.gamefile import read_live_game

    t = services.tournament_create(by=arbiter, name="Blitz", official_start=START.date(), mode="live",
                                   ruleset={"time_control": {"system": "fischer", "unit": "seconds",
                                                             "initial": 300, "increment": 2}})
    game_id = create_game(t)
    clock.advance_to(START_MS + 7 * S)
    assert api(anna).post(f"/api/games/{game_id}/moves/", {"number": 1, "notation": "e4"},
                          format="json").status_code == 201
    clock.advance(3 * S)
    client = Client()
    client.force_login(boris)
    r = client.get(f"/games/{game_id}/file/")
    assert r.status_code == 200 and r["Content-Disposition"] == f'attachment; filename="game-{game_id}.json"'
    data = json.loads(r.content)
    assert data["now"] == "2026-03-01T12:00:10Z" and [e["type"] for e in data["events"]] == ["start", "move"]
    ruleset, events, now = read_live_game(data)
    replayed = live_clock(ruleset, events, now)
    live = api(boris).get(f"/api/games/{game_id}/").json()["live"]
    assert {side: p.remaining_ms for side, p in replayed.players.items()} == {
        side: p["remaining_ms"] for side, p in live["players"].items()} == {"white": 295 * S, "black": 297 * S}
