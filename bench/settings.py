"""Settings of the benchmarks' server: corr's own, plus the floor app (``bench/floorapp``).

Only ``bench/`` loads this module (``DJANGO_SETTINGS_MODULE=bench.settings``);
production runs ``corr.settings``, which has no benchmark table or endpoint.
"""

import os

from corr.settings import *  # noqa: F403
from corr.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "bench.floorapp.apps.FloorAppConfig"]
ROOT_URLCONF = "bench.floorapp.urls"

if os.environ.get("BENCH_CLOCK_CACHE", "on") == "off":
    # The cache-miss phase of the clock reads: every read computes the clock from the stored events.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
