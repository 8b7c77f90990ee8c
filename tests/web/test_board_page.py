"""The game page's position (issue 36): the diagram and move list on every chess and draughts page, postal too;
the board to move on for the player on move in a server game only, with the position's legal moves (python-chess,
pydraughts) and its words in the reader's language; the notice of a game corr cannot read from a move; next game
where it's my move, and My games by urgency; in English, Russian and French."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client

from corr.games import services
from tests.conftest import TODAY

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ru", "fr")
WORDS = {  # a word of each part, as the reader reads it
    "en": {"position": "Position", "next": "Next game where it's my move", "unread": "corr cannot read this game"
           " from Black&#x27;s move 1 zz9", "send": "Send %(move)s"},
    "ru": {"position": "Позиция", "next": "Следующая партия, где мой ход", "unread": "corr не может прочитать эту"
           " партию начиная с 1-го хода чёрных zz9", "send": "Отправить %(move)s"},
    "fr": {"position": "Position de la partie", "next": "Partie suivante où c'est mon tour",
           "unread": "corr ne peut pas lire cette partie à partir du coup 1 des noirs zz9", "send": "Envoyer %(move)s"},
}


def page_of(user, game, language="en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def config_of(html: str) -> dict | None:
    found = re.search(r'<script id="move-board-config" type="application/json">(.*?)</script>', html, re.S)
    return None if found is None else json.loads(found.group(1))


def diagram_pieces(html: str) -> dict[str, str]:
    return dict(re.findall(r'<use href="[^"]+" x="\d+" y="\d+" width="40" height="40" data-square="(\w\d)"'
                           r' data-piece="(\w)"/>', html))


def move(api, user, game, number, notation, **dates):
    response = api(user).post(f"/api/games/{game.pk}/moves/", {"number": number, "notation": notation, **dates},
                              format="json")
    assert response.status_code == 201, response.json()


@pytest.fixture
def draughts_game(arbiter, anna, boris, frozen):
    league = services.tournament_create(by=arbiter, name="Draughts league", official_start=TODAY, mode="server",
                                        kind="draughts")
    return services.game_create(by=arbiter, tournament=league, white=anna, black=boris, today=TODAY)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_player_on_move_in_server_chess_gets_the_board_with_the_legal_moves_in_their_language(
        api, server_game, anna, boris, language):
    move(api, anna, server_game, 1, "e4")
    html = page_of(boris, server_game, language)
    config = config_of(html)
    assert config["kind"] == "chess" and config["player"] == "black"
    assert config["placement"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert config["last"] == ["e2", "e4"] and config["check"] is None
    assert len(config["moves"]) == 20
    e5 = next(m for m in config["moves"] if m["label"] == "e5")
    assert e5 == {"from": "e7", "to": "e5", "promotion": "", "notation": "e7e5", "label": "e5",
                  "after": "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"}
    assert config["words"]["send"] == WORDS[language]["send"]
    assert f'id="position">{WORDS[language]["position"]}<' in html
    assert 'type="module" src="/static/corr/move_board.js"' in html
    assert 'id="move-form"' in html  # the typed form stays: the board submits it, and it is the no-script way


def test_the_partner_and_the_arbiter_see_the_diagram_but_no_board(api, server_game, anna, boris, arbiter):
    move(api, anna, server_game, 1, "e4")
    for user in (anna, arbiter):
        html = page_of(user, server_game)
        assert config_of(html) is None and "move_board.js" not in html
        assert diagram_pieces(html)["e4"] == "P" and "e2" not in diagram_pieces(html)
        assert '<ol class="move-list" id="move-list"' in html and ">e4</span>" in html


def test_the_diagram_is_drawn_from_the_readers_side(server_game, anna, boris):
    white, black = page_of(anna, server_game), page_of(boris, server_game)
    # The first square drawn (top left) is a8 for white, h1 for black.
    assert re.search(r'<rect x="0" y="0"[^>]*/><use [^>]*data-square="a8"', white)
    assert re.search(r'<rect x="0" y="0"[^>]*/><use [^>]*data-square="h1"', black)


def test_a_promotion_and_a_check_are_in_the_board_config(api, server_game, anna, boris):
    for number, white, black in ((1, "a4", "b5"), (2, "axb5", "a6"), (3, "bxa6", "Bb7"), (4, "axb7", "Nc6")):
        move(api, anna, server_game, number, white)
        move(api, boris, server_game, number, black)
    config = config_of(page_of(anna, server_game))
    promotions = sorted(m["notation"] for m in config["moves"] if m["from"] == "b7" and m["to"] == "b8")
    assert promotions == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    queen = next(m for m in config["moves"] if m["notation"] == "b7b8q")
    assert queen["label"] == "b8=Q" and queen["after"].startswith("rQ1qkbnr/")


def test_a_king_in_check_is_marked(api, server_game, anna, boris):
    move(api, anna, server_game, 1, "e4")
    move(api, boris, server_game, 1, "f5")
    move(api, anna, server_game, 2, "Qh5+")
    config = config_of(page_of(boris, server_game))
    assert config["check"] == "e8"
    assert [m["label"] for m in config["moves"]] == ["g6"]  # Kf7 stays on the queen's diagonal


def test_a_draughts_board_offers_only_the_forced_capture_written_with_its_squares(api, draughts_game, anna, boris):
    html = page_of(anna, draughts_game)
    start = config_of(html)
    assert start["kind"] == "draughts" and start["sprite"] == "/static/corr/draughts.svg"
    assert sorted(m["notation"] for m in start["moves"]) == [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    assert start["placement"] == "1p1p1p1p/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/P1P1P1P1"
    move(api, anna, draughts_game, 1, "c3-d4")
    move(api, boris, draughts_game, 1, "f6-e5")
    config = config_of(page_of(anna, draughts_game))
    assert [(m["notation"], m["from"], m["to"]) for m in config["moves"]] == [("d4:f6", "d4", "f6")]
    assert config["moves"][0]["after"] == "1p1p1p1p/p1p1p1p1/1p1p1P1p/8/8/P3P1P1/1P1P1P1P/P1P1P1P1"
    assert config["last"] == ["f6", "e5"]


def test_a_draughts_diagram_names_men_in_words(api, draughts_game, boris):
    html = page_of(boris, draughts_game, "ru")
    assert "белая шашка a1" in html and "чёрная шашка h8" in html


def test_go_has_neither_diagram_nor_board(arbiter, anna, boris, frozen):
    go = services.tournament_create(by=arbiter, name="Go league", official_start=TODAY, mode="server", kind="go")
    game = services.game_create(by=arbiter, tournament=go, white=anna, black=boris, today=TODAY)
    pages = [page_of(anna, game), page_of(boris, game)]
    for html in pages:
        assert 'id="diagram-svg"' not in html and config_of(html) is None and 'id="position"' not in html
    assert sum('id="move-form"' in html for html in pages) == 1  # the player on move types the point


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_postal_game_has_its_diagram_and_an_unreadable_move_is_named_with_the_arbiters_link(
        api, postal_game, anna, boris, arbiter, language):
    move(api, anna, postal_game, 1, "e4", sent_on="2026-01-12")
    move(api, boris, postal_game, 1, "zz9", received_on="2026-01-16", sent_on="2026-01-17")
    html = page_of(anna, postal_game, language)
    assert config_of(html) is None  # a postal move is typed with its dates
    assert diagram_pieces(html)["e4"] == "P"  # the position before the move corr cannot read
    assert WORDS[language]["unread"] in html
    assert 'id="unread-correct"' not in html  # a player corrects nothing
    assert '<span class="move unread">zz9</span>' in html
    ruling = page_of(arbiter, postal_game, language)
    seq = re.search(r'<a href="#event-(\d+)" id="unread-correct">', ruling).group(1)
    assert re.search(rf'<tr id="event-{seq}">.*?zz9', ruling, re.S)  # the history line of zz9, with its forms
    assert f'name="event" value="{seq}"' in ruling


def test_a_readable_postal_game_has_no_notice(api, postal_game, anna):
    move(api, anna, postal_game, 1, "Nf3", sent_on="2026-01-12")
    html = page_of(anna, postal_game)
    assert 'id="unread"' not in html and diagram_pieces(html)["f3"] == "N"


def games_with_deadlines(arbiter, anna, boris, api):
    """Three server games of anna's: on move with deadlines 30 days from starts 20 days and 1 day ago, and one
    where she waits (started 25 days ago: the nearest deadline, were it hers)."""
    games = {}
    for name, days_ago in (("later", 1), ("soonest", 20), ("waiting", 25)):
        tournament = services.tournament_create(by=arbiter, name=f"Cup {name}", mode="server",
                                                official_start=TODAY - timedelta(days=days_ago))
        games[name] = services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=TODAY)
    move(api, anna, games["waiting"], 1, "e4")
    return games


@pytest.mark.parametrize("language", LANGUAGES)
def test_next_game_goes_to_the_nearest_deadline_but_the_game_shown(api, arbiter, anna, boris, frozen, language):
    games = games_with_deadlines(arbiter, anna, boris, api)
    link = r'<p id="next-game"><a href="/games/(\d+)/">'
    assert re.search(link, page_of(anna, games["waiting"], language)).group(1) == str(games["soonest"].pk)
    assert WORDS[language]["next"] in page_of(anna, games["waiting"], language)
    assert re.search(link, page_of(anna, games["soonest"], language)).group(1) == str(games["later"].pk)
    assert re.search(link, page_of(anna, games["later"])).group(1) == str(games["soonest"].pk)
    assert 'id="next-game"' not in page_of(arbiter, games["soonest"])  # an arbiter plays none


def test_boris_is_sent_to_the_only_game_where_he_is_on_move(api, arbiter, anna, boris, frozen):
    games = games_with_deadlines(arbiter, anna, boris, api)
    html = page_of(boris, games["later"])
    assert re.search(r'<p id="next-game"><a href="/games/(\d+)/">', html).group(1) == str(games["waiting"].pk)
    assert 'id="next-game"' not in page_of(boris, games["waiting"])


def test_my_games_puts_my_moves_first_by_deadline_and_links_the_next(api, arbiter, anna, boris, frozen):
    games = games_with_deadlines(arbiter, anna, boris, api)
    client = Client()
    client.force_login(anna)
    html = client.get("/games/").content.decode()
    order = [int(pk) for pk in re.findall(r'<td data-label="game"><a href="/games/(\d+)/">', html)]
    assert order == [games["soonest"].pk, games["later"].pk, games["waiting"].pk]
    assert re.search(r'<p id="next-game"><a href="/games/(\d+)/">', html).group(1) == str(games["soonest"].pk)
