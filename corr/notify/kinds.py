"""The kinds of notification a player can turn on or off, each with the words of the preferences page."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """What a notice is about; each is on by default."""

    YOUR_MOVE = "your_move", _("Your move: the partner moved")
    """The partner moved (by hand or by their conditional line): the recipient is on move."""
    CONDITIONAL = "conditional", _("Your conditional line replied for you")
    """A line of the recipient's conditional moves (50.4.8) fired: the reply played and what is still pending."""
    GAME_START = "game_start", _("A game started")
    """A game of the recipient's was created."""
    DRAW = "draw", _("Draw offers: offered, accepted, declined")
    """The partner offered a draw, or accepted or declined the recipient's offer."""
    RESULT = "result", _("Results: the partner resigned, an arbiter recorded or reopened a result")
    """The game ended by resignation or an arbiter's result, or an arbiter reopened it."""
    LEAVE = "leave", _("The partner's leave")
    """The partner booked leave: their clock stops on those days."""
    FLAG_WARNING = "flag_warning", _("Warnings before you lose on time")
    """Under an instant count, the chosen hours before the player's flag falls (``flag_at``)."""
    SILENCE = "silence", _("Reminders after days without a move (ICCF: 14, 28 and 35 days)")
    """ICCF's silence: the player on move has not moved for ``SILENCE_REMINDER_DAYS`` days (``silence``)."""
    LONG_MOVE = "long_move", _("The partner's notice that a move will take more than 40 days")
    """The partner used the "Use 40+ days" notice (ICCF Playing Rules 3b) on their move."""


PACED = frozenset(Kind) - {Kind.FLAG_WARNING, Kind.SILENCE}
"""Kinds gathered by the quiet period and the daily digest; a flag warning and a silence reminder go at their
instant, alone."""
