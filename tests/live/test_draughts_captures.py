"""A Russian draughts capture is the one its player named: the squares between choose among captures that start
and end alike, and a capture named by its ends alone that two captures fit is refused (issue 28's limit, lifted).

Through the HTTP stack, in the player's language: the refusal names the field and both captures, and stores nothing.
"""

from __future__ import annotations

import pytest

from corr.models import LiveEvent, LiveGame

from .conftest import ONE_HOUR, S, START_MS, live_tournament

pytestmark = pytest.mark.django_db(transaction=True)

# White's king on a5 reaches h8 over b4 and g7 (a5:c3:h8), or over b4, f2, f4 and g7 (a5:e1:g3:e5:h8).
TWO_WAYS = "W:WKa5:Bc5,f4,f2,g7,c1,b6,h6,b4"


@pytest.fixture
def two_ways(arbiter, clock, create_game):
    game_id = create_game(live_tournament(arbiter, ONE_HOUR, kind="draughts", name="Draughts"))
    # The facts before the move: a position read so far, white to move.
    LiveGame.objects.filter(pk=game_id).update(position=TWO_WAYS)
    clock.advance_to(START_MS + 5 * S)
    return game_id


@pytest.mark.parametrize("language, words", [
    ("en", "'a5:h8' fits several captures for white's move 1: name the squares between (a5:c3:h8, a5:e1:g3:e5:h8)"),
    ("ru", "a5:c3:h8, a5:e1:g3:e5:h8"),
    ("fr", "a5:c3:h8, a5:e1:g3:e5:h8"),
])
def test_a_capture_named_by_its_ends_that_two_captures_fit_is_refused_naming_both(api, anna, two_ways, language,
                                                                                    words):
    r = api(anna).post(f"/api/games/{two_ways}/moves/", {"number": 1, "notation": "a5:h8"}, format="json",
                       HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400, r.json()
    assert r.json()["field"] == "notation" and words in r.json()["detail"], r.json()
    if language != "en":
        assert "fits several captures" not in r.json()["detail"]
    assert not LiveEvent.objects.filter(game_id=two_ways, kind="move").exists()
    assert LiveGame.objects.get(pk=two_ways).position == TWO_WAYS


def test_the_squares_named_between_choose_the_capture_the_game_goes_on_from(api, anna, two_ways):
    r = api(anna).post(f"/api/games/{two_ways}/moves/", {"number": 1, "notation": "a5:e1:h8"}, format="json")
    assert r.status_code == 201, r.json()
    # The longer capture took f2 and f4 as well: black's men left are c5, c1, b6 and h6.
    position = LiveGame.objects.get(pk=two_ways).position
    assert position.startswith("B:WKh8:B") and set(position.split(":B")[1].split(",")) == {"c5", "c1", "b6", "h6"}
    assert LiveEvent.objects.get(game_id=two_ways, kind="move").notation == "a5:e1:h8"
