"""The servers' rules for stopping or extending one player's clock: vacation, pauses and time given
(issue 40), as a ruleset's ``vacation``, ``pauses_per_game`` and ``gifts`` read them.

Only the rules live here (the ruleset reads them); :mod:`corr.clock.vacation` applies the vacation rule to
a game and :mod:`corr.clock.gifts` checks time given against its bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import ruleset_error


class Granularity(str, Enum):
    """The unit in which a vacation spends the allowance."""

    HOURS = "hours"
    """Every started hour (OGS)."""
    DAYS = "days"
    """Every started day (chess.com "at least 24 hours at a time", DGS whole days)."""


class Scope(str, Enum):
    """Whose allowance a vacation spends."""

    ALL_GAMES = "all_games"
    """The player's one allowance, for all their games at once (chess.com, OGS, DGS): the service keeps it per
    account and writes the vacation taken into every game file of the player."""
    PER_EVENT = "per_event"
    """An allowance per tournament: each game file starts from the rule's initial amount."""


@dataclass(frozen=True, slots=True)
class VacationRule:
    """How a player's vacation allowance accrues and is spent (``ruleset.vacation``), in hours."""

    initial_hours: int = 0
    """The allowance of a new account or event (chess.com: 7 days for a new account)."""
    accrue_hours: int = 0
    """Added every ``period_days`` from the official start (chess.com 2, 3 or 5 days a month; DGS a day per 12)."""
    period_days: int = 30
    cap_hours: int = 0
    """The allowance never grows beyond this (0: no accrual beyond the initial amount)."""
    min_hours: int = 0
    """The shortest vacation there is (chess.com 24 hours; DGS 2 days): a shorter one spends this much."""
    granularity: Granularity = Granularity.HOURS
    scope: Scope = Scope.ALL_GAMES
    ends_on_move: bool = False
    """A move made during a vacation ends it there (chess.com: "any move ends vacation")."""
    automatic: bool = False
    """When a flag would fall while allowance remains, a vacation starts by itself (chess.com's members)."""

    @classmethod
    def parse(cls, data: Any, path: str = "ruleset.vacation") -> "VacationRule | None":
        """``ruleset.vacation``. :raises RulesetError: naming the key and the rule broken."""
        if data is None:
            return None
        if isinstance(data, VacationRule):
            return data
        if not isinstance(data, dict):
            raise ruleset_error("not_object", field=path)
        known = ("initial_hours", "accrue_hours", "period_days", "cap_hours", "min_hours", "granularity", "scope",
                 "ends_on_move", "automatic")
        for key in data:
            if key not in known:
                raise ruleset_error("unknown_option", field=f"{path}.{key}", value=repr(key), known=", ".join(known))
        values: dict[str, Any] = {}
        for key in known[:5]:
            if key in data:
                value = data[key]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ruleset_error("not_whole", field=f"{path}.{key}", value=repr(value))
                minimum = 1 if key == "period_days" else 0
                if value < minimum:
                    raise ruleset_error("at_least", field=f"{path}.{key}", minimum=minimum, value=value)
                values[key] = value
        for key, enum in (("granularity", Granularity), ("scope", Scope)):
            if key in data:
                try:
                    values[key] = enum(data[key])
                except ValueError:
                    raise ruleset_error("one_of", field=f"{path}.{key}", known=", ".join(m.value for m in enum),
                                        value=repr(data[key])) from None
        for key in ("ends_on_move", "automatic"):
            if key in data:
                if data[key] is not True and data[key] is not False:
                    raise ruleset_error("not_boolean", field=f"{path}.{key}", value=repr(data[key]))
                values[key] = data[key]
        return cls(**values)

    def as_json(self) -> dict[str, Any]:
        return {"initial_hours": self.initial_hours, "accrue_hours": self.accrue_hours,
                "period_days": self.period_days, "cap_hours": self.cap_hours, "min_hours": self.min_hours,
                "granularity": self.granularity.value, "scope": self.scope.value,
                "ends_on_move": self.ends_on_move, "automatic": self.automatic}


@dataclass(frozen=True, slots=True)
class GiftRule:
    """What time the opponent may give (``ruleset.gifts``).

    lichess: ``{"days": 1, "below_allowance_less_hours": 1}`` (``giveTime`` adds a day; ``moretimeable``:
    only while the time left is under the increment, the days per move, less an hour). Dragon Go Server:
    ``{"max_days": 14}`` (``MAX_ADD_DAYS``, ``GameAddTime::add_time``).
    """

    days: int | None = None
    """Every gift is exactly this many days (lichess: 1); None: any whole number up to ``max_days``."""
    max_days: int | None = None
    below_allowance_less_hours: int | None = None
    """Allowed only while the receiver's time left is under a fresh move's time less these hours."""
    reset_byoyomi: bool = False
    """The giver may also restore the receiver's byo-yomi periods (DGS ``reset_byoyomi``, a gift of 0 days
    allowed with it)."""

    @classmethod
    def parse(cls, data: Any, path: str = "ruleset.gifts") -> "GiftRule | None":
        """``ruleset.gifts``. :raises RulesetError: naming the key and the rule broken."""
        if data is None:
            return None
        if isinstance(data, GiftRule):
            return data
        if not isinstance(data, dict):
            raise ruleset_error("not_object", field=path)
        known = ("days", "max_days", "below_allowance_less_hours", "reset_byoyomi")
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise ruleset_error("unknown_option", field=f"{path}.{key}", value=repr(key), known=", ".join(known))
            if key == "reset_byoyomi":
                if value is not True and value is not False:
                    raise ruleset_error("not_boolean", field=f"{path}.{key}", value=repr(value))
                values[key] = value
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise ruleset_error("not_whole", field=f"{path}.{key}", value=repr(value))
            if value < 1:
                raise ruleset_error("at_least", field=f"{path}.{key}", minimum=1, value=value)
            values[key] = value
        return cls(**values)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k, v in (("days", self.days), ("max_days", self.max_days),
                                                 ("below_allowance_less_hours", self.below_allowance_less_hours))
                               if v is not None}
        if self.reset_byoyomi:
            out["reset_byoyomi"] = True
        return out
