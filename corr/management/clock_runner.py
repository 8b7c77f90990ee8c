"""``manage.py clock``'s work, without Django: read, compute and print game files, streaming.

``manage.py`` hands ``clock`` to :func:`main` before Django starts (its start-up costs more than a
small batch), and the management command calls the same :func:`run`; ``python -m
corr.management.clock_runner`` is the same command. Input is read a few megabytes at a time
(:mod:`.clock_input`) and every game is written out as soon as it is computed, so memory stays
flat in the number of games. The contract of the command still holds: any bad game fails the
whole run with one line on standard error and exit status 2 and nothing on standard output.
Output goes straight to a regular file (cut back on failure), and to a pipe or terminal through a
temporary file copied out at the end.

Workers (``--workers N``) compute pieces of a list in other processes; on two shared cores they
do not pay for themselves (the bench shows it), so the default is one process. A worker that
dies fails the run (one line, exit status 3) instead of leaving it waiting.

Cyclic garbage collection is paused while a batch runs: the calculator's values hold no cycles,
so collecting finds nothing and, on a million events, costs about half the run.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import date, datetime
from typing import IO, Any, Iterable, Iterator

import orjson

from corr.clock import ClockError, GameClock, parse_date
from corr.clock.counts import parse_instant, rfc3339
from corr.clock.batch import compute_file
from corr.clock.charging import ledger_json
from corr.clock.live.gamefile import is_live_game
from corr.gcpause import no_cyclic_gc
from corr.limits import date_window_error

from .clock_input import InputError, Source, read_input

MIXED_FILE = ("a file mixes live games (unit seconds) and correspondence games: give them in"
              " separate files")
_NOTHING = object()  # an empty list's first game
BAD_INPUT = 2
DEAD_WORKER = 3
PIECE_GAMES = 200  # games a worker computes at a time


class CommandFailed(Exception):
    """The run fails: ``str()`` is the one line for standard error, ``returncode`` the exit status."""

    def __init__(self, message: str, returncode: int = BAD_INPUT) -> None:
        super().__init__(message)
        self.returncode = returncode


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments, the same for ``manage.py clock`` and the plain module."""
    parser.add_argument("file", help="a game file (JSON) or a server's PGN with [%%ccsnt] stamps (FILE.pgn),"
                        " or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the JSON result")
    parser.add_argument("--as-of", dest="as_of", help="compute as of this date (YYYY-MM-DD, "
                        "1900-01-01..2199-12-31) or instant (2024-06-01T18:00:36Z); default: the file's "
                        "as_of, else now")
    parser.add_argument("--now", dest="now", help="live games: compute at this ISO 8601 instant "
                        "(2026-11-30T10:05:00Z); default: the file's now, else the current time")
    parser.add_argument("--jsonl", action="store_true",
                        help="the input is JSON Lines: one game object a line (printed as a list)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes computing a list's games (default 1: on few cores more do not pay)")
    parser.add_argument("--pgn", action="store_true", help="read FILE as PGN whatever its name (FILE.pgn always is)")
    parser.add_argument("--preset", help="PGN: the ruleset preset of its games (iccf_10_50, rus_50_4 ...;"
                        " corr's live exports: fide_classical_live ...); required")
    parser.add_argument("--with", dest="with_events", metavar="EVENTS.json",
                        help="print what these hypothetical events (a JSON list in the game file's form) would change"
                        " (one game; issue 41)")
    parser.add_argument("--time-zone", dest="time_zone", help="PGN: the IANA zone its stamps' times are written in"
                        " (Europe/Moscow); default UTC")


def encode_clock(clock: GameClock) -> bytes:
    """One game's ``--json`` output, compact (the ledger's lines straight to dicts, no ``as_json`` per line)."""
    return orjson.dumps({
        "as_of": rfc3339(clock.as_of) if isinstance(clock.as_of, datetime) else clock.as_of.isoformat(),
        "players": {pid: account.as_json() for pid, account in clock.accounts.items()},
        "ledger": ledger_json(clock.ledger_rows),
    })


