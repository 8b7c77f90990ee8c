"""The live tests' server clock and game maker, for the calendars of users with live games."""

from ..live.conftest import clock, create_game  # noqa: F401
