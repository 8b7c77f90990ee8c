"""Conditional moves on the game page (issue 28): a line sent with the move, seen, replaced and cancelled by
its owner only; refusals name the line of the text, in the reader's language; the history marks the replies."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from corr.games import services
from corr.models import ConditionalTree, GameEvent

from ..conftest import TODAY

pytestmark = pytest.mark.django_db

LINE = "e5 Nf3\n  Nc6 Bb5\n  Nf6 Nxe5\nc5 Nf3"


def client(user, language: str = "en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    c.force_login(user)
    return c


def text(html: str) -> str:
    words = re.sub(r"<(script|style|title)[^>]*>.*?</\1>", " ", html, flags=re.S)
    words = re.sub(r"<[^>]+>", " ", words).replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")
    return re.sub(r"\s+", " ", words.replace("&gt;", ">"))


def page(user, game, language: str = "en") -> str:
    response = client(user, language).get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def send(user, game, number, notation, line="", language="en", status=302):
    response = client(user, language).post(f"/games/{game.pk}/move/", {
        "number": number, "notation": notation, "conditional": line})
    assert response.status_code == status, text(response.content.decode())[-2000:]
    return text(response.content.decode())


def moves(game):
    return [(e.player, e.number, e.notation, e.variant) for e in GameEvent.objects.filter(game=game, kind="move")
            .order_by("seq")]


def test_the_player_on_move_sends_a_line_with_the_move_and_sees_it_alone(server_game, anna, boris):
    html = page(anna, server_game)
    assert 'name="conditional"' in html and "Conditional line (optional)" in text(html)
    assert "One branch a line: the partner's move, then your reply" in text(html)
    assert 'name="conditional"' not in page(boris, server_game)  # not on move: no form at all
    send(anna, server_game, 1, "e4", LINE)
    tree = ConditionalTree.objects.get(game=server_game, player="white")
    assert tree.sent_with_move == 1 and tree.tree[0]["next"][0] == {"if": "Nc6", "then": "Bb5", "next": []}
    words = text(page(anna, server_game))
    assert "Your conditional line, sent with move 1" in words
    assert "e5 → Nf3 Nc6 → Bb5 Nf6 → Nxe5 c5 → Nf3" in words
    assert "Cancel the line" in words and "Replace the line" in words
    html = page(anna, server_game)
    assert "e5 Nf3\n  Nc6 Bb5\n  Nf6 Nxe5\nc5 Nf3</textarea>" in html  # the replacement prefilled
    # The partner, now on move, has a text area of their own, empty; nothing of anna's line.
    html = page(boris, server_game)
    assert re.search(r'id="move-conditional"[^>]*>\s*</textarea>', html)
    partner = text(html)
    for secret in ("Your conditional line", "Nxe5", "→", "Cancel the line", "Replace the line"):
        assert secret not in partner
    for language in ("ru", "fr"):
        assert "Nxe5" not in page(boris, server_game, language)


def test_the_line_fires_and_the_history_marks_the_reply_in_every_language(server_game, anna, boris):
    send(anna, server_game, 1, "e4", LINE)
    services.move_submit(game=server_game, by=boris, number=1, notation="e5", today=TODAY)
    assert moves(server_game)[-1] == ("white", 2, "Nf3", "conditional")
    words = text(page(anna, server_game))
    assert "conditional reply from the line sent with move 1" in words
    assert "Nc6 → Bb5 Nf6 → Nxe5" in words and "e5 → Nf3" not in words
    assert "условный ответ из варианта, отправленного с ходом 1" in text(page(anna, server_game, "ru"))
    assert "réponse conditionnelle de la variante envoyée avec le coup 1" in text(page(boris, server_game, "fr"))


def test_the_ledger_says_which_line_a_reply_came_from(server_game, anna, boris):
    send(anna, server_game, 1, "e4", LINE)
    services.move_submit(game=server_game, by=boris, number=1, notation="e5", today=TODAY)
    for language, words in (("en", "conditional reply from the line sent with move 1"),
                            ("ru", "условный ответ из варианта, отправленного с ходом 1"),
                            ("fr", "réponse conditionnelle de la variante envoyée avec le coup 1")):
        html = page(anna, server_game, language)
        ledger = text(re.search(  # the ledger's table: the one with "days" and "not counted" columns
r'<h2>[^<]*</h2>\s*<table class="cards">\s*<tr class="head"><th>[^<]*</th><th>[^<]*'
                                r'</th><th>[^<]*</th><th class="num">.*?</table>', html, re.S).group(0))
        assert words in ledger, ledger
        assert "played from the player's own conditional variant" not in ledger


def test_an_illegal_branch_is_refused_naming_its_line_and_nothing_is_stored(server_game, anna):
    words = send(anna, server_game, 1, "e4", "e5 Nf3\n  Nc6 Bb4", status=400)
    assert "Not saved. Conditional line (optional): Line 2: white's move 3 Bb4 is not a legal move after 2..." in words
    assert "conditional[" not in words
    assert moves(server_game) == [] and not ConditionalTree.objects.exists()
    words = send(anna, server_game, 1, "e4", "e5 Nf3\n  Nc6 Bb4", language="ru", status=400)
    assert "строка 2" in words.lower() and "Bb4" in words
    words = send(anna, server_game, 1, "e4", "e5 Nf3\n  Nc6 Bb4", language="fr", status=400)
    assert "ligne 2" in words.lower() and "Bb4" in words
    assert moves(server_game) == []


def test_a_line_that_is_no_branch_and_a_repeated_branch_are_refused_by_line(server_game, anna):
    words = send(anna, server_game, 1, "e4", "e5 Nf3\n  Nc6", status=400)
    assert "line 2: write the partner's move and your reply" in words
    words = send(anna, server_game, 1, "e4", "e5 Nf3\nc5 Nf3\ne7e5 d4", status=400)
    assert "line 3: e5 is already answered by line 1 at this level" in words.lower()
    assert "ligne 2" in send(anna, server_game, 1, "e4", "e5 Nf3\n  Nc6", language="fr", status=400).lower()
    assert moves(server_game) == [] and not ConditionalTree.objects.exists()


def test_the_owner_replaces_the_line_while_the_partner_is_to_move_and_cancels_it(server_game, anna, boris):
    send(anna, server_game, 1, "e4", LINE)
    url = f"/games/{server_game.pk}/conditional/"
    response = client(anna).post(url, {"conditional": "d5 exd5\n  Qxd5 Nc3"})
    assert response.status_code == 302
    tree = ConditionalTree.objects.get(game=server_game, player="white")
    assert tree.tree == [{"if": "d5", "then": "exd5", "next": [{"if": "Qxd5", "then": "Nc3", "next": []}]}]
    assert tree.sent_with_move == 1
    response = client(anna).post(url, {"conditional": "d5 exd5\n  Qxd5 Nf6"})
    assert response.status_code == 400
    assert "Line 2: white's move 3 Nf6 is not a legal move after 2... Qxd5" in text(response.content.decode())
    assert ConditionalTree.objects.get(game=server_game).tree == tree.tree  # nothing stored on refusal
    assert client(boris).post(f"/games/{server_game.pk}/conditional/cancel/").status_code == 302
    assert ConditionalTree.objects.filter(player="white").exists()  # the partner cancels only their own
    response = client(anna).post(f"/games/{server_game.pk}/conditional/cancel/", follow=True)
    assert "Your conditional line is cancelled." in text(response.content.decode())
    assert not ConditionalTree.objects.exists()
    assert "Your conditional line" not in text(page(anna, server_game))


def test_a_postal_game_has_no_conditional_line(postal_game, anna):
    assert 'name="conditional"' not in page(anna, postal_game)
