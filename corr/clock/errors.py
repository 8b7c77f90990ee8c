"""Errors of the calculator: each names what is wrong in words a person can act on."""

from __future__ import annotations


class ClockError(ValueError):
    """A game cannot be computed as given.

    ``field`` names the offending input (``"ruleset.days_per_control"``,
    ``"events[3].sent_on"``) so that an API can point at it; ``str(error)``
    is one line fit for a person.
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class RulesetError(ClockError):
    """A ruleset value breaks its rule (not a whole number, or out of range)."""


class EventError(ClockError):
    """One event of a game is malformed or out of sequence.

    ``index`` is the event's 0-based position in the game's event list and
    ``kind`` its type; both appear at the start of the message.
    """

    def __init__(self, index: int, kind: str, message: str, *, field: str | None = None) -> None:
        self.index = index
        self.kind = kind
        self.detail = message
        path = f"events[{index}]" + (f".{field}" if field else "")
        super().__init__(f"event {index} ({kind}): {message}", field=path)
