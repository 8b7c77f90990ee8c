import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from corr import serving

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
# Before the settings load: a web process's statements and lock waits are bounded (corr/settings.py).
serving.WEB = True
application = get_wsgi_application()

if settings.SECRET_KEY_MISSING:
    # Commands run without a key (settings.py); serving never does: sessions and CSRF tokens
    # signed with a key of this process alone would break at every restart.
    raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")

# This process takes moves: it beats (corr.live.beat, docs/reliability.md).
from corr.live.beat import beating_start  # noqa: E402

beating_start()

# Last: what start-up made is frozen out of the collector's walks (corr/gctune.py), as in the ASGI process.
from corr.gctune import tune_for_serving  # noqa: E402

tune_for_serving(settings.GC_GEN0_THRESHOLD)
