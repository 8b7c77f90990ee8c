"""Errors of the service layer, each with the HTTP status an API gives it.

Messages are marked for translation with ``gettext_lazy`` and their values passed as named
parameters: the text is translated when it is read (``message``), in the language of the answer
(the page's, or the API's ``Accept-Language``; see corr.api.errors), not when it is raised.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A request the rules refuse; nothing was stored.

    ``field`` names the input at fault (``"sent_on"``, ``"number"``), and
    ``status`` is the HTTP status the API answers with. ``message`` is a (lazy)
    translatable string with ``%(name)s`` placeholders filled from ``params``.
    """

    status = 400

    def __init__(self, message, *, field: str | None = None, **params) -> None:
        super().__init__()
        self._message = message
        self.params = params
        self.field = field

    @property
    def message(self) -> str:
        """The message in the active language, its placeholders filled."""
        text = str(self._message)
        return text % self.params if self.params else text

    def __str__(self) -> str:
        return self.message


class InvalidInput(ServiceError):
    """The input breaks a rule of the game file or of the service (400)."""


class TurnConflict(ServiceError):
    """Not this player's turn, or not the expected move number: the game moved on (409)."""

    status = 409


class NotYourTurn(TurnConflict):
    """The partner is to move (or nobody: the game is over): this player's move or answer waits (409)."""


class WrongMoveNumber(TurnConflict):
    """The player's turn, but not the number of their next move (409)."""


class GameOver(TurnConflict):
    """The game has a result: nothing more is taken until an arbiter reopens it (409)."""


class TimeRanOut(TurnConflict):
    """Under ``timeouts: automatic`` the player's flag has fallen: the game is lost on time (409)."""


class NoDrawOffered(TurnConflict):
    """An answer to a draw offer that is not standing: none made, or it lapsed (409; FIDE 9.1.2.2)."""


class NotAllowed(ServiceError):
    """The user may not do this in this game or tournament (403)."""

    status = 403


class _ColourWord:
    """A colour (``white``/``black``) said in the language the message is read in."""

    def __init__(self, value) -> None:
        self.value = value

    def __str__(self) -> str:
        from corr.models import Colour  # the models import the services' errors' callers, not this module

        return str(Colour(self.value).label) if self.value in Colour.values else str(self.value)


def colour_word(value) -> _ColourWord:
    return _ColourWord(value)


class _DayWord:
    """A date said as the pages write it in the language the message is read in (ISO on English pages)."""

    def __init__(self, value) -> None:
        self.value = value

    def __str__(self) -> str:
        from django.utils.formats import date_format

        return date_format(self.value, "SHORT_DATE_FORMAT")


def day_word(value) -> _DayWord:
    return _DayWord(value)


class Said:
    """A message worded when it is read (``str``), in the language active then: a warning a service returns,
    said by the page or the API in its reader's language."""

    def __init__(self, message, **params) -> None:
        self.message, self.params = message, params

    def __str__(self) -> str:
        text = str(self.message)
        return text % {k: str(v) if isinstance(v, (Said, _ColourWord, _DayWord)) else v
                       for k, v in self.params.items()} if self.params else text
