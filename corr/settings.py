"""The one settings module of corr, read from the environment.

Nothing configured gives the embedded run: a SQLite file beside the code,
Celery tasks executed eagerly in-process, e-mail printed to the console.
Production sets ``DEBUG=0`` (the default), ``SECRET_KEY``, ``DATABASE_URL``,
``REDIS_URL`` and ``ALLOWED_HOSTS``. Bad values raise ImproperlyConfigured.
"""

from __future__ import annotations

import os
import re
import secrets
import warnings
import zoneinfo
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from corr import serving

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false, yes/no, on/off), got {value!r}")


def env_int(name: str, default: int, minimum: int = 0) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {number}")
    return number


def env_rate(name: str, default: str) -> str:
    """A throttle's rate as DRF writes it: requests per s, min, hour or day (``10/min``)."""
    value = os.environ.get(name) or default
    if not re.fullmatch(r"[1-9][0-9]*/(s|sec|m|min|h|hour|d|day)", value):
        raise ImproperlyConfigured(f"{name} must look like 10/min (per s, min, hour or day), got {value!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
# Serving needs a configured key (corr/wsgi.py and the deploy check refuse to start without one
# when DEBUG is off); commands do not: `manage.py clock` is an offline tool, and `nightly`,
# `migrate` or `bench_data` sign nothing a later process must verify. They get a key of their own.
SECRET_KEY_MISSING = not SECRET_KEY and not DEBUG
if not SECRET_KEY:
    SECRET_KEY = ("insecure-development-key-only-for-debug-runs-0123456789abcdef" if DEBUG
                  else "unserved-" + secrets.token_urlsafe(48))

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # First: its `runserver` serves the ASGI application (corr/asgi.py), so the embedded `make run`
    # serves the live page's WebSocket too, with no other server (docs/live.md).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from the project: /api/docs/ works offline
    "axes",
    "channels",
    "accounts",
    "corr.apps.CorrConfig",
    "corr.notify.apps.NotifyConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "corr.api.http_errors.SiteNotFoundMiddleware",
    # Static files (the API docs' Swagger UI) from the app folders, by the same process: no CDN, no
    # collectstatic step, no second server.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the switcher's cookie, then the browser's Accept-Language, then English
    # (docs/operations.md, "Languages"); accounts.language applies a signed-in user's preference at sign-in.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Every answer's Content-Security-Policy (CONTENT_SECURITY_POLICY below; docs/reliability.md).
    "corr.csp.ContentSecurityPolicyMiddleware",
    # Last: turns a locked-out sign-in on the pages into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

# Scripts from this site only, never inline (corr/csp.py says what each source is for); empty: no header.
CONTENT_SECURITY_POLICY = os.environ.get("CONTENT_SECURITY_POLICY", "; ".join((
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
    "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'")))

ROOT_URLCONF = "corr.urls"
WSGI_APPLICATION = "corr.wsgi.application"
ASGI_APPLICATION = "corr.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
except ValueError as error:
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from None
# PostgreSQL: a pool of sessions per process (psycopg_pool, Django's OPTIONS["pool"]), lent to a request
# and taken back when it ends. Under ASGI each request's sync code runs in a thread of its own, and a
# connection kept per thread (CONN_MAX_AGE) was never reused nor closed: daphne held 19 idle sessions
# after two minutes of a 10-game live load, then PostgreSQL refused clients (issue 23, item 4).
DB_POOL = env_bool("DB_POOL", True)
DB_POOL_MIN_SIZE = env_int("DB_POOL_MIN_SIZE", 2)
DB_POOL_MAX_SIZE = env_int("DB_POOL_MAX_SIZE", 10, minimum=1)
# Seconds a request waits for a session when all are lent, or while PostgreSQL is down and the pool has
# none to lend; then 503 with Retry-After (corr.api.http_errors), not a hang. 1 s so that a request answers
# within 2 s when the database is gone (issue 42: at 10 s no request was answered during a 15 s outage).
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 1, minimum=1)
# While the database is known to be unreachable (the pool's last wait timed out and its connecting failed since),
# a request waits this long instead (corr/dbpools.py): a sync worker held 1 s per request made a request queued
# behind it answer after 2 s.
DB_POOL_FAIL_FAST_MS = env_int("DB_POOL_FAIL_FAST_MS", 100, minimum=1)
# Issue 42: nothing waits for a database that is gone (docs/reliability.md, "When PostgreSQL is gone").
# libpq's connect_timeout (psycopg enforces it the same way): at least 2 s, libpq reads 1 as 2.
DB_CONNECT_TIMEOUT = env_int("DB_CONNECT_TIMEOUT", 2, minimum=2)
# A web process's statements and lock waits are bounded (a request is answered, 503, rather than held);
# workers and commands are not (nobody waits on a batch; a migration may take long).
DB_STATEMENT_TIMEOUT_MS = env_int("DB_STATEMENT_TIMEOUT_MS", 10_000)
DB_LOCK_TIMEOUT_MS = env_int("DB_LOCK_TIMEOUT_MS", 5_000)
# A server that vanishes without closing its sockets (a host down, a partition): data not acknowledged
# within DB_TCP_USER_TIMEOUT_MS, or an idle session whose keepalive probes (after DB_KEEPALIVES_IDLE s, then
# every second) go unanswered, ends the connection, so a request in flight fails instead of waiting for
# the kernel's retransmissions (about 15 minutes on Linux).
DB_TCP_USER_TIMEOUT_MS = env_int("DB_TCP_USER_TIMEOUT_MS", 2_000)
DB_KEEPALIVES_IDLE = env_int("DB_KEEPALIVES_IDLE", 5, minimum=1)
if DB_POOL_MAX_SIZE < DB_POOL_MIN_SIZE:
    raise ImproperlyConfigured(f"DB_POOL_MAX_SIZE must be at least DB_POOL_MIN_SIZE ({DB_POOL_MIN_SIZE}),"
                               f" got {DB_POOL_MAX_SIZE}")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        connect_timeout=DB_CONNECT_TIMEOUT, keepalives=1, keepalives_idle=DB_KEEPALIVES_IDLE, keepalives_interval=1,
        keepalives_count=2, **({"tcp_user_timeout": DB_TCP_USER_TIMEOUT_MS} if DB_TCP_USER_TIMEOUT_MS else {}))
    if serving.WEB:
        bounds = [f"-c {name}={ms}" for name, ms in (("statement_timeout", DB_STATEMENT_TIMEOUT_MS),
                                                     ("lock_timeout", DB_LOCK_TIMEOUT_MS)) if ms]
        given = DATABASES["default"]["OPTIONS"].get("options", "")  # a DATABASE_URL's ?options=...
        if bounds:
            DATABASES["default"]["OPTIONS"]["options"] = " ".join([given, *bounds]).strip()
    if DB_POOL:
        # The pool keeps the sessions: Django refuses a pool with persistent connections on top.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": DB_POOL_MIN_SIZE,
                                                                  "max_size": DB_POOL_MAX_SIZE,
                                                                  "timeout": DB_POOL_TIMEOUT}
    elif serving.ASGI:
        # Without the pool, one connection per request: a kept one would stay with its finished thread.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
