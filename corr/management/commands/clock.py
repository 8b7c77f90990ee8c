"""``manage.py clock FILE [--json] [--as-of YYYY-MM-DD] [--now INSTANT]``: compute the accounts of game files.

The arbiter's tool for postal tournaments kept on paper, and the same
calculator the service uses. FILE holds one game object or a JSON list of
them; ``-`` reads standard input. Any bad game fails the whole run with one
line on standard error and exit status 2, printing nothing on standard output.

A live game file (its ``ruleset.time_control`` in ``"unit": "seconds"``, events stamped with ISO 8601
instants, :mod:`corr.clock.live.gamefile`) is explained the same way: its ledger of milliseconds
charged per move and what every arbiter action did, at ``--now``, else the file's ``now``, else the
current time.
"""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

import orjson

from corr.clock import ClockError, parse_date
from corr.clock.batch import compute_files
from corr.clock.live.gamefile import instant_ms, is_live_game
from corr.clock.live.text import compute_live_file, live_json, render_live
from corr.clock.text import render_table
from corr.limits import date_window_error
from corr.management.clock_runner import clocks_json, no_cyclic_gc

BAD_INPUT = 2


class Command(BaseCommand):
    help = "Compute the time accounts (article 50.4) of a game file or a list of game files."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a game file (JSON), or - for standard input")
        parser.add_argument("--json", action="store_true", help="print the JSON result")
        parser.add_argument("--as-of", dest="as_of", help="compute as of this date (YYYY-MM-DD, "
                            "1900-01-01..2199-12-31); default: the file's as_of, else today")
        parser.add_argument("--now", dest="now", help="live games: compute at this ISO 8601 instant "
                            "(2026-11-30T10:05:00Z); default: the file's now, else the current time")

    def handle(self, *args, **options):
        try:
            as_of = parse_date(options["as_of"], "--as-of") if options["as_of"] else None
        except ClockError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None
        if as_of is not None and (error := date_window_error(as_of, "--as-of")) is not None:
            raise CommandError(error, returncode=BAD_INPUT)
        with no_cyclic_gc():
            data = self._load(options["file"])
        live = live_games(data)
        if live is not None:
            return self._live(live, isinstance(data, list), options)
        today = timezone.localdate()
        try:
            if options["json"]:
                out = clocks_json(data, as_of=as_of, today=today)
                stream = getattr(self.stdout._out, "buffer", None)
                if stream is None:  # a text stream (tests, call_command)
                    self.stdout.write(out.decode())
                else:  # bytes straight to the stream: a federation's batch is 100+ MB of JSON
                    self.stdout.flush()
                    stream.write(out + b"\n")
                    stream.flush()
                return
            else:
                clocks = compute_files(data, as_of=as_of, today=today)
                many = isinstance(data, list)
                out = "\n\n".join(
                    (f"game {i}\n" if many else "") + render_table(c) for i, c in enumerate(clocks)
                )
        except ClockError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None
        self.stdout.write(out)

    def _live(self, games: list, many: bool, options) -> None:
        """Live game files (issue 16): each one's ledger and clocks, or the JSON of them."""
        try:
            now = instant_ms(options["now"], "--now") if options["now"] else None
            clocks = []
            for i, game in enumerate(games):
                try:
                    clocks.append(compute_live_file(game, now_ms=now, default_now_ms=int(time.time() * 1000)))
                except ClockError as error:
                    if not many:
                        raise
                    raise ClockError(f"game {i}, {error}", field=f"[{i}].{error.field}") from None
        except ClockError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None
        if options["json"]:
            out = [live_json(c) for c in clocks]
            self.stdout.write(orjson.dumps(out if many else out[0]).decode())
            return
        self.stdout.write("\n\n".join((f"game {i}\n" if many else "") + render_live(c) for i, c in enumerate(clocks)))

    def _load(self, path: str):
        try:
            if path == "-":
                return orjson.loads(sys.stdin.buffer.read())
            with open(path, "rb") as fh:
                return orjson.loads(fh.read())
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}", returncode=BAD_INPUT) from None
        except orjson.JSONDecodeError as error:
            raise CommandError(f"{path} is not valid JSON: {error}", returncode=BAD_INPUT) from None


def live_games(data) -> list | None:
    """The live games of a file (one object, or a list of only live ones), or None for correspondence games.

    :raises CommandError: for a list mixing both kinds (their clocks and dates differ).
    """
    if is_live_game(data):
        return [data]
    if isinstance(data, list) and data and any(is_live_game(g) for g in data):
        if not all(is_live_game(g) for g in data):
            raise CommandError("a file mixes live games (unit seconds) and correspondence games: give them in"
                               " separate files", returncode=BAD_INPUT)
        return data
    return None
