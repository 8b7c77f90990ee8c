"""A serving process's collector (corr/gctune.py, issues 27 and 42): start-up frozen, the youngest generation's
threshold from ``GC_GEN0_THRESHOLD``; read in a process that loaded ``corr.asgi`` as daphne does, and one that loaded
``corr.wsgi`` as each gunicorn worker does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import gc, json, corr.{app}; print(json.dumps({{'threshold': gc.get_threshold(),"
         " 'frozen': gc.get_freeze_count()}}))")
APPS = pytest.mark.parametrize("app", ["asgi", "wsgi"])


def _served(app: str, **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE.format(app=app)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120,
                          env={**os.environ, "DJANGO_SETTINGS_MODULE": "corr.settings", "SECRET_KEY": "t",
                               "LIVE_BEAT_SECONDS": "0", **env})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@APPS
def test_the_application_freezes_start_up_and_sets_the_youngest_threshold(app):
    served = _served(app, GC_GEN0_THRESHOLD="12345")
    assert served["threshold"][0] == 12345
    assert served["frozen"] > 10_000  # Django, the apps, the translations: never walked again


@APPS
def test_the_default_threshold_is_ten_times_cpythons(app):
    assert _served(app)["threshold"][0] == 7000