# PostgreSQL: a move's and a live press's statements are prepared once per session (corr.games.services.prepared);
# 0 behind a pooler that shares sessions between clients (PgBouncer in transaction mode).
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # BEGIN IMMEDIATE: a writing transaction takes SQLite's write lock at its start,
    # so two submissions of one move queue up instead of failing with "database is
    # locked" when the second upgrades its read lock (the same serialisation that
    # SELECT ... FOR UPDATE gives on PostgreSQL).
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    # A file, not memory, for the test database: live-server tests use several connections.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
    DATABASES["default"]["CONN_MAX_AGE"] = 0

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Axes first: it refuses a locked-out username before any password is checked.
# XFCC passwords (accounts.xfcc, issue 26) sign in only where XFCC credentials are given.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend",
                           "accounts.xfcc.XfccPasswordBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-games"
LOGOUT_REDIRECT_URL = "login"

# English is the default; Russian and French throughout (docs/operations.md, "Languages"). The catalogues are
# locale/<language>/LC_MESSAGES/django.po; `make` compiles them (.mo files are built, not committed).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates on pages in the locale's format (|date:"SHORT_DATE_FORMAT"); English keeps ISO YYYY-MM-DD.
FORMAT_MODULE_PATH = ["corr.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(f"TIME_ZONE is not a known time zone: {TIME_ZONE!r}") from None
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = True
# Without collectstatic there is no STATIC_ROOT folder: the finders serve every file, so say nothing.
warnings.filterwarnings("ignore", message="No directory at")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Sign-in hardening (docs/security.md). Proxies in front of the service that set
# X-Forwarded-For: how many; 0 trusts only the connection's address, which a client cannot forge.
NUM_PROXIES = env_int("NUM_PROXIES", 0)
# API tokens expire this many days after they were issued (accounts.tokens).
TOKEN_TTL_DAYS = env_int("TOKEN_TTL_DAYS", 30, minimum=1)
# POST /api/auth/token/: requests per client address, counted per server process (local memory).
# XFCC's wrong sign-ins are counted per address at this rate too, in a count of their own (corr.xfcc.throttles).
SIGN_IN_RATE = env_rate("SIGN_IN_RATE", "10/min")
# django-axes, by default: 5 failures for one username from one address lock that pair out of every
# sign-in (pages and token) for 15 minutes; a failure while locked out restarts the 15 minutes.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_IPWARE_PROXY_COUNT = NUM_PROXIES or None
AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if NUM_PROXIES else ("REMOTE_ADDR",)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["corr.api.parsers.BoundedJSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_RENDERER_CLASSES": ["corr.api.renderers.OrjsonRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "DEFAULT_SCHEMA_CLASS": "corr.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "corr.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"sign-in": SIGN_IN_RATE},
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "corr API",
    "DESCRIPTION": "Time accounting for correspondence games (article 50.4 and other controls).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs' scripts and styles from drf-spectacular-sidecar, not a public CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"ColourEnum": "corr.models.Colour", "ModeEnum": "corr.models.Mode",
                            "MailEnum": "corr.models.Mail", "ImportStatusEnum": "corr.models.ImportStatus",
                            "OverstepStatusEnum": "corr.models.OverstepStatus"},
    # drf-spectacular's own hook, then the links between operations (corr/api/schema_links.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "corr.api.schema_links.links_add"],
}

# Per-process cache of computed clocks (keys carry the game's version and the date).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "corr",
                      "OPTIONS": {"MAX_ENTRIES": env_int("CLOCK_CACHE_ENTRIES", 20_000, minimum=1)}}}

