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
