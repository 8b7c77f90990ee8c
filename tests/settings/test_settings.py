"""The one settings module: strict about bad values, safe in production."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, **env):
    dropped = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "SECURE_SSL_REDIRECT")
    full = {k: v for k, v in os.environ.items() if k not in dropped}
    full.update(env)
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], capture_output=True, text=True,
                          env=full, cwd=ROOT)


def test_production_settings_pass_the_deploy_check():
    done = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0",
                  SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
                  ALLOWED_HOSTS="corr.example.org")
    assert done.returncode == 0, done.stdout + done.stderr


def test_without_debug_serving_needs_a_secret_key():
    done = manage("check", "--deploy", DEBUG="0")
    assert done.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in done.stderr
    served = subprocess.run([sys.executable, "-c", "import corr.wsgi"], capture_output=True, text=True, cwd=ROOT,
                            env={k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")})
    assert served.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in served.stderr


def test_commands_run_without_a_secret_key():
    done = manage("clock", "tests/clock/example_game.json", "--json")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("env, message", [
    ({"DEBUG": "maybe"}, "DEBUG must be a boolean"),
    ({"DEBUG": "1", "TIME_ZONE": "Mars/Olympus"}, "TIME_ZONE is not a known time zone"),
    ({"DEBUG": "1", "NIGHTLY_HOUR": "25"}, "NIGHTLY_HOUR must be 0..23"),
    ({"DEBUG": "1", "REMINDER_DAYS": "7,soon"}, "REMINDER_DAYS must be whole numbers"),
    ({"DEBUG": "1", "EMAIL_CLAIM_LEASE_SECONDS": "5min"}, "EMAIL_CLAIM_LEASE_SECONDS must be a whole number"),
    ({"DEBUG": "1", "EMAIL_CLAIM_LEASE_SECONDS": "0"}, "EMAIL_CLAIM_LEASE_SECONDS must be at least 1"),
    ({"DEBUG": "1", "EMAIL_CLAIM_LEASE_SECONDS": "20"}, "EMAIL_CLAIM_LEASE_SECONDS must be longer than EMAIL_TIMEOUT"),
    ({"DEBUG": "1", "LIVE_BEAT_SECONDS": "-1"}, "LIVE_BEAT_SECONDS must be at least 0"),
    ({"DEBUG": "1", "LIVE_BEAT_SECONDS": "20"}, "LIVE_GAP_MS (30000) must exceed two beats"),
    ({"DEBUG": "1", "HANDOFF_QUEUE_MAX": "0"}, "HANDOFF_QUEUE_MAX must be at least 1"),
    ({"DEBUG": "1", "DB_POOL": "pooled"}, "DB_POOL must be a boolean"),
    ({"DEBUG": "1", "DB_POOL_MIN_SIZE": "-1"}, "DB_POOL_MIN_SIZE must be at least 0"),
    ({"DEBUG": "1", "DB_POOL_MAX_SIZE": "0"}, "DB_POOL_MAX_SIZE must be at least 1"),
    ({"DEBUG": "1", "DB_POOL_MAX_SIZE": "ten"}, "DB_POOL_MAX_SIZE must be a whole number"),
    ({"DEBUG": "1", "DB_POOL_MIN_SIZE": "5", "DB_POOL_MAX_SIZE": "4"},
     "DB_POOL_MAX_SIZE must be at least DB_POOL_MIN_SIZE (5), got 4"),
    ({"DEBUG": "1", "DB_POOL_TIMEOUT": "2.5"}, "DB_POOL_TIMEOUT must be a whole number"),
    ({"DEBUG": "1", "DB_POOL_TIMEOUT": "0"}, "DB_POOL_TIMEOUT must be at least 1"),
])
def test_bad_values_are_refused_by_name(env, message):
    done = manage("check", **env)
    assert done.returncode != 0
    assert message in done.stderr


def test_the_suite_runs_on_the_database_that_database_url_names(db):
    from django.db import connection

    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected


def test_the_email_claim_lease_is_five_minutes_unless_set():
    read = "from django.conf import settings; print(settings.EMAIL_CLAIM_LEASE_SECONDS)"
    default = manage("shell", "--no-imports", "-c", read, DEBUG="1", EMAIL_CLAIM_LEASE_SECONDS="")
    assert default.stdout.split() == ["300"], default.stderr
    chosen = manage("shell", "--no-imports", "-c", read, DEBUG="1", EMAIL_CLAIM_LEASE_SECONDS="120")
    assert chosen.stdout.split() == ["120"], chosen.stderr


def test_the_web_processes_beat_every_two_seconds_unless_set():
    read = "from django.conf import settings; print(settings.LIVE_BEAT_SECONDS, settings.LIVE_GAP_MS)"
    default = manage("shell", "--no-imports", "-c", read, DEBUG="1", LIVE_BEAT_SECONDS="", LIVE_GAP_MS="")
    assert default.stdout.split() == ["2", "30000"], default.stderr
    off = manage("shell", "--no-imports", "-c", read, DEBUG="1", LIVE_BEAT_SECONDS="0", LIVE_GAP_MS="1000")
    assert off.stdout.split() == ["0", "1000"], off.stderr


POSTGRES = "postgres://corr@db.example.org:5432/corr"  # read, never connected to
READ_DATABASE = ("from django.conf import settings; db = settings.DATABASES['default'];"
                 " print(db['CONN_MAX_AGE'], db.get('OPTIONS', {}).get('pool'))")


def database_settings(*, asgi: bool = False, **env) -> str:
    """The default database's CONN_MAX_AGE and pool options as a process of that kind reads them."""
    if asgi:  # the ASGI application's own module marks the process before the settings load
        code = f"import corr.asgi; {READ_DATABASE}"
        full = {k: v for k, v in os.environ.items() if not k.startswith("DB_")}
        full.update(DEBUG="1", DJANGO_SETTINGS_MODULE="corr.settings", **env)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, cwd=ROOT)
    else:
        unset = {k: "" for k in os.environ if k.startswith("DB_")}  # the machine's own choices
        done = manage("shell", "--no-imports", "-c", READ_DATABASE, DEBUG="1", **{**unset, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_postgresql_pools_its_sessions_unless_told_not_to():
    assert database_settings(DATABASE_URL=POSTGRES) == "0 {'min_size': 2, 'max_size': 10, 'timeout': 1}"
    chosen = database_settings(DATABASE_URL=POSTGRES, DB_POOL_MIN_SIZE="0", DB_POOL_MAX_SIZE="4", DB_POOL_TIMEOUT="3")
    assert chosen == "0 {'min_size': 0, 'max_size': 4, 'timeout': 3}"
    # The pool keeps the sessions, so a kept connection on top means nothing (Django refuses both).
    assert database_settings(DATABASE_URL=POSTGRES, DB_CONN_MAX_AGE="60").startswith("0 {")


def test_without_the_pool_connections_are_kept_under_wsgi_and_closed_after_each_request_under_asgi():
    assert database_settings(DATABASE_URL=POSTGRES, DB_POOL="0") == "60 None"
    assert database_settings(DATABASE_URL=POSTGRES, DB_POOL="0", DB_CONN_MAX_AGE="300") == "300 None"
    assert database_settings(asgi=True, DATABASE_URL=POSTGRES, DB_POOL="0", DB_CONN_MAX_AGE="300") == "0 None"
    assert database_settings(asgi=True, DATABASE_URL=POSTGRES).startswith("0 {'min_size': 2")


def test_sqlite_has_no_pool_and_keeps_no_connection():
    assert database_settings(DATABASE_URL="sqlite:///x.sqlite3") == "0 None"
    assert database_settings(DATABASE_URL="sqlite:///x.sqlite3", DB_POOL="1", DB_CONN_MAX_AGE="60") == "0 None"