# Celery on Redis; with no REDIS_URL tasks run eagerly in-process (the embedded run).
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = 1
# Publishing from a request or a job fails fast when Redis is down (the e-mail stays
# pending and the next nightly run sends it) instead of retrying for minutes: one quick
# retry (a Redis restart), at most 1 s in all even when the host does not answer at all.
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2,
                                   "connect_retries_timeout": 1, "socket_connect_timeout": 1, "socket_timeout": 5}
# No result backend for fire-and-forget tasks: publishing a task whose result is kept
# subscribes to its result channel first, and with Redis down the backend's 20 reconnection
# retries of 1 s stalled every request that queued an e-mail (issue 10). Only the nightly
# chord's header tasks keep their results (a chord needs them; see corr.tasks), and they
# are published by a worker, never by a request.
CELERY_TASK_IGNORE_RESULT = True
# The backend (worker side) fails fast too: a short connect timeout, a few quick retries.
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 5
CELERY_REDIS_RETRY_ON_TIMEOUT = False
CELERY_RESULT_BACKEND_ALWAYS_RETRY = False
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 3, "interval_start": 0,
                                                            "interval_step": 0.5, "interval_max": 1}}
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The checks at a flag's instant (live and server games) on a queue of their own, behind no sweep,
# nightly chunk or e-mail (issue 27). A worker started without -Q consumes every queue listed here;
# production runs one more worker with `-Q flags` so that a long task never delays a flag.
FLAG_QUEUE = os.environ.get("FLAG_QUEUE", "flags")
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE, routing_key=CELERY_TASK_DEFAULT_QUEUE),
                      Queue(FLAG_QUEUE, routing_key=FLAG_QUEUE))  # each its own key: nothing lands in both
