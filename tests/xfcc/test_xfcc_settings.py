"""XFCC_REQUIRE_HTTPS: on whenever DEBUG is off; XFCC_USER_RATE: a DRF rate; both read strictly (corr/settings.py)."""

from __future__ import annotations

from ..settings.test_settings import manage

READ = "from django.conf import settings; print(settings.XFCC_REQUIRE_HTTPS)"


def test_xfcc_requires_https_without_debug_unless_set():
    production = manage("shell", "--no-imports", "-c", READ, DEBUG="0", SECRET_KEY="x", XFCC_REQUIRE_HTTPS="")
    assert production.stdout.split() == ["True"], production.stderr
    development = manage("shell", "--no-imports", "-c", READ, DEBUG="1", XFCC_REQUIRE_HTTPS="")
    assert development.stdout.split() == ["False"], development.stderr
    behind_a_proxy = manage("shell", "--no-imports", "-c", READ, DEBUG="0", SECRET_KEY="x", XFCC_REQUIRE_HTTPS="0")
    assert behind_a_proxy.stdout.split() == ["False"], behind_a_proxy.stderr


def test_a_bad_value_is_refused_by_name():
    done = manage("check", DEBUG="1", XFCC_REQUIRE_HTTPS="sometimes")
    assert done.returncode != 0 and "XFCC_REQUIRE_HTTPS must be a boolean" in done.stderr


def test_a_bad_xfcc_user_rate_is_refused_by_name():
    done = manage("check", DEBUG="1", XFCC_USER_RATE="lots")
    assert done.returncode != 0 and "XFCC_USER_RATE must look like 10/min" in done.stderr
    read = manage("shell", "--no-imports", "-c", "from django.conf import settings; print(settings.XFCC_USER_RATE)",
                  DEBUG="1", XFCC_USER_RATE="20/s")
    assert read.stdout.split() == ["20/s"], read.stderr
