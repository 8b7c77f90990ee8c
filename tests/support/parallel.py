"""Each pytest-xdist worker's own Redis, so that the workers of one run, and two runs at once, share none.

A pytest plugin, loaded by pytest.ini (``-p tests.support.parallel``) so that it runs before pytest-django
reads the settings. In an xdist worker (``PYTEST_XDIST_WORKER`` set) it starts a private ``redis-server`` on a
free loopback port, with no persistence, before the settings are read, and stops it when the worker ends:

- ``REDIS_URL``, when set (CI's PostgreSQL and Redis pass), is pointed at it, keeping its database number:
  Celery's broker and results, channels-redis and the presence cache of that worker's tests, and the real
  Celery workers and daphnes they start, all use that worker's server;
- with ``REDIS_URL`` unset (the embedded pass), the tests that need a real Redis all the same (a Celery worker,
  channels-redis) find it through :func:`redis_for_tests`.

The test databases need nothing here: pytest-django suffixes their names with the worker's id
(``test-db.sqlite3_gw0``, ``test_corr_gw0``). Ports are free ones asked of the kernel (``free_port``), the
Celery workers' host names carry their process id, files go to each test's ``tmp_path``. Outside xdist
(``pytest`` with no ``-n``) nothing changes: ``REDIS_URL``, else the machine's Redis on 127.0.0.1:6379.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from urllib.parse import urlsplit

import pytest

# The private server's address, for the tests that need a Redis when REDIS_URL is unset; set in workers only.
ENV = "CORR_TEST_REDIS"
MACHINE_REDIS = "redis://127.0.0.1:6379"
_server: subprocess.Popen | None = None
_directory: str | None = None


def redis_for_tests(db: int) -> str:
    """The Redis URL of a test that needs a real Redis: ``REDIS_URL`` when set, else database ``db`` of the
    worker's own server (under xdist) or of the machine's Redis."""
    return os.environ.get("REDIS_URL") or f"{os.environ.get(ENV, MACHINE_REDIS)}/{db}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _die_with_parent() -> None:
    # Linux's PR_SET_PDEATHSIG (1): the server gets SIGTERM when the worker dies, even by SIGKILL, so that a
    # crashed or cancelled run leaves no redis-server behind.
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)


def _start(port: int, directory: str) -> subprocess.Popen | None:
    """A redis-server on ``port``, once it answers PING; None when it exited (the port was taken meanwhile)."""
    server = subprocess.Popen(
        [shutil.which("redis-server"), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", directory, "--logfile", os.path.join(directory, "redis.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent)
    deadline = time.monotonic() + 20
    while server.poll() is None and time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                if connection.recv(16).startswith(b"+PONG"):
                    return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    server.wait()
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """In an xdist worker, its own Redis in the environment before pytest-django imports the settings."""
    global _server, _directory
    if not os.environ.get("PYTEST_XDIST_WORKER") or shutil.which("redis-server") is None:
        return
    _directory = directory = tempfile.mkdtemp(prefix=f"corr-redis-{os.environ['PYTEST_XDIST_WORKER']}-")
    for _attempt in range(5):  # a free port can be taken by another process before the server binds it
        port = _free_port()
        _server = _start(port, directory)
        if _server is not None:
            break
    else:
        raise RuntimeError(f"no private redis-server would start: see {directory}/redis.log")
    base = f"redis://127.0.0.1:{port}"
    os.environ[ENV] = base
    if os.environ.get("REDIS_URL"):
        database = urlsplit(os.environ["REDIS_URL"]).path.strip("/") or "0"
        os.environ["REDIS_URL"] = f"{base}/{database}"


def pytest_unconfigure(config):
    if _server is not None:
        _server.terminate()
        _server.wait(timeout=10)
    if _directory is not None:
        shutil.rmtree(_directory, ignore_errors=True)


SLOW_FIRST = (
    "tests/test_readme.py",
    "tests/api/test_preview_stores_nothing.py",
    "tests/service/test_postgres_outage.py",
    "tests/live/test_sockets_survive_redis.py",
    "tests/service/test_database_bounds.py",
    "tests/live/test_outages.py",
    "tests/conditional/test_conditional_property.py",
)
"""The modules of the longest tests, longest first (``make test``'s ``--durations``: the README's commands alone took
216 s of a 481 s pass). Collected where they fall (``tests/test_readme.py`` after every folder), they were handed out
last and the pass ended on one worker running them while the others had finished."""


def _rank(item) -> int:
    return next((i for i, module in enumerate(SLOW_FIRST) if item.nodeid.startswith(module)), len(SLOW_FIRST))


def pytest_collection_modifyitems(session, config, items):
    """Each worker's first tests are long ones: the modules of :data:`SLOW_FIRST` dealt in turn to the heads of the
    chunks xdist's ``worksteal`` hands out (the collection cut in ``workercount`` contiguous chunks, as its
    ``check_schedule`` cuts it; a worker that runs out steals from the end of another's), every other test in its
    collected order. Every worker computes the same order (xdist requires it). Outside xdist: those modules first."""
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    slow: dict[int, list] = {}
    rest = []
    for item in items:
        rank = _rank(item)
        (rest if rank == len(SLOW_FIRST) else slow.setdefault(rank, [])).append(item)
    heads: list[list] = [[] for _ in range(workers)]
    for turn, rank in enumerate(sorted(slow)):
        heads[turn % workers].extend(slow[rank])
    sizes, left = [], len(items)
    for i in range(workers):  # worksteal's first cut: each idle worker a share of what is left
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    if any(len(head) > size for head, size in zip(heads, sizes, strict=True)):  # a few tests only: the long ones first
        items[:] = [item for rank in sorted(slow) for item in slow[rank]] + rest
        return
    ordered, taken = [], 0
    for head, size in zip(heads, sizes, strict=True):
        ordered += head + rest[taken:taken + size - len(head)]
        taken += size - len(head)
    items[:] = ordered
