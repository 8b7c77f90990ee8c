"""A test's own production stack: Redis, daphne serving ``corr.asgi`` (one or more), gunicorn serving ``corr.wsgi``,
a Celery worker with its beat, and optionally a PostgreSQL cluster of its own (:class:`PrivatePostgres`).

Used by the outage tests (tests/live/test_outages.py, tests/service/test_postgres_outage.py) and the two-server
test (tests/live/test_two_servers.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from django.conf import settings

from ..nightly.test_worker_integration import database_url

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Stack:
    """A test's own Redis, daphne servers (``daphne``, ``daphne2``, ...) and Celery worker + beat, on the test
    database; each can be stopped and started again."""

    def __init__(self, tmp_path: Path, *, gap_ms: int = 5000, database: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        """``database``: the URL the servers use (None: the test database); ``env``: more of their environment."""
        self.tmp = tmp_path
        self.redis_port = free_port()
        self.http_ports: dict[str, int] = {}
        self.env = {**os.environ, "DATABASE_URL": database or database_url(), "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
                    "SECRET_KEY": settings.SECRET_KEY, "SECURE_SSL_REDIRECT": "0", "DEBUG": "0",
                    "ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SETTINGS_MODULE": "corr.settings",
                    "LIVE_BEAT_SECONDS": "1", "LIVE_GAP_MS": str(gap_ms), "LIVE_SWEEP_SECONDS": "1", **(env or {})}
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str) -> None:
        """Start ``redis``, ``worker``, a daphne (any name that starts with ``daphne``) or a gunicorn (``gunicorn``...,
        four sync workers), a server's port kept across restarts."""
        if name.startswith(("daphne", "gunicorn")):
            self.http_ports.setdefault(name, free_port())
        commands = {
            "redis": [shutil.which("redis-server") or "redis-server", "--port", str(self.redis_port), "--bind",
                      "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(self.tmp)],
            **{daphne: [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "corr.asgi:application"]
               for daphne, port in self.http_ports.items() if daphne.startswith("daphne")},
            # 4 sync workers: one per client of the outage test (2 movers, XFCC) and one spare, so that no request
            # queues behind another's wait for the database (a sync worker is held for the whole wait).
            **{wsgi: [str(BIN / "gunicorn"), "-b", f"127.0.0.1:{port}", "-w", "4", "corr.wsgi"]
               for wsgi, port in self.http_ports.items() if wsgi.startswith("gunicorn")},
            "worker": [str(BIN / "celery"), "-A", "corr", "worker", "-B", "--loglevel=warning", "--concurrency=1",
                       "--without-gossip", "--without-mingle", "--without-heartbeat",
                       "--schedule", str(self.tmp / "beat-schedule"),
                       f"--hostname=corr-outage-{os.getpid()}-{time.monotonic_ns()}@%h"],
        }
        log = (self.tmp / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(commands[name], cwd=ROOT, env=self.env, stdout=log,
                                                stderr=subprocess.STDOUT, start_new_session=True)
        if name == "redis":
            self._wait(lambda: socket.create_connection(("127.0.0.1", self.redis_port), timeout=1).close())
        if name.startswith(("daphne", "gunicorn")):
            # A cheap answer through Django's whole stack (URLs, middleware), not the API schema: drf-spectacular
            # builds that on each request, 6 s for a worker's first and about 1 s after, so on CI's loaded machine
            # every 2-second probe timed out for the whole minute (the outage test's setup error of stop 49).
            self._wait(lambda: _answers(self.url("/favicon.ico", name)))

    def steady(self) -> None:
        """Wait until the worker answers a ping over Redis and a beat is stored: no outage before a first beat."""
        from celery import Celery

        from corr.models import LiveHeartbeat

        pinger = Celery(broker=self.env["REDIS_URL"], set_as_current=False)  # not the tasks' app of later tests
        self._wait(lambda: pinger.control.ping(timeout=1) or (_ for _ in ()).throw(RuntimeError("no worker")))
        self._wait(lambda: LiveHeartbeat.objects.get())
        pinger.close()

    def stop(self, name: str) -> None:
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)  # as a crash: nothing of it runs after this instant
        process.wait(timeout=20)

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.stop(name)

    def url(self, path: str, server: str = "daphne") -> str:
        return f"http://127.0.0.1:{self.http_ports[server]}{path}"

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")

    @staticmethod
    def _wait(probe, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                probe()
                return
            except Exception:  # noqa: BLE001 - not up yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


def _answers(url: str) -> None:
    """Raise unless the server answers ``url`` (the favicon's permanent redirect) within 2 s."""
    answer = requests.get(url, timeout=2, allow_redirects=False)
    if answer.status_code != 301:
        raise RuntimeError(f"{url} answered {answer.status_code}")


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (``initdb`` in a temporary folder, a free port on 127.0.0.1), which
    the test may stop and start again: never the shared server, whose other users' tests would fail.

    ``available()`` tells whether the server's binaries are installed (``/usr/lib/postgresql/*/bin``). Run as root
    (CI's container), the cluster belongs to the ``postgres`` user, since PostgreSQL refuses to run as root.
    """

    def __init__(self) -> None:
        self.bin = self.binaries()
        assert self.bin is not None, "PostgreSQL's binaries are not installed"
        # Not under pytest's tmp_path: it is private to root (0700), and the server may run as another user.
        self.home = Path(tempfile.mkdtemp(prefix="corr-pg-"))
        self.data = self.home / "data"
        self.port = free_port()
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_owner:
            shutil.chown(self.home, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    @staticmethod
    def binaries() -> Path | None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        return found[-1].parent if found and (found[-1].parent / "initdb").exists() else None

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_owner, str(self.bin / program), *args], check=True, capture_output=True, cwd=self.home)

    def start(self) -> None:
        # fsync off: a test's cluster on a shared machine; a fast stop checkpoints, so no commit is lost by it.
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.home / "server.log"), "-w", "-t", "60", "-o",
                  f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self) -> None:
        """Stop as an operator's ``systemctl stop`` does (``-m fast``): sessions ended, their transactions rolled
        back, the committed ones kept."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create(self, database: str) -> str:
        """A new database of the cluster, migrated; its URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", database)
        env = {**os.environ, "DATABASE_URL": self.url(database), "DJANGO_SETTINGS_MODULE": "corr.settings"}
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], check=True, cwd=ROOT, env=env,
                       capture_output=True)
        return self.url(database)

    def remove(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(self.home, ignore_errors=True)