def _clocks(games: Iterable[Any], *, as_of: date | None, today: date, first_index: int = 0) -> Iterator[GameClock]:
    """Each game's clock, in order.

    :raises ClockError: for the first bad game, ``game I, `` first; for a live game among them, that
        the file mixes both kinds.
    """
    dates: dict[str, date] = {}  # date strings repeat across a batch; parse each once
    index = first_index
    item = None
    try:
        for index, item in enumerate(games, start=first_index):  # noqa: B007 - read in the except
            yield compute_file(item, as_of=as_of, today=today, dates=dates)
    except ClockError as error:
        if is_live_game(item):  # asked only when it fails: no cost per game
            raise ClockError(MIXED_FILE, field=f"[{index}]") from None
        field = f"[{index}].{error.field}" if error.field else f"[{index}]"
        raise ClockError(f"game {index}, {error}", field=field) from None


def _encoded(games: Iterable[Any], *, as_of: date | None, today: date, first_index: int = 0) -> Iterator[bytes]:
    """Each game's JSON, in order. :raises ClockError: as :func:`_clocks`."""
    for clock in _clocks(games, as_of=as_of, today=today, first_index=first_index):
        yield encode_clock(clock)


def _work(items: list, first_index: int, as_of: date | None, today: date) -> tuple[bool, Any]:
    """A worker's piece: (True, the games' JSON joined by commas) or (False, (message, field))."""
    try:
        return True, b",".join(_encoded(items, as_of=as_of, today=today, first_index=first_index))
    except ClockError as error:
        return False, (str(error), error.field)


def _pieces(games: Iterator[Any]) -> Iterator[list]:
    piece: list = []
    for game in games:
        piece.append(game)
        if len(piece) == PIECE_GAMES:
            yield piece
            piece = []
    if piece:
        yield piece


def _parallel(games: Iterator[Any], *, as_of: date | None, today: date, workers: int) -> Iterator[bytes]:
    """:func:`_encoded` joined per piece, computed by ``workers`` processes, in order; at most
    2·workers pieces in flight. :raises CommandFailed: when a worker dies (never a hang)."""
    context = __import__("multiprocessing").get_context("fork")
    pool = ProcessPoolExecutor(workers, mp_context=context)
    pending: list = []
    try:
        first = 0
        for piece in _pieces(games):
            pending.append(pool.submit(_work, piece, first, as_of, today))
            first += len(piece)
            if len(pending) >= 2 * workers:
                yield _result(_outcome(pool, pending.pop(0)))
        while pending:
            yield _result(_outcome(pool, pending.pop(0)))
    except BrokenProcessPool:
        _abandon(pool)
        raise CommandFailed("a worker process died before finishing its games (killed, or out of memory);"
                            " nothing was printed", DEAD_WORKER) from None
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)  # a bad game: the workers finish their piece and stop
        raise
    pool.shutdown(wait=True)


WORKER_POLL_SECONDS = 0.5


def _outcome(pool: ProcessPoolExecutor, future) -> tuple[bool, Any]:
    """The future's result, watching the workers meanwhile. :raises BrokenProcessPool: a worker died.

    The executor notices a dead worker by itself, except when the worker died
    while sending a result: its reader then waits for the rest of a message
    that never comes, and so would this call (CPython's executor, seen here
    under load). Each worker's exit status is checked every half second.
    """
    while True:
        try:
            return future.result(timeout=WORKER_POLL_SECONDS)
        except TimeoutError:
            if any(process.exitcode is not None for process in list(pool._processes.values())):
                raise BrokenProcessPool("a worker process exited") from None


