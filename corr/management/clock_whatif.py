"""``manage.py clock FILE --with EVENTS.json`` (issue 41): a game file with hypothetical events, and what they change.

EVENTS.json holds a list of events in the game file's own form (``{"type": "move", ...}``, as its
``events``), or an object with such a list under ``events``. The game is computed as it is and with the
events added after its own; the differences are printed one a line in the words the API's preview gives
(``corr.web.whatif_text``), or with ``--json`` the clock as it would be and the ``changes``. The command
needs Django for those words: ``clock_runner.main`` hands a ``--with`` run over to it.
"""

from __future__ import annotations

from datetime import date
from typing import IO

import orjson

from corr.clock import ClockError
from corr.clock.batch import compute_file
from corr.clock.gamefile import read_game

from .clock_runner import CommandFailed


def _read_json(path: str, what: str, stdin: IO[bytes] | None = None):
    try:
        with open(path, "rb") as stream:
            return orjson.loads(stream.read())
    except OSError as error:
        raise CommandFailed(f"cannot read {path}: {error.strerror}") from None
    except orjson.JSONDecodeError as error:
        raise CommandFailed(f"{what} {path} is not JSON: {error}") from None


def whatif_run(options: dict, *, today: date, as_of: date | None, out) -> None:
    """Compute FILE with and without the events of ``options["with_events"]`` and write the differences.

    :raises CommandFailed: a file that cannot be read, is not one game object or a list of events, or a game
        the calculator refuses (its message names the event, counted in the file's events then the added ones).
    """
    from corr.games.whatif import clock_changes, standings
    from corr.web.whatif_text import changes_text

    game = _read_json(options["file"], "FILE")
    extra = _read_json(options["with_events"], "--with")
    if isinstance(extra, dict) and set(extra) == {"events"}:
        extra = extra["events"]
    if not isinstance(game, dict):
        raise CommandFailed("--with computes one game: FILE must hold one game object")
    if not isinstance(extra, list) or not all(isinstance(e, dict) for e in extra):
        raise CommandFailed("--with: EVENTS.json must hold a list of events (objects with their type)")
    hypothetical = game | {"events": [*game.get("events", []), *extra]}
    try:
        parsed, _ = read_game(game)
        before = compute_file(game, as_of=as_of, today=today)
        after = compute_file(hypothetical, as_of=as_of, today=today)
    except ClockError as error:
        raise CommandFailed(str(error)) from None
    instants, control = parsed.ruleset.count.instants, parsed.ruleset.time_control
    changes = clock_changes(standings(before.accounts, instants=instants, time_control=control),
                            standings(after.accounts, instants=instants, time_control=control))
    lines = changes_text(changes, zone=game.get("time_zone", "UTC"))
    if options.get("json"):
        out.write(orjson.dumps({"clock": after.as_json(), "changes": lines}, option=orjson.OPT_INDENT_2) + b"\n")
    else:
        out.write(("\n".join(lines) if lines else "no change").encode() + b"\n")
