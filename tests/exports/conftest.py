"""The live tests' server clock and game maker, for the exports of a live game."""

from ..live.conftest import clock, create_game  # noqa: F401
