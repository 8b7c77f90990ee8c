"""``manage.py clock FILE.pgn --preset NAME [--time-zone ZONE]``: a server's stamped PGN as game files.

The PGN is converted by :func:`corr.formats.pgn_stamps.games_from_pgn` and handed on as the
JSON of a game file (one object for one game, a list for more), so that everything after
reading (the calculator, ``--as-of``, ``--json``, the errors) is the JSON file's path as it is.
Under a live preset (``"unit": "seconds"``, the ``*_live`` ones) the file is corr's live export and its
commands give live game files (:mod:`corr.formats.live_files`), computed at their ``[%ccnow]`` or ``--now``.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import IO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import orjson

from corr.clock import ClockError
from corr.clock.presets import preset_ruleset
from .clock_runner import CommandFailed


def reads_pgn(options: dict) -> bool:
    """True when the run reads PGN: ``--pgn``, or a file named ``*.pgn`` (any case); or corr's own PDN or SGF
    export, named ``*.pdn`` or ``*.sgf`` (issue 37: the same stamps, :mod:`corr.formats.board_stamps`).

    :raises CommandFailed: when ``--preset`` or ``--time-zone`` is given for a JSON file (its
        ruleset is in the file: the option would be silently ignored).
    """
    if options.get("pgn") or str(options["file"]).lower().endswith((".pgn", ".pdn", ".sgf")):
        return True
    for option in ("preset", "time_zone"):
        if options.get(option):
            name = "--" + option.replace("_", "-")
            raise CommandFailed(f"{name} is for PGN input only (FILE.pgn or --pgn): a game file has its own")
    return False


def pgn_game_file(path: str, options: dict, *, stdin: IO[bytes],
                  warn: Callable[[str], None] | None = None) -> IO[bytes]:
    """The PGN at ``path`` (``-``: ``stdin``) as the bytes of a game file, in memory.

    ``warn`` takes the reader's warnings (a postal game without received dates), one line each.

    :raises CommandFailed: without ``--preset``, for an unknown preset or ``--time-zone``, and
        for a game the PGN reader refuses (its one line).
    :raises OSError: when the file cannot be read (the caller words it as for a JSON file).
    """
    from corr.formats.pgn_stamps import PgnStampError, games_from_pgn  # python-chess: for PGN runs only

    preset = options.get("preset")
    if not preset:
        raise CommandFailed("--preset is required for a PGN file: a PGN does not say its time control"
                            " (--preset iccf_10_50, for instance)")
    try:
        ruleset = preset_ruleset(preset, None)
    except ClockError as error:
        raise CommandFailed(str(error)) from None
    zone = options.get("time_zone")
    if zone is not None:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise CommandFailed(f"--time-zone must be an IANA time zone name such as Europe/Moscow,"
                                f" got {zone!r}") from None
    if path == "-":
        raw = stdin.read()
    else:
        with open(path, "rb") as stream:
            raw = stream.read()
    suffix = str(path).lower().rsplit(".", 1)[-1]
    if options.get("pgn"):
        suffix = "pgn"
    if is_live_ruleset(ruleset):
        return io.BytesIO(orjson.dumps(_live_games(raw, suffix, ruleset)))
    from corr.formats.live_stamps import has_live_commands

    if has_live_commands(_text(raw)):
        raise CommandFailed(f"{path} is a live game's file ([%ccbegin], [%ccpress] ...): give a live preset"
                            f" (--preset fide_classical_live, for instance), not {preset}")
    try:
        if suffix in ("pdn", "sgf") and not options.get("pgn"):
            from corr.formats.board_stamps import games_from_pdn, games_from_sgf

            if suffix == "sgf":
                games = games_from_sgf(raw, ruleset=ruleset, time_zone=zone or "UTC", warn=warn)
            else:
                games = games_from_pdn(_text(raw), ruleset=ruleset, time_zone=zone or "UTC", warn=warn)
        else:
            games = games_from_pgn(_text(raw), ruleset=ruleset, time_zone=zone or "UTC", warn=warn)
    except PgnStampError as error:
        raise CommandFailed(str(error)) from None
    return io.BytesIO(orjson.dumps(games if len(games) > 1 else games[0]))


def is_live_ruleset(ruleset: dict) -> bool:
    """True for a ruleset whose clock counts seconds: a live game's (the ``*_live`` presets)."""
    control = ruleset.get("time_control") if isinstance(ruleset, dict) else None
    return isinstance(control, dict) and control.get("unit") == "seconds"


def _live_games(raw: bytes, suffix: str, ruleset: dict) -> list[dict] | dict:
    """corr's live PGN, PDN or SGF as live game files (:mod:`corr.formats.live_files`): one object, or a list.

    :raises CommandFailed: for a game the reader refuses (its one line).
    """
    from corr.formats.live_files import live_games
    from corr.formats.pgn_stamps import PgnStampError

    try:
        games = live_games(raw, _text(raw), suffix=suffix, ruleset=ruleset)
    except (PgnStampError, ValueError) as error:
        raise CommandFailed(str(error)) from None
    return games if len(games) > 1 else games[0]


def _text(raw: bytes) -> str:
    # PGN's standard says ISO 8859-1, servers write UTF-8 (ICCF's names: "Mäkelä"): UTF-8 first,
    # Latin-1 when it is not UTF-8 (Latin-1 decodes any bytes).
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")
