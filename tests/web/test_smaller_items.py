"""The smaller items of issue 25 (finding 7), each as its reader meets it. Frozen at 2026-03-01; the postal cup
starts on 2026-01-10 and presumes 4 days of transit (tests/conftest.py)."""

from __future__ import annotations

import io
import re
from datetime import date

import chess.pgn
import pytest
from django.test import Client

from corr.games import services
from corr.models import Game, OverstepCase
from corr.nightly.cases import overstep_confirm
from corr.web import svg
from corr.games.turns import Turn, TurnState

from ..conftest import NOW, TODAY

pytestmark = pytest.mark.django_db


def page(user, path: str, language: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(path).content.decode()


@pytest.mark.parametrize("kind, language, placeholder", [
    ("chess", "fr", "par ex. Nf3"),  # SAN in every language: "Cf3" is no move a chess program reads
    ("chess", "ru", "например, Nf3"),
    ("go", "en", "e.g. D4"),
    ("draughts", "en", "e.g. c3-d4"),
])
def test_the_move_placeholder_is_a_move_the_export_reads(arbiter, anna, boris, kind, language, placeholder, frozen):
    t = services.tournament_create(by=arbiter, name="Cup", official_start=TODAY, mode="postal", kind=kind)
    game = services.game_create(by=arbiter, tournament=t, white=anna, black=boris, first="white", today=TODAY)
    html = page(anna, f"/games/{game.pk}/", language)
    assert f'placeholder="{placeholder}"' in html


def test_a_go_game_created_without_first_starts_with_black(api, arbiter, anna, boris, frozen):
    go = services.tournament_create(by=arbiter, name="Go by post", official_start=TODAY, mode="postal", kind="go")
    chess_cup = services.tournament_create(by=arbiter, name="Chess", official_start=TODAY, mode="postal")
    made = {}
    for name, body in {"go": {"tournament": go.pk}, "chess": {"tournament": chess_cup.pk},
                       "go in chess": {"tournament": chess_cup.pk, "kind": "go"},
                       "go, white said": {"tournament": go.pk, "first": "white"}}.items():
        r = api(arbiter).post("/api/games/", {"white": "anna", "black": "boris", **body}, format="json")
        assert r.status_code == 201, r.json()
        made[name] = (r.json()["first"], r.json()["to_move"])
    assert made == {"go": ("black", "black"), "chess": ("white", "white"), "go in chess": ("black", "black"),
                    "go, white said": ("white", "white")}


def test_my_games_lists_my_moves_first(postal, server, arbiter, anna, boris, eve, frozen):
    waiting = services.game_create(by=arbiter, tournament=postal, white=boris, black=anna, today=TODAY)
    mine = services.game_create(by=arbiter, tournament=server, white=anna, black=eve, today=TODAY)
    html = page(anna, "/games/")
    order = [int(n) for n in re.findall(r'<a href="/games/(\d+)/">#', html)]
    assert order.index(mine.pk) < order.index(waiting.pk), order


def test_games_by_deadline_name_the_player_as_the_cards_do(postal_game, arbiter):
    html = page(arbiter, f"/tournaments/{postal_game.tournament_id}/")
    rows = html.split("Games by deadline")[1]
    assert re.search(r'data-label="player"><span class="player-name">anna</span> \(white\)', rows)
    assert re.search(r'data-label="player"><span class="player-name">boris</span> \(black\)', rows)


def test_after_a_confirmed_overstep_is_reopened_the_mover_is_not_told_a_case_is_open(api, postal_game, arbiter,
                                                                                    anna):
    case = OverstepCase.objects.get(game=postal_game, player="white")  # 50 days without a move
    overstep_confirm(case=case, by=arbiter, now=NOW, today=TODAY)
    # Issue 39: the reopening credits the overstep; the case, reopened with the game, is withdrawn by the clock.
    assert api(arbiter).post(f"/api/games/{postal_game.pk}/reopen/", {"note": "postmark in time", "overstep": "credit"},
                             format="json").status_code == 201
    assert not OverstepCase.objects.filter(game=postal_game, status__in=["open", "confirmed"]).exists()
    r = api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "sent_on": "2026-03-01",
                                                                "mail": "registered"}, format="json")
    assert r.status_code == 201, r.json()
    warnings = r.json()["warnings"]
    assert not any("is open" in w for w in warnings), warnings
    ru = api(anna).get(f"/api/games/{postal_game.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert ru.status_code == 200


def test_the_pgn_export_carries_the_pending_moves_penalty(api, postal_game, arbiter, anna, boris):
    assert api(anna).post(f"/api/games/{postal_game.pk}/moves/", {"number": 1, "notation": "e4",
                                                                   "sent_on": "2026-02-24"}, format="json"
                          ).status_code == 201
    services.penalty_assess(game=postal_game, by=arbiter, player="black", reason="address_error", today=TODAY)
    text = api(boris).get(f"/api/games/{postal_game.pk}/export/pgn/").content.decode()
    game = chess.pgn.read_game(io.StringIO(text))
    comments = " ".join([game.comment, *(node.comment for node in game.mainline())])
    # Boris's move 1 is pending (received 02-28, 1 day so far) and carries the penalty charged to it: 5 days.
    assert "black's move 1 pending: received 2026-02-28; days so far 1; penalty 5" in comments, comments


def test_the_timeline_writes_its_days_the_pages_way_and_keeps_the_last_inside():
    class Row:  # what the tournament page hands the timeline
        game = Game(pk=3)
        player, name, words, remaining_days, time_trouble = "white", "anna", "on move", 5, False
        turn = Turn("white", TurnState.ON_MOVE, until=date(2026, 3, 6))

    from django.utils import translation

    for language, first in (("en", "03-01"), ("ru", "01.03"), ("fr", "01/03")):
        with translation.override(language):
            drawn = str(svg.deadline_timeline(rows=[Row()], today=TODAY))
        assert f">{first}</text>" in drawn, (language, drawn[:300])
        assert re.search(r'text-anchor="end" font-size="13">[^<]+</text>(?!.*font-size="13")', drawn, re.S)


def test_the_leave_page_writes_its_days_and_dates_the_languages_way(postal_game, anna, frozen):
    from corr.games.services.leave import leave_book

    leave_book(by=anna, first=date(2026, 3, 10), last=date(2026, 3, 10), now=NOW)
    ru = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page(anna, "/leave/", "ru")))
    assert "10.03.2026 – 10.03.2026 (1 день)" in ru, ru  # not 2026-03-10 (1)
    assert "не меньше 1 дня, бронь за 1 день" in ru  # not "at least 1 days, booked 1 days ahead"
    en = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page(anna, "/leave/", "en")))
    assert "at least 1 day, booked 1 day ahead" in en and "45 days in 2026" in en
