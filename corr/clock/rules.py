"""The ruleset of a game: every number of article 50.4 as a field.

Source: ``shared/seeds/004_19bf04b782374289.txt`` (Russian correspondence chess
rules, article 50.4 "Time for reflection"). Defaults are the article's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Mapping

from .errors import RulesetError

if TYPE_CHECKING:
    from .systems import TimeControl

# Fields that must be at least 1 (a control of zero moves or zero days is meaningless);
# every other field must be at least 0.
_POSITIVE_FIELDS = frozenset({"moves_per_control", "days_per_control"})


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
    time_control: "TimeControl | None" = None
    """Another system of time control (Fischer, byo-yomi ...); None keeps the 50.4.3 control."""

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name == "time_control":
                continue
            value = getattr(self, f.name)
            # bool is an int subclass; true/false is never a number of days.
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesetError(
                    f"ruleset.{f.name} must be a whole number, got {value!r}",
                    field=f"ruleset.{f.name}",
                )
            minimum = 1 if f.name in _POSITIVE_FIELDS else 0
            if value < minimum:
                raise RulesetError(
                    f"ruleset.{f.name} must be at least {minimum}, got {value}",
                    field=f"ruleset.{f.name}",
                )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> "Ruleset":
        """Build a ruleset from a game file's ``ruleset`` object; missing keys take defaults.

        :raises RulesetError: on an unknown key or a value that breaks its rule.
        """
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesetError("ruleset must be an object", field="ruleset")
        known = cls.field_names() + ("time_control",)
        for key in data:
            if key not in known:
                raise RulesetError(
                    f"ruleset.{key} is not a ruleset field (known: {', '.join(sorted(known))})",
                    field=f"ruleset.{key}",
                )
        values = dict(data)
        if values.get("time_control") is not None:
            from .systems import parse_time_control

            values["time_control"] = parse_time_control(values["time_control"])
        return cls(**values)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The whole-number fields (the 50.4 numbers); ``time_control`` stands apart."""
        return tuple(f.name for f in fields(cls) if f.name != "time_control")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in self.field_names()}
        if self.time_control is not None:
            out["time_control"] = self.time_control.as_json()
        return out


DEFAULT_RULESET = Ruleset()