CELERY_TASK_ROUTES = {"corr.live_flag_check": {"queue": FLAG_QUEUE}, "corr.server_flag_check": {"queue": FLAG_QUEUE}}

# The live page's WebSocket pushes (corr.live.push -> group live-game-<id> -> each connection): through
# Redis with REDIS_URL, so every server process sees every push; in memory without it, where the one
# `runserver` process of the embedded run both makes the moves and serves the connections.
# A connection attempt to a Redis that does not answer gives up after 2 s (no read timeout: a
# connection's receive blocks on Redis by design). The sockets of one process are served from memory
# whatever Redis does, and get the current state when it returns (corr.live.layer, issue 42).
CHANNEL_LAYERS = ({"default": {"BACKEND": "corr.live.layer.RedisWithLocalFanout",
                               "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_connect_timeout": 2}],
                                          "prefix": "corr"}}}
                  if REDIS_URL else {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}})

# Live games (corr.live): the sweep that backs up the scheduled flag checks runs every
# LIVE_SWEEP_SECONDS (Celery beat; in the embedded run a thread of the web process). Every process
# that takes moves (daphne, gunicorn, runserver) beats every LIVE_BEAT_SECONDS (corr.live.beat) and
# records the flags due; a beat older than LIVE_GAP_MS means no process could take moves: that time
# is no one's. LIVE_BEAT_SECONDS=0 turns the beat off (the test suite, which beats by hand).
LIVE_SWEEP_SECONDS = env_int("LIVE_SWEEP_SECONDS", 5)
LIVE_BEAT_SECONDS = env_int("LIVE_BEAT_SECONDS", 2, minimum=0)
LIVE_GAP_MS = env_int("LIVE_GAP_MS", 30_000)
if LIVE_BEAT_SECONDS and LIVE_GAP_MS <= 2 * LIVE_BEAT_SECONDS * 1000:
    raise ImproperlyConfigured(f"LIVE_GAP_MS ({LIVE_GAP_MS}) must exceed two beats "
                               f"(LIVE_BEAT_SECONDS={LIVE_BEAT_SECONDS}): a late beat is not an outage")
# After-commit sends to Redis (pushes, flag checks) go through one thread per process (corr.handoff):
# at most HANDOFF_QUEUE_MAX waiting, each bounded by HANDOFF_SEND_SECONDS.
HANDOFF_QUEUE_MAX = env_int("HANDOFF_QUEUE_MAX", 10_000, minimum=1)
HANDOFF_SEND_SECONDS = env_int("HANDOFF_SEND_SECONDS", 5, minimum=1)
# The longest text frame the live socket reads, in UTF-8 bytes; a longer one is closed with 1009
# (corr.live.frames, issue 42). A move is under 100 bytes.
LIVE_SOCKET_MESSAGE_MAX_BYTES = env_int("LIVE_SOCKET_MESSAGE_MAX_BYTES", 4096, minimum=256)
LIVE_SWEEP_BATCH = env_int("LIVE_SWEEP_BATCH", 500)
# The live games whose rows each process keeps from its last write or read of them (corr.live.known): a press on
# those is one round trip to PostgreSQL when nothing changed since; 0 turns it off (every press reads under the lock).
LIVE_KNOWN_GAMES = env_int("LIVE_KNOWN_GAMES", 4096, minimum=0)
LIVE_INPROCESS_SWEEP = env_bool("LIVE_INPROCESS_SWEEP", not REDIS_URL)
# The WebSocket consumers' database work (moves over the socket, the state on connecting) runs on a pool
# of this many threads per process (corr.dbthreads): bounded threads and connections under load.
SOCKET_DB_THREADS = env_int("SOCKET_DB_THREADS", 4, minimum=1)
# A serving process's collector (daphne's, each gunicorn worker's): start-up frozen, the youngest generation every
# GC_GEN0_THRESHOLD net allocations
# (corr/gctune.py: full collections stalled every socket of the process for up to 280 ms under load).
GC_GEN0_THRESHOLD = env_int("GC_GEN0_THRESHOLD", 7000, minimum=1)

