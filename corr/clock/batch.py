"""Batches of game files: the same result for each game as computing it alone."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Callable, Iterator

from .account import GameClock, compute
from .errors import ClockError
from .gamefile import read_game


def compute_file(data: Any, *, as_of: date | None, today: date,
                 dates: dict[str, date] | None = None) -> GameClock:
    """Compute one game object; ``as_of`` overrides the file's, which overrides ``today``.

    ``today`` may be the current instant (an aware datetime): a game counted in dates is then computed
    as of its date there, a game of instants as of the instant itself.
    """
    game, file_as_of = read_game(data, dates)
    moment = as_of or file_as_of
    if moment is None:
        moment = today.date() if isinstance(today, datetime) and not game.ruleset.count.instants else today
    return compute(game, moment, with_ledger=True)  # files are printed with their ledger


def iter_clocks(games: list, *, as_of: date | None, today: date, first_index: int = 0) -> Iterator[GameClock]:
    """Compute the games of a list one by one, in order (streaming: nothing is kept).

    :raises ClockError: for the first bad game, its message starting with
        ``game I, `` where I is ``first_index`` plus its position.
    """
    dates: dict[str, date] = {}  # date strings repeat across a batch; parse each once
    for offset, item in enumerate(games):
        try:
            yield compute_file(item, as_of=as_of, today=today, dates=dates)
        except ClockError as error:
            index = first_index + offset
            field = f"[{index}].{error.field}" if error.field else f"[{index}]"
            raise ClockError(f"game {index}, {error}", field=field) from None


def compute_files(data: Any, *, as_of: date | None, today: date) -> list[GameClock]:
    """Compute one game object or a list of them, in order.

    :raises ClockError: for the first bad game; in a list its message starts
        with ``game I, `` where I is the game's index.
    """
    if not isinstance(data, list):
        return [compute_file(data, as_of=as_of, today=today)]
    return list(iter_clocks(data, as_of=as_of, today=today))


def render_files(games: list, *, as_of: date | None, today: date, first_index: int,
                 render: Callable[[GameClock], Any]) -> list:
    """``render`` applied to each game's clock, in order; the unit of work of a parallel batch."""
    return [render(c) for c in iter_clocks(games, as_of=as_of, today=today, first_index=first_index)]
