"""A live press leaves no reference cycle behind (issue 42): everything it made is freed by reference counting when
it is answered, never left for the cyclic collector.

In daphne under the 500-game bench the collector's youngest generation came every sixty presses or so and freed
some 5,800 objects each time, the presses' model instances with their clocks, parsed rulesets and snapshots hanging
off two cycles (a game and its live row caching each other; a DRF serializer and its fields): 66 collections in a
round of 60 s, 15 ms each and up to 32 ms, each stalling every socket of the process. Measured by what the collector
finds unreachable (``gc.DEBUG_SAVEALL``), not by time.
"""

from __future__ import annotations

import gc
from collections import Counter

import pytest

from corr.api.live_socket import socket_move

from .conftest import FISCHER_5_2, START_MS, S, live_tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cycles_left():
    """A function that frees every reference cycle so far and starts counting anew (the automatic collector off),
    then, called again, returns what the cyclic collector would have freed since, by type."""
    enabled = gc.isenabled()
    gc.disable()
    counting = {"on": False}

    def left() -> Counter:
        found = Counter()
        if counting["on"]:
            gc.collect()
            found = Counter(type(thing).__qualname__ for thing in gc.garbage)
        gc.set_debug(0)  # free what was found (and anything before): SAVEALL would keep it for the next count
        gc.garbage.clear()
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        counting["on"] = True
        return found

    try:
        yield left
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()
        if enabled:
            gc.enable()


def press(user, game_id: int, number: int, notation: str) -> dict:
    return socket_move(user, game_id, {"type": "move", "id": number, "number": number, "notation": notation}, "en")


@pytest.mark.parametrize("notation", ["written", "blank"])
def test_a_socket_press_leaves_nothing_for_the_cyclic_collector(arbiter, anna, boris, clock, create_game, cycles_left,
                                                               notation):
    game_id = create_game(live_tournament(arbiter, FISCHER_5_2))
    clock.advance_to(START_MS + S)
    assert press(anna, game_id, 1, "e4" if notation == "written" else "")["status"] == 201  # the caches' first
    cycles_left()
    answers = []
    for user, number, move in ((boris, 1, "e5"), (anna, 2, "Nf3"), (boris, 2, "Nc6"), (anna, 3, "Bb5")):
        clock.advance(2 * S)
        answers.append(press(user, game_id, number, move if notation == "written" else "")["status"])
    left = cycles_left()
    assert answers == [201] * 4
    assert left == Counter(), left.most_common(10)
