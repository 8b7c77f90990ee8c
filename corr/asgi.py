"""The ASGI application: the site over HTTP and the live page's WebSocket (docs/live.md).

Production serves it with an ASGI server (``daphne corr.asgi:application`` or
``uvicorn corr.asgi:application``) behind the same settings as the WSGI site, the pushes
crossing processes through channels-redis on ``REDIS_URL``; the embedded ``make run`` serves it
with ``manage.py runserver`` (daphne is the first installed app) and the in-memory layer.
"""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured

from corr import serving

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
# Before the settings load: they keep no connection per thread under ASGI, where each request's sync
# code runs in a thread of its own (DB_POOL, DB_CONN_MAX_AGE in corr/settings.py).
serving.ASGI = True
serving.WEB = True
# Django first: the routing imports consumers that import models.
http_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from corr.closecodes import daphne_sends_endpoint_codes  # noqa: E402
from corr.live.socketauth import SocketAuthStack  # noqa: E402
from corr.live.unavailable import ClosedWhileDatabaseDown  # noqa: E402
from corr.routing import websocket_urlpatterns  # noqa: E402

# The live socket's refusals close with 1003, 1007 and 1009, and a socket opened while the database is down with
# 1013: codes daphne's autobahn refuses to send as asked.
daphne_sends_endpoint_codes()

application = ProtocolTypeRouter({
    "http": http_application,
    # The session cookie signs the user in (Channels' AuthMiddlewareStack, its reads on the sockets' pool:
    # corr/live/socketauth.py), so a page of another site must not open
    # the socket with it: the Origin must be one of ALLOWED_HOSTS (cross-site WebSocket hijacking).
    # A database error while a socket opens closes it with 1013, "try again later", rather than HTTP 500 at the
    # handshake (corr/live/unavailable.py, issue 42).
    "websocket": ClosedWhileDatabaseDown(
        AllowedHostsOriginValidator(SocketAuthStack(URLRouter(websocket_urlpatterns)))),
})

if settings.SECRET_KEY_MISSING:
    # As corr/wsgi.py: serving never runs on a key of this process alone.
    raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")

# This process takes moves: it beats (corr.live.beat, docs/reliability.md).
from corr.live.beat import beating_start  # noqa: E402

beating_start()

# Last: what start-up made is frozen out of the collector's walks (corr/gctune.py).
from corr.gctune import tune_for_serving  # noqa: E402

tune_for_serving(settings.GC_GEN0_THRESHOLD)
