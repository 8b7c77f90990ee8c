"""What a player receives of the ledger after the server played a conditional reply (issue 28, 004 50.4.8): the
API's JSON (a read, and a move's answer with ``?ledger=1``) and the ledger's CSV name the line the reply came
from, as the game page does; the days stay the calculator's."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from .test_conditional_api import RUY, move, post

pytestmark = pytest.mark.django_db

LINE = "conditional reply from the line sent with move {} (50.4.8)"
PAGE_LINE = "conditional reply from the line sent with move {} (Correspondence rules 50.4.8)"
"""The line as the page and the CSV word it: its rule by rulebook."""
CALCULATOR = "played from the player's own conditional variant: costs nothing"


def variant_lines(ledger: list[dict]) -> list[tuple]:
    return [(line["player"], line["move"], line["days"], line["note"]) for line in ledger
            if line["kind"] == "variant_move"]


@pytest.fixture
def fired(api, server_game, anna, boris, frozen):
    """1. e4 sent with the Ruy Lopez line, 2. Nf3 fired by 1... e5, then 2... d6 drops it, 3. Nc3 by hand with a
    new line that fires 4. Bb5 on 3... Nc6: two replies, from the lines sent with moves 1 and 3."""
    move(api, anna, server_game, 1, "e4", conditional=RUY)
    frozen.shift(timedelta(days=2))
    move(api, boris, server_game, 1, "e5")
    move(api, boris, server_game, 2, "d6")  # not in the line: the tree is dropped
    move(api, anna, server_game, 3, "Nc3", conditional=[{"if": "Nc6", "then": "Bb5"}])
    return server_game


def test_the_api_ledger_names_the_line_each_reply_came_from(api, fired, anna, boris):
    clock = api(boris).get(f"/api/games/{fired.pk}/").json()["clock"]
    assert variant_lines(clock["ledger"]) == [("white", 2, 0, LINE.format(1))]
    r = post(api, boris, fired, "moves/?ledger=1", {"number": 3, "notation": "Nc6"})
    assert r.status_code == 201, r.json()
    assert variant_lines(r.json()["clock"]["ledger"]) == [("white", 2, 0, LINE.format(1)),
                                                          ("white", 4, 0, LINE.format(3))]
    for user in (anna, boris):  # the read says the same, to both players
        ledger = api(user).get(f"/api/games/{fired.pk}/").json()["clock"]["ledger"]
        assert ledger == r.json()["clock"]["ledger"]
        assert CALCULATOR not in str(ledger)


def test_the_csv_ledger_names_the_line_each_reply_came_from(api, fired, anna, boris):
    move(api, boris, fired, 3, "Nc6")
    for user in (anna, boris):
        r = api(user).get(f"/api/games/{fired.pk}/export/csv/")
        assert r.status_code == 200 and r["Content-Type"] == "text/csv; charset=utf-8"
        text = r.content.decode()
        assert CALCULATOR not in text
        rows = [row for row in csv.DictReader(io.StringIO(text)) if row["kind_code"] == "variant_move"]
        assert [(row["player"], row["move"], row["days"], row["note"]) for row in rows] == [
            ("white", "2", "0", PAGE_LINE.format(1)), ("white", "4", "0", PAGE_LINE.format(3))]


def test_the_words_follow_the_event_in_force(api, fired, arbiter, anna):
    """An arbiter's correction of the reply is stored with the arbiter's note: the ledger says the calculator's
    words on it, as on a variant move typed by hand."""
    history = api(anna).get(f"/api/games/{fired.pk}/history/").json()
    reply = next(h for h in history if h["variant"] == "conditional")
    r = post(api, arbiter, fired, "corrections/", {"event": reply["seq"], "notation": "Nf3!",
                                                   "note": "annotated at the owner's request"})
    assert r.status_code == 201, r.json()
    ledger = api(anna).get(f"/api/games/{fired.pk}/").json()["clock"]["ledger"]
    assert variant_lines(ledger) == [("white", 2, 0, CALCULATOR)]
