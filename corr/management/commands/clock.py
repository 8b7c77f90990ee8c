"""``manage.py clock FILE [--json] [--as-of YYYY-MM-DD] [--now INSTANT] [--jsonl] [--workers N]``;
``manage.py clock FILE.pgn --preset NAME [--time-zone ZONE]`` for a server's stamped PGN.

Compute the accounts of game files.

The arbiter's tool for postal tournaments kept on paper, and the same
calculator the service uses. FILE holds one game object or a JSON list of
them (or, with ``--jsonl``, one game object a line); ``-`` reads standard
input. A PGN with ``[%ccsnt]`` stamps (:mod:`corr.management.clock_pgn`) is
read as the game files of its games under the preset's ruleset. Any bad game
fails the whole run with one line on standard error and exit status 2,
printing nothing on standard output.

A live game file (its ``ruleset.time_control`` in ``"unit": "seconds"``, events stamped with ISO 8601
instants, :mod:`corr.clock.live.gamefile`) is explained the same way: its ledger of milliseconds
charged per move and what every arbiter action did, at ``--now``, else the file's ``now``, else the
current time. corr's live PGN, PDN or SGF under a live preset (``--preset fide_classical_live``) is read
as that file from its commands (``[%ccpress]``, ``[%ccpause]`` ..., :mod:`corr.formats.live_stamps`).

``manage.py`` runs this command without starting Django
(:func:`corr.management.clock_runner.main`); this class is the same command
for ``call_command`` and for Django's own options (``--settings``, ``-v`` ...).
"""

from __future__ import annotations

import io
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from corr.management.clock_runner import DEAD_WORKER, CommandFailed, add_arguments, exit_now, run


class Command(BaseCommand):
    help = "Compute the time accounts (article 50.4) of a game file or a list of game files."

    def add_arguments(self, parser):
        add_arguments(parser)

    def handle(self, *args, **options):
        stream = getattr(self.stdout._out, "buffer", None)
        text = stream is None  # a text stream (tests, call_command)
        out = io.BytesIO() if text else stream
        if not text:
            self.stdout.flush()
        try:
            run(options, today=timezone.localtime(), stdin=sys.stdin.buffer, stdout=out,  # now: its date for dates
                warn=lambda line: self.stderr.write(f"warning: {line}"))
        except CommandFailed as error:
            if error.returncode == DEAD_WORKER and not text:
                # A real process: leave at once (``exit_now``), the executor may wait on a dead worker forever.
                self.stderr.write(f"CommandError: {error}")
                exit_now(DEAD_WORKER)
            raise CommandError(str(error), returncode=error.returncode) from None
        if text:
            self.stdout.write(out.getvalue().decode(), ending="")