# Server games under an instant count (issue 22, corr.timeouts): each flag is checked at its instant
# (a task with eta; in the embedded run an in-process timer, SERVER_FLAG_INPROCESS), and a sweep every
# SERVER_FLAG_SWEEP_SECONDS (Celery beat; in the embedded run a thread) finds the checks that were lost.
SERVER_FLAG_SWEEP_SECONDS = env_int("SERVER_FLAG_SWEEP_SECONDS", 30, minimum=1)

# PGN imports in the background (issue 37; corr.games.services.import_jobs): an import of more games than
# IMPORT_INLINE_GAMES is a job a worker runs; the beat queues again every IMPORT_RESUME_SECONDS the jobs not
# queued (broker down) or whose worker died (a claim older than IMPORT_JOB_STALE_SECONDS, longer than any import).
IMPORT_INLINE_GAMES = env_int("IMPORT_INLINE_GAMES", 20)
IMPORT_RESUME_SECONDS = env_int("IMPORT_RESUME_SECONDS", 60, minimum=1)
IMPORT_JOB_STALE_SECONDS = env_int("IMPORT_JOB_STALE_SECONDS", 900, minimum=1)
SERVER_FLAG_SWEEP_BATCH = env_int("SERVER_FLAG_SWEEP_BATCH", 500, minimum=1)
SERVER_FLAG_INPROCESS = env_bool("SERVER_FLAG_INPROCESS", not REDIS_URL)

# XFCC (corr.xfcc, issue 26): its passwords travel in the request's body, so without DEBUG the service
# answers it over HTTPS only (a request that is not is refused, whatever redirects are set).
XFCC_REQUIRE_HTTPS = env_bool("XFCC_REQUIRE_HTTPS", not DEBUG)
# A user's XFCC calls with a right password (issue 37): far above a client's retrieval every few seconds and
# its moves; not the sign-in throttle, which counted every call and made Scid lose moves (corr.xfcc.throttles).
XFCC_USER_RATE = env_rate("XFCC_USER_RATE", "300/min")

# Nightly job (issue: nightly deadline work).
NIGHTLY_HOUR = env_int("NIGHTLY_HOUR", 2)
if NIGHTLY_HOUR > 23:
    raise ImproperlyConfigured(f"NIGHTLY_HOUR must be 0..23, got {NIGHTLY_HOUR}")
try:
    REMINDER_DAYS = sorted({int(x) for x in env_list("REMINDER_DAYS", ["7", "2"])}, reverse=True)
except ValueError:
    raise ImproperlyConfigured("REMINDER_DAYS must be whole numbers separated by commas, e.g. 7,2") from None
WARNING_WINDOW_DAYS = env_int("WARNING_WINDOW_DAYS", 7)
NIGHTLY_CHUNK_SIZE = env_int("NIGHTLY_CHUNK_SIZE", 500, minimum=1)

# Notifications (issue 38, corr.notify, docs/notifications.md): per player, the first e-mail of a quiet period
# goes at once and what follows within NOTIFY_QUIET_SECONDS (15 minutes) is gathered into one at its end; a
# player who chose the daily digest gets it at NOTIFY_DAILY_HOUR in their zone. Flag warnings (instant counts) go at
# NOTIFY_WARNING_HOURS before the flag unless the player chose others; the beat sweeps every NOTIFY_SWEEP_SECONDS.
# A game page open (its heartbeat, kept NOTIFY_PRESENCE_SECONDS) is told nothing of that game's move.
NOTIFY_QUIET_SECONDS = env_int("NOTIFY_QUIET_SECONDS", 900)
NOTIFY_DAILY_HOUR = env_int("NOTIFY_DAILY_HOUR", 7)
if NOTIFY_DAILY_HOUR > 23:
    raise ImproperlyConfigured(f"NOTIFY_DAILY_HOUR must be 0..23, got {NOTIFY_DAILY_HOUR}")
try:
    NOTIFY_WARNING_HOURS = sorted({int(x) for x in env_list("NOTIFY_WARNING_HOURS", ["24", "1"])}, reverse=True)
