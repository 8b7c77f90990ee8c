"""Planning ahead for a stored game (issue 41): ``corr.games.planning`` fed with the game's computed time.

Selectors: they read, never write. The API's ``latest_send`` and ``GET /api/games/{id}/plan/``, and the game
page's deadline and table, read these two.
"""

from __future__ import annotations

from datetime import datetime

from corr.models import Game, GameStatus

from .clockstate import GameTime, clock_as_of, counts_instants
from .planning import ControlEnd, LatestSend, control_ends, latest_sends


def _pending(game: Game, time: GameTime):
    """The pending move's receipt, or None when no move is pending (a finished game, nobody on move)."""
    pending = time.assembled.pending
    if game.status != GameStatus.ONGOING or pending is None or time.to_move is None:
        return None
    return pending


def game_latest_send(*, game: Game, time: GameTime, now: datetime) -> dict[str, LatestSend]:
    """``{colour: LatestSend}`` for the player on move of ``game`` (``time``: its clock as of ``now``); empty
    when nobody is on move."""
    pending = _pending(game, time)
    if pending is None:
        return {}
    account = time.clock.accounts[pending.player]
    instants = counts_instants(game)
    return {pending.player: latest_sends(
        time.assembled.game, player=pending.player, number=pending.number, received=pending.received_on,
        presumed=pending.presumed, now=clock_as_of(game, now),
        deadline=account.flag_at if instants else account.deadline)}


def game_control_ends(*, game: Game, time: GameTime, now: datetime, think_days: int,
                      post_days: int) -> list[ControlEnd]:
    """When each player's next controls would end if every further move took ``think_days`` and the post
    ``post_days`` (``planning.control_ends``); empty when nobody is on move."""
    pending = _pending(game, time)
    if pending is None:
        return []
    return control_ends(time.assembled.game, first=str(game.first), to_move=pending.player, number=pending.number,
                        received=pending.received_on, presumed=pending.presumed, now=clock_as_of(game, now),
                        think_days=think_days, post_days=post_days)
