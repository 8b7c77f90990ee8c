"""corr.clock: the correspondence time calculator, a pure package (stdlib only).

Facts in, state out: a :class:`Game` (ruleset, start, ordered events) and an
"as of" date go in; every player's :class:`Account` and an explained ledger come
out. Nothing here imports Django, reads the system clock or keeps state.

    >>> from datetime import date
    >>> from corr.clock import Game, Move, Player, Ruleset, compute
    >>> game = Game(official_start=date(2026, 1, 10), ruleset=Ruleset(),
    ...             players=(Player("white"), Player("black")),
    ...             events=(Move("white", 1, sent_on=date(2026, 1, 12)),
    ...                     Move("black", 1, received_on=date(2026, 1, 16))))
    >>> black = compute(game, as_of=date(2026, 2, 1)).accounts["black"]
    >>> black.thinking_days, black.remaining_days, black.deadline
    (16, 14, datetime.date(2026, 2, 15))
"""
# ruff: noqa: E402 - the build is chosen before the modules are imported

from .build import select as _select_build

BUILD = _select_build()  # before the modules below: it decides whether their extensions or sources load
"""``mypyc`` when the compiled modules run, ``pure`` for their Python sources (:mod:`corr.clock.build`)."""

from .account import Account, GameClock, compute, control_for
from .charging import LedgerLine, Pending, PlayerCharges, charge_game, player_start
from .control import ControlState, ControlWindow, CumulativeMovesControl, Overstep, TimeControl
from .errors import ClockError, EventError, RulesetError
from .events import (
    Credit,
    Delay,
    DelayReason,
    Event,
    Game,
    Move,
    Notice,
    NoticeReason,
    Penalty,
    PenaltyReason,
    Player,
    Variant,
)
from .gamefile import parse_date, read_game, write_event, write_game
from .rules import DEFAULT_RULESET, Ruleset
from .units import Unit

from . import assembly  # noqa: F401 - compiled with the modules above: loaded with them (build.in_use)

__all__ = [
    "BUILD",
    "Account", "GameClock", "compute", "control_for",
    "LedgerLine", "Pending", "PlayerCharges", "charge_game", "player_start",
    "ControlState", "ControlWindow", "CumulativeMovesControl", "Overstep", "TimeControl",
    "ClockError", "EventError", "RulesetError",
    "Credit", "Delay", "DelayReason", "Event", "Game", "Move", "Notice", "NoticeReason", "Penalty", "PenaltyReason",
    "Player", "Variant",
    "parse_date", "read_game", "write_event", "write_game",
    "DEFAULT_RULESET", "Ruleset", "Unit",
]