except ValueError:
    raise ImproperlyConfigured("NOTIFY_WARNING_HOURS must be whole hours separated by commas, e.g. 24,1") from None
if any(not 1 <= h <= 168 for h in NOTIFY_WARNING_HOURS):
    raise ImproperlyConfigured(f"NOTIFY_WARNING_HOURS must be 1..168 each, got {NOTIFY_WARNING_HOURS}")
# Without Redis (eager tasks) a notice is worked out on a thread of the process that made the change; the
# test suite sets "off" (or "inline", reading the e-mail in its own transaction). Not read from the environment.
NOTIFY_INPROCESS = "thread"
NOTIFY_SWEEP_SECONDS = env_int("NOTIFY_SWEEP_SECONDS", 60, minimum=1)
NOTIFY_PRESENCE_SECONDS = env_int("NOTIFY_PRESENCE_SECONDS", 60, minimum=5)
# An address for List-Unsubscribe's mailto (RFC 2369) beside the https link; empty: the link only.
NOTIFY_UNSUBSCRIBE_MAILTO = os.environ.get("NOTIFY_UNSUBSCRIBE_MAILTO", "")

# ICCF's silence (issue 40): the days without a move after which the player on move is reminded, in server games
# whose time control sets a limit for one move (max_per_move: ICCF's 40 days). ICCF's webserver sends them after
# 14 and 28 days and a final one after 35 (ICCF Webserver guide 7.1, Playing Rules 3b). "off": no reminders.
try:
    SILENCE_REMINDER_DAYS = [] if os.environ.get("SILENCE_REMINDER_DAYS") == "off" else sorted(
        {int(x) for x in env_list("SILENCE_REMINDER_DAYS", ["14", "28", "35"])})
except ValueError:
    raise ImproperlyConfigured("SILENCE_REMINDER_DAYS must be whole days separated by commas, e.g. 14,28,35") from None
if any(not 1 <= d <= 365 for d in SILENCE_REMINDER_DAYS):
    raise ImproperlyConfigured(f"SILENCE_REMINDER_DAYS must be 1..365 each, got {SILENCE_REMINDER_DAYS}")
# Presence on game pages is shared by the web processes and the workers: Redis when there is one.
if REDIS_URL:
    CACHES["presence"] = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "corr-presence", "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
else:
    CACHES["presence"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "corr-presence"}

# The site's public address, for links in e-mails (read outside the site, so never relative).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL must be an absolute http(s) URL, got {SITE_URL!r}")

# Accounts (issue 38, docs/security.md "Account links"): how long the links that corr e-mails stay good.
# A password reset link (Django's PASSWORD_RESET_TIMEOUT, in seconds): single-use, dies with the password.
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_HOURS", 24, minimum=1) * 3600
# The link that confirms a new e-mail address or an open sign-up.
EMAIL_CONFIRM_HOURS = env_int("EMAIL_CONFIRM_HOURS", 48, minimum=1)
# An arbiter's invitation to a tournament.
INVITATION_DAYS = env_int("INVITATION_DAYS", 14, minimum=1)
# Anyone may make an account at /signup/ (confirmed by e-mail); off: accounts come from arbiters' invitations.
SIGNUP_OPEN = env_bool("SIGNUP_OPEN", False)

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "corr@localhost")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "sent-mail"))  # for the file-based backend
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20, minimum=1)
# The outbox (corr.outbox): a sender renews its claim of each e-mail just before sending it; a claim
# not renewed for this long belongs to a dead sender and is sent again by the next run. Longer than
# one send can block (EMAIL_TIMEOUT), or a live sender's e-mail would be taken over and sent twice.
EMAIL_CLAIM_LEASE_SECONDS = env_int("EMAIL_CLAIM_LEASE_SECONDS", 300, minimum=1)
if EMAIL_CLAIM_LEASE_SECONDS <= EMAIL_TIMEOUT:
    raise ImproperlyConfigured(f"EMAIL_CLAIM_LEASE_SECONDS must be longer than EMAIL_TIMEOUT ({EMAIL_TIMEOUT} s),"
                               f" got {EMAIL_CLAIM_LEASE_SECONDS}")

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
