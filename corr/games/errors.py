"""Errors of the service layer, each with the HTTP status an API gives it."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the rules refuse; nothing was stored.

    ``field`` names the input at fault (``"sent_on"``, ``"number"``), and
    ``status`` is the HTTP status the API answers with.
    """

    status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(ServiceError):
    """The input breaks a rule of the game file or of the service (400)."""


class TurnConflict(ServiceError):
    """Not this player's turn, or not the expected move number: the game moved on (409)."""

    status = 409


class NotAllowed(ServiceError):
    """The user may not do this in this game or tournament (403)."""

    status = 403
