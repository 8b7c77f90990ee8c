"""The database settings of the code before issue 23's item 4, for ``bench/asgi_connections.py``'s floor.

No pool, and every connection kept for ``DB_CONN_MAX_AGE`` (60 s) even under ASGI, where each
request's sync code runs in a thread of its own and its kept connection is never reused. Only the
benchmark loads this module (``DJANGO_SETTINGS_MODULE=bench.kept_connections_settings``).
"""

from corr.settings import *  # noqa: F403
from corr.settings import DATABASES, env_int

DATABASES["default"].get("OPTIONS", {}).pop("pool", None)
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 60)