def _abandon(pool: ProcessPoolExecutor) -> None:
    """Stop the pool without waiting for it: its workers killed, its queued pieces dropped.

    Waiting could hang on a result half sent by a dead worker; the process
    that abandons a pool exits at once after (``exit_now``).
    """
    for process in list(pool._processes.values()):
        if process.exitcode is None:
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def exit_now(status: int) -> None:
    """Leave the process with ``status`` at once, standard streams flushed, skipping exit handlers.

    After a dead worker the executor's own thread may be waiting for a message
    that never comes; the interpreter's exit would wait for that thread.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _result(outcome: tuple[bool, Any]) -> bytes:
    ok, value = outcome
    if not ok:
        message, field = value
        raise ClockError(message, field=field)
    return value


def clocks_json(data, *, as_of: date | None, today: date, workers: int = 1) -> bytes:
    """The ``--json`` output (without the final newline) for one game object or a list of them, in memory.

    :raises ClockError: for the first bad game (lowest index), as a single run would.
    """
    with no_cyclic_gc():
        if not isinstance(data, list):
            return orjson.dumps(compute_file(data, as_of=as_of, today=today).as_json(), option=orjson.OPT_INDENT_2)
        if workers > 1:
            parts = list(_parallel(iter(data), as_of=as_of, today=today, workers=workers))
        else:
            parts = list(_encoded(data, as_of=as_of, today=today))
        return b"[" + b",".join(parts) + b"]"


class Output:
    """Standard output that shows nothing unless the run succeeds (the command's contract).

    A regular file is written in place and cut back on failure; ``/dev/null`` is written in
    place; anything else (a pipe, a terminal) gets a temporary file's content once all is done.
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.spool = None
        self.start = None
        try:
            fd = stream.fileno()
            mode = os.fstat(fd)
        except (AttributeError, OSError, ValueError):  # not a real file (tests' in-memory streams)
            mode = None
        if mode is not None and stat.S_ISREG(mode.st_mode):
            stream.flush()
            self.start = os.lseek(fd, 0, os.SEEK_END) if _appending(fd) else stream.tell()
            self.out = stream
        elif mode is not None and stat.S_ISCHR(mode.st_mode) and _is_dev_null(mode):
            self.out = stream
        else:
            self.spool = tempfile.TemporaryFile()
            self.out = self.spool

    def write(self, data: bytes) -> None:
        self.out.write(data)

    def commit(self) -> None:
        if self.spool is not None:
            self.spool.seek(0)
            shutil.copyfileobj(self.spool, self.stream, 1 << 20)
            self.spool.close()
        self.stream.flush()

    def discard(self) -> None:
        if self.spool is not None:
            self.spool.close()
        elif self.start is not None:
            self.stream.flush()
            os.ftruncate(self.stream.fileno(), self.start)
            self.stream.seek(self.start)


def _appending(fd: int) -> bool:
    import fcntl

    return bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND)


