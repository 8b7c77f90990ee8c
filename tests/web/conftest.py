"""The live tests' server clock and game maker, for the pages of live games."""

from ..live.conftest import clock, create_game  # noqa: F401
