"""A received postal variant recorded from the game page (50.4.8, issue 28): the form posts to the service of
``POST /api/games/{id}/variants/``; a refusal stores nothing and names the field and the rule in the page's
language."""

from __future__ import annotations

from datetime import date

import pytest

from corr.games import services
from corr.models import GameEvent

from ..conftest import TODAY
from .test_conditional_page import client, text

pytestmark = pytest.mark.django_db


def moves(game):
    return [(e.player, e.number, e.notation, e.variant, e.received_on, e.sent_on)
            for e in GameEvent.objects.filter(game=game, kind="move").order_by("seq")]


def post(user, game, line, accepted_through, language="en", status=302) -> str:
    response = client(user, language).post(f"/games/{game.pk}/variant/", {
        "line": line, "accepted_through": accepted_through})
    assert response.status_code == status, text(response.content.decode())[-2000:]
    return text(response.content.decode())


def test_the_receiver_on_move_sees_the_form_and_the_partner_does_not(with_variant, anna, boris):
    html = client(boris).get(f"/games/{with_variant.pk}/").content.decode()
    assert 'id="variant-form"' in html and 'name="accepted_through"' in html
    words = text(html)
    assert "Record a variant you received (Correspondence rules 50.4.8)" in words
    assert "Your next move is 2." in words
    assert 'id="variant-form"' not in client(anna).get(f"/games/{with_variant.pk}/").content.decode()
    html = client(boris, "ru").get(f"/games/{with_variant.pk}/").content.decode()
    assert "Правила игры по переписке 50.4.8" in text(html) and 'id="variant-form"' in html


def test_a_variant_posted_from_the_page_is_stored_as_the_api_stores_it(with_variant, anna, boris):
    before = moves(with_variant)
    c = client(boris)
    r = c.post(f"/games/{with_variant.pk}/variant/", {"line": "2... Nc6 3. Bb5 a6 4.Ba4, Nf6 5. O-O",
                                                     "accepted_through": 3})
    assert r.status_code == 302, text(r.content.decode())[-2000:]
    assert moves(with_variant)[len(before):] == [
        ("black", 2, "Nc6", "accepted", None, None), ("white", 3, "Bb5", "conditional", None, None),
        ("black", 3, "a6", "accepted", None, None), ("white", 4, "Ba4", "conditional", None, None)]
    words = text(c.get(f"/games/{with_variant.pk}/").content.decode())
    assert "Saved." in words and "Your next move is 4." in words
    # The receiver's next move is an ordinary one, as after the API's.
    services.move_submit(game=with_variant, by=boris, number=4, notation="Nf6", received_on=date(2026, 2, 24),
                         sent_on=date(2026, 2, 26), today=TODAY)
    assert moves(with_variant)[-1][:4] == ("black", 4, "Nf6", "")


@pytest.mark.parametrize("language, field, rule, words", [
    ("en", "Accepted through your move", "Correspondence rules 50.4.8",
     "The last move you accept must be one of your moves in the line: 2 to 3"),
    ("ru", "Принимаю до своего хода", "Правила игры по переписке 50.4.8", "2 до 3"),
    ("fr", "Accepté jusqu'à votre coup", "Règles du jeu par correspondance 50.4.8", "de 2 à 3"),
])
def test_a_refusal_names_the_field_and_the_rule_in_the_page_language_and_stores_nothing(
        with_variant, boris, language, field, rule, words):
    before = moves(with_variant)
    page = post(boris, with_variant, "Nc6 Bb5 a6 Ba4", 5, language=language, status=400)
    assert moves(with_variant) == before
    assert field in page and rule in page and words in page, page[:3000]
    assert "accepted_through" not in page


def test_a_line_with_no_reply_after_the_last_accepted_move_is_refused(with_variant, boris):
    before = moves(with_variant)
    page = post(boris, with_variant, "Nc6 Bb5 a6", 3, status=400)
    assert moves(with_variant) == before
    assert ("Accepted through your move: The line has no reply of white after your move 3: send that move as an"
            " ordinary move (Correspondence rules 50.4.8)") in page
    assert 'value="Nc6 Bb5 a6"' in client(boris).post(f"/games/{with_variant.pk}/variant/", {
        "line": "Nc6 Bb5 a6", "accepted_through": 3}).content.decode()  # what was typed comes back


@pytest.mark.parametrize("line, accepted, message", [
    ("  2...  ", 2, "Variant received: write the moves of the variant, e.g. 2... Nc6 3. Bb5 a6 4. Ba4"),
    (" ".join(["Nc6", "Bb5"] * 21), 2, "at most 40 moves, yours and your partner's, got 42"),
    ("Nc6 Bb5", "", "Accepted through your move: This field is required."),
])
def test_a_form_that_is_no_variant_is_refused_before_the_service(with_variant, boris, line, accepted,
                                                                 message):
    before = moves(with_variant)
    assert message in post(boris, with_variant, line, accepted, status=400)
    assert moves(with_variant) == before


def test_the_partner_not_on_move_and_a_server_game_are_refused(with_variant, anna, server_game):
    before = moves(with_variant)
    page = post(anna, with_variant, "Nc6 Bb5", 2, status=409)
    assert "a variant is recorded by the player who received it" in page and moves(with_variant) == before
    page = post(anna, server_game, "e4 e5", 1, status=400)
    assert "in a server game conditional moves are sent with the move" in page
    assert not GameEvent.objects.filter(game=server_game, kind="move").exists()