def _is_dev_null(mode: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:  # pragma: no cover
        return False
    return mode.st_rdev == null.st_rdev


def parse_as_of(text: str | None) -> date | None:
    """``--as-of``: a date in the calendar window, or an RFC 3339 instant (``2024-06-01T18:00:36Z``).

    :raises CommandFailed: naming the option.
    """
    if not text:
        return None
    try:
        as_of = parse_instant(text, "--as-of") if len(text) > 10 else parse_date(text, "--as-of")
    except ClockError as error:
        raise CommandFailed(str(error)) from None
    if (error := date_window_error(as_of if not isinstance(as_of, datetime) else as_of.date(), "--as-of")) is not None:
        raise CommandFailed(error)
    return as_of


def run(options: dict, *, today: date, stdin: IO[bytes], stdout: IO[bytes],
        warn: Callable[[str], None] | None = None) -> None:
    """Compute the file of ``options`` and write the result to ``stdout`` (bytes).

    ``warn`` takes each warning, one line (a postal PGN without received dates); standard error's
    ``warning: LINE`` by default. A warning never fails the run.
    :raises CommandFailed: with nothing written, for a bad option, file, game or worker.
    """
    if warn is None:
        warn = _warn_on_stderr
    as_of = parse_as_of(options.get("as_of"))
    if options.get("with_events"):
        from .clock_whatif import whatif_run  # here: it imports CommandFailed from this module

        out = Output(stdout)
        try:
            whatif_run(options, today=today, as_of=as_of, out=out)
            out.commit()
        except BaseException:
            out.discard()
            raise
        return
    path = options["file"]
    from .clock_pgn import pgn_game_file, reads_pgn  # here: it imports CommandFailed from this module

    try:
        if reads_pgn(options):
            stream = pgn_game_file(path, options, stdin=stdin, warn=warn)  # the PGN's games as a game file's JSON
        else:
            stream = stdin if path == "-" else open(path, "rb")
    except OSError as error:
        raise CommandFailed(f"cannot read {path}: {error.strerror}") from None
    source = Source(stream, path, keep=path == "-")
    out = Output(stdout)
    try:
        with no_cyclic_gc():
            _write(source, options, as_of=as_of, today=today, out=out)
        out.commit()
    except BaseException:
        out.discard()
        raise
    finally:
        source.close()
        if stream is not stdin:
            stream.close()


def _warn_on_stderr(line: str) -> None:
    sys.stderr.write(f"warning: {line}\n")


def _write(source: Source, options: dict, *, as_of: date | None, today: date, out: Output) -> None:
    try:
        many, games = read_input(source, lines=options.get("jsonl", False))
    except InputError as error:
        raise CommandFailed(str(error)) from None
    except OSError as error:
        raise CommandFailed(f"cannot read {source.name}: {error.strerror}") from None
    try:
        games = iter(games)
        first = next(games, _NOTHING)
        if is_live_game(first):
            return _write_live([first, *games], many, options, out)
    except InputError as error:
        raise CommandFailed(str(error)) from None
    if first is not _NOTHING:
        games = itertools.chain((first,), games)
    try:
        if not many:
            (game,) = games
            clock = compute_file(game, as_of=as_of, today=today)
            if options.get("json"):
                out.write(orjson.dumps(clock.as_json(), option=orjson.OPT_INDENT_2) + b"\n")
            else:
                out.write(_table(clock).encode() + b"\n")
            return
        workers = options.get("workers") or 1
        if options.get("json"):
            parts = (_parallel(games, as_of=as_of, today=today, workers=workers) if workers > 1
                     else _encoded(games, as_of=as_of, today=today))
            out.write(b"[")
            for i, part in enumerate(parts):
                out.write(b"," + part if i else part)
            out.write(b"]\n")
        else:
            for i, clock in enumerate(_clocks(games, as_of=as_of, today=today)):
                out.write((b"\n\n" if i else b"") + f"game {i}\n".encode() + _table(clock).encode())
            out.write(b"\n")
    except ClockError as error:
        # A file that is not JSON is told so first, as when it was read whole before computing.
        try:
            for _ in games:
                pass
        except InputError as bad:
            raise CommandFailed(str(bad)) from None
        raise CommandFailed(str(error)) from None
    except InputError as error:
        raise CommandFailed(str(error)) from None


def _write_live(games: list, many: bool, options: dict, out: Output) -> None:
    """Live game files (issue 16): each one's ledger and clocks, or the JSON of them (all in memory: a
    live game file holds one game or a few)."""
    from corr.clock.live.gamefile import instant_ms
    from corr.clock.live.text import compute_live_file, live_json, render_live

    if not all(is_live_game(g) for g in games):
        raise CommandFailed(MIXED_FILE)
    try:
        now = instant_ms(options["now"], "--now") if options.get("now") else None
        clocks = []
        for i, game in enumerate(games):
            try:
                clocks.append(compute_live_file(game, now_ms=now, default_now_ms=int(time.time() * 1000)))
            except ClockError as error:
                if not many:
                    raise
                raise ClockError(f"game {i}, {error}", field=f"[{i}].{error.field}") from None
    except ClockError as error:
        raise CommandFailed(str(error)) from None
    if options.get("json"):
        result = [live_json(c) for c in clocks]
        out.write(orjson.dumps(result if many else result[0]) + b"\n")
    else:
        out.write("\n\n".join((f"game {i}\n" if many else "") + render_live(c)
                               for i, c in enumerate(clocks)).encode() + b"\n")


def _table(clock: GameClock) -> str:
    from corr.clock.text import render_table

    return render_table(clock)


def local_today() -> datetime | None:
    """Now in the settings' time zone (``TIME_ZONE``, UTC by default), or None when only Django can tell."""
    if os.environ.get("DJANGO_SETTINGS_MODULE", "corr.settings") != "corr.settings":
        return None  # another settings module may say another zone
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        zone = ZoneInfo(os.environ.get("TIME_ZONE", "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        return None  # Django's settings refuse it with their own message
    return datetime.now(zone)  # the instant, in the zone whose date a game counted in dates takes


def main(argv: list[str]) -> int | None:
    """Run the command without Django; None when an argument asks for Django (``--settings``, ``-v`` ...)."""
    parser = argparse.ArgumentParser(prog="manage.py clock", add_help=False)
    add_arguments(parser)
    if any(arg in ("-h", "--help") for arg in argv):
        return None
    try:
        options, unknown = parser.parse_known_args(argv)
    except SystemExit:
        return None
    today = local_today()
    if unknown or today is None or options.with_events:  # --with words its changes: Django's catalogues
        return None
    try:
        run(vars(options), today=today, stdin=sys.stdin.buffer, stdout=sys.stdout.buffer)
    except CommandFailed as error:
        sys.stdout.flush()
        sys.stderr.write(f"CommandError: {error}\n")
        if error.returncode == DEAD_WORKER:
            exit_now(DEAD_WORKER)
        return error.returncode
    return 0


if __name__ == "__main__":
    status = main(sys.argv[1:])
    if status is None:  # only Django's options need Django: hand over
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
        from django.core.management import execute_from_command_line

        execute_from_command_line(["manage.py", "clock", *sys.argv[1:]])
    else:
        sys.exit(status)
