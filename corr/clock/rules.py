"""The ruleset of a game: every number of article 50.4 as a field.

Source: ``shared/seeds/004_19bf04b782374289.txt`` (Russian correspondence chess
rules, article 50.4 "Time for reflection"). Defaults are the article's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from .allowances import GiftRule, VacationRule
from .calendar import DateRange, MoveOnLeave, read_ranges, read_weekend_days
from .personal import CalendarZone
from .counts import Count
from .errors import ClockError, RulesetError, ruleset_error
from .systems import TimeControl, parse_time_control

# Fields that must be at least 1 (a control of zero moves or zero days is meaningless);
# every other field must be at least 0.
_POSITIVE_FIELDS = frozenset({"moves_per_control", "days_per_control"})
# Fields that are not whole numbers: the system and the calendar of days that do not count.
_OTHER_FIELDS = ("time_control", "holidays", "weekend_days", "move_on_leave", "player_calendars", "vacation",
                 "pauses_per_game", "gifts")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Numbers of the 50.4 time rules, all in whole moves or whole days."""

    moves_per_control: int = 10
    """50.4.3: moves in one control period (N)."""
    days_per_control: int = 30
    """50.4.3: days allowed per control period (D), accumulated across periods."""
    grace_days: int = 3
    """50.4.7: days of a notice or repeat answer that are not counted."""
    first_penalty_days: int = 5
    """50.4.9: penalty days for a player's first fault in the game."""
    repeat_penalty_days: int = 10
    """50.4.10: penalty days for every later fault, of any reason."""
    time_trouble_days: int = 5
    """50.4.12: at this many days left or fewer the player must use registered mail."""
    late_notice_start_days: int = 3
    """50.4.6: a player notified late starts this many days after the notice arrived."""
    time_control: TimeControl | None = None
    """Another system of time control (Fischer, byo-yomi ...); None keeps the 50.4.3 control."""
    holidays: tuple[DateRange, ...] = ()
    """Dates that count for neither player (a federation's year-end break), both ends included."""
    weekend_days: tuple[str, ...] = ()
    """Weekdays that count for neither player (``("saturday", "sunday")``), in week order."""
    move_on_leave: MoveOnLeave = MoveOnLeave.ALLOWED
    """What a move sent on one of the player's own leave days does (see :class:`MoveOnLeave`)."""
    player_calendars: CalendarZone = CalendarZone.NONE
    """Whether players keep their own weekend and night (issue 40), and in whose zone (:class:`CalendarZone`)."""
    vacation: VacationRule | None = None
    """The servers' vacation allowance (issue 40); None: no vacation (players book leave instead)."""
    pauses_per_game: int | None = None
    """How many pauses each player may start in a game (OGS ``pauses_left``); None: no pauses."""
    gifts: GiftRule | None = None
    """What time the opponent may give (lichess's "+", DGS's add time); None: none."""

    def __post_init__(self) -> None:
        try:  # the calendar fields are normalised here so that Python callers may pass lists and names
            object.__setattr__(self, "holidays", read_ranges(self.holidays, "ruleset.holidays"))
            object.__setattr__(self, "weekend_days", read_weekend_days(self.weekend_days))
        except ClockError as error:
            raise RulesetError(error.message, field=error.field, code=error.code, params=error.params) from None
        try:
            object.__setattr__(self, "move_on_leave", MoveOnLeave(self.move_on_leave))
        except ValueError:
            known = ", ".join(m.value for m in MoveOnLeave)
            raise ruleset_error("unknown_option", field="ruleset.move_on_leave", value=repr(self.move_on_leave),
                                known=known) from None
        try:
            object.__setattr__(self, "player_calendars", CalendarZone(self.player_calendars))
        except ValueError:
            known = ", ".join(m.value for m in CalendarZone)
            raise ruleset_error("unknown_option", field="ruleset.player_calendars",
                                value=repr(self.player_calendars), known=known) from None
        object.__setattr__(self, "vacation", VacationRule.parse(self.vacation))
        object.__setattr__(self, "gifts", GiftRule.parse(self.gifts))
        pauses = self.pauses_per_game
        if pauses is not None and (isinstance(pauses, bool) or not isinstance(pauses, int) or pauses < 0):
            raise ruleset_error("not_whole", field="ruleset.pauses_per_game", value=repr(pauses))
        for f in fields(self):
            if f.name in _OTHER_FIELDS:
                continue
            value = getattr(self, f.name)
            # bool is an int subclass; true/false is never a number of days.
            if isinstance(value, bool) or not isinstance(value, int):
                raise ruleset_error("not_whole", field=f"ruleset.{f.name}", value=repr(value))
            minimum = 1 if f.name in _POSITIVE_FIELDS else 0
            if value < minimum:
                raise ruleset_error("at_least", field=f"ruleset.{f.name}", minimum=minimum, value=value)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> "Ruleset":
        """Build a ruleset from a game file's ``ruleset`` object; missing keys take defaults.

        :raises RulesetError: on an unknown key or a value that breaks its rule.
        """
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ruleset_error("not_object", field="ruleset")
        known = cls.field_names() + _OTHER_FIELDS
        for key in data:
            if key not in known:
                raise ruleset_error("unknown_ruleset_field", field=f"ruleset.{key}", known=", ".join(sorted(known)))
        values = dict(data)
        if values.get("time_control") is not None:
            values["time_control"] = parse_time_control(values["time_control"])
        for key in ("holidays", "weekend_days"):
            if key in values and values[key] is None:
                values[key] = ()
        return cls(**values)

    @property
    def count(self) -> Count:
        """How a move's time is counted (``time_control.count``): article 50.4's dates without a system."""
        return Count.DATES if self.time_control is None else self.time_control.count

    @property
    def is_live(self) -> bool:
        """True when the time control counts in seconds: a live game's ruleset (issue 16), which the
        correspondence calculator refuses and :func:`corr.clock.live.live_clock` computes."""
        return self.time_control is not None and self.time_control.unit.value == "seconds"

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The whole-number fields (the 50.4 numbers); the system and the calendar stand apart."""
        return tuple(f.name for f in fields(cls) if f.name not in _OTHER_FIELDS)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in self.field_names()}
        if self.time_control is not None:
            out["time_control"] = self.time_control.as_json()
        # The calendar is written only when it excludes something: older files stay as they were.
        if self.holidays:
            out["holidays"] = [r.as_json() for r in self.holidays]
        if self.weekend_days:
            out["weekend_days"] = list(self.weekend_days)
        if self.move_on_leave is not MoveOnLeave.ALLOWED:
            out["move_on_leave"] = self.move_on_leave.value
        if self.player_calendars is not CalendarZone.NONE:
            out["player_calendars"] = self.player_calendars.value
        if self.vacation is not None:
            out["vacation"] = self.vacation.as_json()
        if self.pauses_per_game is not None:
            out["pauses_per_game"] = self.pauses_per_game
        if self.gifts is not None:
            out["gifts"] = self.gifts.as_json()
        return out


DEFAULT_RULESET = Ruleset()
