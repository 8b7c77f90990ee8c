"""Run schemathesis against the API of a live server: no 5xx, and every answer as the schema says.

``make schemathesis`` (CI runs it after ``make test``): migrates a fresh
database (a SQLite file in a temporary directory, or
``SCHEMATHESIS_DATABASE_URL``), stores an arbiter with a postal and a server
game, starts gunicorn on a free port, and runs schemathesis on
``/api/schema/`` with the arbiter's token, checks ``not_a_server_error`` and
``response_schema_conformance``, bounded examples per operation
(``SCHEMATHESIS_MAX_EXAMPLES``, default 20: under 3 minutes on 2 cores).
The exit status is schemathesis's: non-zero on any failure.
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
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

# Operations left out of the run for now, each with its reason. Remove an entry once its fix has landed.
EXCLUDED_OPERATION_IDS: dict[str, str] = {}
"""Operations left out of the run, each with its reason (none: every operation is checked)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def seed() -> None:
    """Inside Django (``python run_schemathesis.py seed``): the data the run starts from; prints the token."""
    import django

    django.setup()
    from datetime import date

    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from corr.games import services

    arbiter = User.objects.create_user("st-arbiter", "st@example.org", "st-arbiter-pass-1")
    services.arbiter_grant(user=arbiter)
    anna = User.objects.create_user("st-anna", "anna@example.org", "st-anna-pass-1")
    boris = User.objects.create_user("st-boris", "boris@example.org", "st-boris-pass-1")
    today = date.today()
    for mode in ("postal", "server"):
        tournament = services.tournament_create(by=arbiter, name=f"{mode} cup", official_start=date(2026, 1, 10),
                                                mode=mode, presumed_transit_days=3 if mode == "postal" else None)
        services.game_create(by=arbiter, tournament=tournament, white=anna, black=boris, today=today)
    # A server game the token's user plays (issue 26), in a tournament of its own: resigning, offering and
    # answering a draw answer more than 403 (the other tournaments' rules stay the arbiter's to change).
    played = services.tournament_create(by=arbiter, name="players cup", official_start=date(2026, 1, 10),
                                        mode="server")
    services.game_create(by=arbiter, tournament=played, white=arbiter, black=anna, today=today)
    print(Token.objects.create(user=arbiter).key)


def wait_for(url: str, server: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"{url} did not answer within {seconds} s")


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="corr-schemathesis-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(SECRET_KEY="schemathesis-only-not-secret", DEBUG="0", SECURE_SSL_REDIRECT="0",
               DATABASE_URL=os.environ.get("SCHEMATHESIS_DATABASE_URL") or f"sqlite:///{workdir / 'db.sqlite3'}",
               DJANGO_SETTINGS_MODULE="corr.settings", PYTHONPATH=str(ROOT),
               # The sign-in throttle (10/min) would answer nearly every generated sign-in with 429 and
               # leave the view untested; the lockout stays on, and tests/security test the throttle.
               SIGN_IN_RATE="100000/min")
    port = free_port()
    server = None
    server_log = workdir / "gunicorn.log"
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        token = subprocess.run([sys.executable, __file__, "seed"], cwd=ROOT, env=env, check=True,
                               capture_output=True, text=True).stdout.strip().splitlines()[-1]
        server = subprocess.Popen([str(BIN / "gunicorn"), "corr.wsgi", "--bind", f"127.0.0.1:{port}",
                                   "--workers", "2", "--timeout", "60", "--log-level", "warning"],
                                  cwd=ROOT, env=env, start_new_session=True, stderr=server_log.open("w"))
        schema_url = f"http://127.0.0.1:{port}/api/schema/"
        wait_for(schema_url, server)
        config = workdir / "schemathesis.toml"
        # Path ids of the seeded objects, so that the game actions reach their logic instead of a 404.
        config.write_text('[parameters]\n"path.game_id" = 1\n"path.tournament_id" = 1\n'
                          # The players' results (issue 26): the game the token's user plays (seed()).
                          '\n[[operations]]\ninclude-path-regex = "/(resign|draw-offer)"\n'
                          '[operations.parameters]\n"path.game_id" = 3\n')
        command = [str(BIN / "schemathesis"), "--config-file", str(config), "--no-color", "run", schema_url,
                   "--checks", "not_a_server_error,response_schema_conformance",
                   "--header", f"Authorization: Token {token}",
                   "--max-examples", os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "20"),
                   "--seed", os.environ.get("SCHEMATHESIS_SEED", "20261129"),
                   # One worker: with two, hypothesis's lambda descriptions hit a CPython 3.11 race in
                   # ast.parse ("AST constructor recursion depth mismatch"), a runner error, not the API's.
                   "--workers", "1", "--request-timeout", "30"]
        for operation_id in EXCLUDED_OPERATION_IDS:
            command += ["--exclude-operation-id", operation_id]
        started = time.monotonic()
        status = subprocess.run(command, cwd=workdir, env=env).returncode
        print(f"schemathesis: exit status {status} in {time.monotonic() - started:.0f} s")
        if status:
            errors = [line for line in server_log.read_text().splitlines() if "Internal Server Error" in line
                      or "Traceback" in line or "Error:" in line]
            print("server errors (gunicorn's log):", *errors[-40:], sep="\n  ")
        return status
    finally:
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # gunicorn's own process group (start_new_session)
            server.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["seed"]:
        seed()
    else:
        sys.exit(main())
