"""A private PostgreSQL cluster seeded with live games, for the tests that stop the database under load
(tests/service/test_postgres_outage.py, tests/service/test_database_bounds.py)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys

from .stack import ROOT, PrivatePostgres


def production_db_env() -> dict[str, str]:
    """The database's bounds at their production defaults: the machine's own ``DB_*`` choices blanked."""
    return {name: "" for name in os.environ if name.startswith("DB_")}


@contextlib.contextmanager
def seeded_cluster(database: str, games: int):
    """Yield (the cluster, its database's URL, the games of tests/support/outage_seed.py) for ``games`` live
    games in a database ``database`` of a cluster of the test's own; the cluster is removed afterwards.

    Skips without PostgreSQL's or Redis's binaries on a developer's machine, fails under CI (``needs_server``).
    """
    from ..conftest import needs_server

    needs_server("PostgreSQL's binaries (initdb, pg_ctl)", PrivatePostgres.binaries() is not None)
    needs_server("redis-server (the binary)", shutil.which("redis-server") is not None)
    postgres = PrivatePostgres()
    try:
        postgres.start()
        url = postgres.create(database)
        seeded = subprocess.run(
            [sys.executable, "manage.py", "shell", "--no-imports", "-c",
             f"from tests.support.outage_seed import seed; seed({int(games)})"],
            cwd=ROOT, env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True, check=True)
        yield postgres, url, json.loads(seeded.stdout.strip().splitlines()[-1])
    finally:
        postgres.remove()
