"""Helpers of the benchmark suite: databases, servers and rows of the results table."""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PG = {"host": os.environ.get("BENCH_PG_HOST", "127.0.0.1"), "port": os.environ.get("BENCH_PG_PORT", "5432"),
      "user": os.environ.get("BENCH_PG_USER", "postgres")}
"""The PostgreSQL server of every section (trust authentication), by default CI's."""
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")


@dataclass
class Row:
    """One figure, the floor it is compared with, their ratio and the target it must meet."""

    name: str
    figure: float
    floor: float | None
    unit: str
    ratio: float | None
    target: str
    met: bool | None
    note: str = ""

    def as_json(self) -> dict:
        return asdict(self)


def database_url(name: str) -> str:
    return f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{name}"


def recreate_database(name: str, settings: str = "corr.settings") -> None:
    """Drop and create a PostgreSQL database, then migrate it (fresh for every measurement).

    ``settings``: the settings module whose apps are migrated (``bench.settings`` adds the floor's table).
    """
    args = ["-h", PG["host"], "-p", PG["port"], "-U", PG["user"]]
    subprocess.run(["dropdb", *args, "--if-exists", "--force", name], check=True, capture_output=True)
    subprocess.run(["createdb", *args, name], check=True, capture_output=True)
    manage("migrate", "--noinput", "-v0", env={"DATABASE_URL": database_url(name),
                                               "DJANGO_SETTINGS_MODULE": settings})


def service_env(extra: dict | None = None) -> dict:
    env = dict(os.environ, SECRET_KEY="bench-secret-key-not-for-production", DEBUG="0", SECURE_SSL_REDIRECT="0",
               ALLOWED_HOSTS="127.0.0.1,localhost", LOG_LEVEL="ERROR",
               EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend")
    env.update(extra or {})
    return env


def manage(*args: str, env: dict | None = None) -> str:
    done = subprocess.run([PY, str(ROOT / "manage.py"), *args], cwd=ROOT, env=service_env(env),
                          capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def spread(values: list[float], digits: int | None = None) -> dict:
    """``{"median", "min", "max"}`` of ``values`` (rounded to ``digits`` when given): how every comparison of the
    benches is quoted, the median of its alternating rounds with their range."""
    out = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    return out if digits is None else {key: round(value, digits) for key, value in out.items()}


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


KNIGHTS_DANCE = {"white": ("Nf3", "Ng1"), "black": ("Nf6", "Ng8")}
"""Legal chess moves for games of any length (issue 36: the server refuses an illegal move): the knights go out
and back; the repeated position draws only when a player claims it (FIDE 9.2)."""


def knight_move(colour: str, number: int) -> str:
    """``colour``'s move ``number`` of the knights' dance."""
    return KNIGHTS_DANCE[colour][(number - 1) % 2]
