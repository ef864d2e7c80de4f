"""Herald settings, read from the environment (django-environ).

With nothing set this is the embedded default: a SQLite file beside the repository, Celery
tasks run eagerly in-process and a local-memory cache, so ``make run`` needs no server.
``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and a real Celery worker on Redis.
Production uses ``herald.settings_production``, which refuses an insecure ``SECRET_KEY``.
"""

from datetime import timedelta
from pathlib import Path

import environ

PLATFORM_DIR = Path(__file__).resolve().parent.parent
BASE_DIR = PLATFORM_DIR.parent

env = environ.Env()

DEV_SECRET_KEY = "django-insecure-herald-development-key-never-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default=DEV_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=True)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # First: daphne's runserver replaces Django's, so `make run` serves HTTP and WebSockets
    # (herald.asgi) from one process.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "channels",
    "herald",
    "events",
    "tournaments",
    "ratings",
    "play",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common: the language is the visitor's choice (the switcher's
    # cookie), else the browser's Accept-Language, else English.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a login refused for too many failures into a 429.
    "axes.middleware.AxesMiddleware",
]

# django-axes's backend first: it refuses a locked-out login before the password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Content-Security-Policy (django-csp 4): scripts, styles, fonts and fetches from this site only
# (the API docs' Swagger UI is served from /static/ by drf-spectacular-sidecar); images may also
# be data: URIs (Swagger UI's icons). No inline script or <style> element runs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "herald.urls"
WSGI_APPLICATION = "herald.wsgi.application"
ASGI_APPLICATION = "herald.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [PLATFORM_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                # The site nav's section and "club" link (tournaments owns clubs).
                "tournaments.context_processors.site_nav",
            ],
        },
    },
    {
        # The table drawings (play/jinja2/, *.jinja): Jinja2 draws them in about 0.6 of the
        # time (play/jinja.py says why). Second, so the pages' names are found in Django's
        # first; a .jinja name costs one cached miss there.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "play.jinja.environment"},
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'herald.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# django-environ leaves conn_health_checks as the URL's text, and "false" is a true string.
if isinstance(DATABASES["default"].get("CONN_HEALTH_CHECKS"), str):
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = DATABASES["default"][
        "CONN_HEALTH_CHECKS"
    ].lower() in {"true", "1", "yes", "on"}
# Server-side parameters and psycopg's prepared statements (after 5 runs of a statement on a
# connection): PostgreSQL then plans the hot statements once per connection instead of once per
# request (bench/append.py: about a third of PostgreSQL's CPU per append). Turn it off behind a
# pooler in transaction mode (PgBouncer), which cannot keep prepared statements.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool(
    "DATABASE_PREPARED_STATEMENTS", default=True
):
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )
# Under ASGI Django runs each request's synchronous code in a thread of its own, so persistent
# connections (conn_max_age) would pile up, one per thread: an ASGI process serving HTTP uses
# psycopg's pool instead (DATABASE_POOL=true, needs the psycopg-pool package; no conn_max_age).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool(
    "DATABASE_POOL", default=False
):
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = True
# Django's PostgreSQL backend, with the health check of a persistent connection
# (conn_health_checks) asked of its socket rather than of PostgreSQL (herald/postgresql/base.py).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "herald.postgresql"
# SQLite (the embedded default) has no row locks: a transaction that read and then writes fails
# at once with "database is locked" when another writer got there first (a 500 instead of the
# loser's 409). IMMEDIATE transactions take the write lock at BEGIN, so writers queue for it
# (up to the busy timeout) and the loser then reads the winner's version; WAL lets readers go
# on while one writes.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=env.int("SQLITE_BUSY_TIMEOUT", default=20),
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    )
DATABASES["default"].setdefault("TEST", {})
if env.str("TEST_DATABASE_NAME", default=""):
    DATABASES["default"]["TEST"]["NAME"] = env.str("TEST_DATABASE_NAME")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "herald",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Channels (the game pages' sockets, herald.asgi): with Redis, every server process shares one
# channel layer, so a move committed by one process reaches sockets held by another. The pub/sub
# layer by default: a move is one PUBLISH to its stream's group, which each socket process
# receives once and hands to its own sockets. The core layer (CHANNEL_LAYER_BACKEND=
# herald.layers.RedisChannelLayer) keeps a queue in Redis per socket, so a move costs a Lua
# script over every member and a read per socket: twice Redis's CPU per move (bench/live.py,
# docs/operations.md).
# CHANNEL_LAYER_URL picks another Redis database or server than REDIS_URL's. Without Redis the
# layer is in-memory: one process (`make run`), which is all it serves.
CHANNEL_LAYER_URL = env.str("CHANNEL_LAYER_URL", default=REDIS_URL)
PUBSUB_LAYER = "channels_redis.pubsub.RedisPubSubChannelLayer"
CHANNEL_LAYER_BACKEND = env.str("CHANNEL_LAYER_BACKEND", default=PUBSUB_LAYER)
if CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKEND,
            "CONFIG": {
                # A socket timeout above the core layer's 5 s blocking read (channels_redis's
                # brpop_timeout): redis-py 8 reads with a 5 s timeout by default, which ends
                # the read of a socket idle for 5 s with TimeoutError and closes it (1011).
                "hosts": [{"address": CHANNEL_LAYER_URL, "socket_timeout": 15}],
                "prefix": env.str("CHANNEL_LAYER_PREFIX", default="herald"),
            },
        }
    }
    if CHANNEL_LAYER_BACKEND != PUBSUB_LAYER:
        # The core layer: a socket that lags this far behind drops frames rather than Redis
        # growing; the page asks for what it missed when it sees a gap in the versions.
        CHANNEL_LAYERS["default"]["CONFIG"].update(capacity=200, expiry=30)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# How a committed append reaches the sockets (events.live): "direct" (group_send on commit,
# the outbox only when that fails), "outbox" (always through an outbox entry and a Celery task)
# or "off". docs/operations.md has bench/append.py's figures for each.
HERALD_LIVE_SEND = env.str("HERALD_LIVE_SEND", default="direct")

# A socket server collects its garbage when its sockets are quiet rather than in the middle of
# a move's push (herald.quietgc); false leaves the collections to Python, as they happen.
HERALD_QUIET_GC = env.bool("HERALD_QUIET_GC", default=True)

# A socket server's table drawings in this many processes of their own (play.drawpool), each
# stream always in the same one; 0 draws them in the socket server's own thread.
HERALD_DRAWING_PROCESSES = env.int("HERALD_DRAWING_PROCESSES", default=0)

# Who else may watch a private game and how far behind spectators are kept (events.access):
# rules of the apps above the event store, which it may not import.
HERALD_WATCH_RULES = ["tournaments.watching.RULES"]

# Presence at the table (play.presence): each open table socket of a seat renews its entry
# every HERALD_PRESENCE_HEARTBEAT seconds; an entry not renewed for three beats (its server
# process died) expires, and the seat shows as away.
HERALD_PRESENCE_HEARTBEAT = env.float("HERALD_PRESENCE_HEARTBEAT", default=15.0)

# Celery: a real broker when REDIS_URL is set; otherwise tasks run eagerly, in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Each pytest-xdist worker (``-n 2``) starts its own Celery worker: give each its own queue, as
# pytest-django gives each its own database, or one's worker takes the other's tasks.
_XDIST_WORKER = env.str("PYTEST_XDIST_WORKER", default="")
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="herald") + (
    f"-{_XDIST_WORKER}" if _XDIST_WORKER else ""
)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule for passwords: Django calls every validator's password_changed() once a new
    # password is saved (set_password + save: the admin, the password change and reset views,
    # changepassword), and this one revokes the user's API tokens there.
    {"NAME": "herald.authentication.RevokeTokensOnPasswordChange"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
# The catalogues are committed compiled (.mo beside .po): a fresh clone serves French with no
# gettext tools installed.
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [PLATFORM_DIR / "static"]

# The site's own login (Django's auth views under /accounts/); the admin keeps its login page.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "me"
LOGOUT_REDIRECT_URL = "home"

# Mail (the password reset's): EMAIL_URL (django-environ: smtp://user:password@host:25,
# smtp+tls://...:587 for STARTTLS, smtp+ssl://...:465 for TLS from the start) sends through
# SMTP; without it mail is printed on the console, which is enough for `make run`.
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Herald <herald@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# How long an invitation link (an account made by an organiser, to claim) stays valid.
HERALD_INVITATION_DAYS = env.int("HERALD_INVITATION_DAYS", default=30)

REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header makes a missing or bad token a 401, not a 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "herald.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "herald.schema.AutoSchema",
    "DEFAULT_PARSER_CLASSES": ["herald.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "herald.api.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Proxies in front of Herald that append to X-Forwarded-For (0: the client is REMOTE_ADDR,
    # and a forged header cannot dodge the per-address throttles).
    "NUM_PROXIES": env.int("HERALD_PROXY_COUNT", default=0),
}

# Bodies larger than this are refused with a 413 before any parsing.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=256 * 1024)

SPECTACULAR_SETTINGS = {
    "TITLE": "Herald API",
    "DESCRIPTION": "Game streams, tournaments and ratings for club tournaments of Blazon, "
    "Les 7 Blasons and 13 Couronnes.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from this project's static files, not a CDN: the docs work offline, and the
    # versions are pinned by requirements.lock.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two choice sets share a field name with others (a tournament's format and status):
    # named here, so the schema's components are stable and `check --deploy` stays quiet.
    "ENUM_NAME_OVERRIDES": {
        "StreamStatusEnum": ["live", "finished"],
        "RecordFormatEnum": ["herald-game-record"],
        "FormatEnum": "tournaments.models.Format",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Eager tasks (no broker) would log every "Task ... succeeded" into the web process and
    # management commands; a real worker keeps Celery's own per-task lines.
    "loggers": {} if REDIS_URL else {"celery.app.trace": {"level": "WARNING"}},
}

# Herald's own knobs.
HERALD_PROVISIONAL_GAMES = env.int("HERALD_PROVISIONAL_GAMES", default=5)
# Tournaments: the most one players CSV import takes (a bigger one is a 413: split it).
HERALD_IMPORT_MAX_ROWS = env.int("HERALD_IMPORT_MAX_ROWS", default=500)
HERALD_IMPORT_MAX_BYTES = env.int("HERALD_IMPORT_MAX_BYTES", default=64 * 1024)

# Ratings: the outbox's "game.ended" entries go to the verification worker (which then rates),
# its "ratings.recompute" entries to the recompute task (written with the job row),
# and a periodic sweep catches up on anything a lost message left behind.
HERALD_OUTBOX_ROUTES = {
    "game.ended": "ratings.verify_game",
    "ratings.recompute": "ratings.recompute_pool",  # a recompute job's run, sent with the job
    # A paper table's confirmed result changed: its rating pool takes it, marked "reported".
    "table.result": "ratings.rate_table_result",
    # A move in a game with house bots: the bot to act, if any, plays (play.tasks).
    "stream.turn": "play.house_bot_move",
}
CELERY_BEAT_SCHEDULE["ratings-sweep"] = {"task": "ratings.sweep", "schedule": 300.0}
# Finished games are checked again, oldest check first, a batch per run: a tamper that
# recomputed the hash chain then turns into a dispute (docs/ratings.md, Re-verification).
HERALD_REVERIFY_EVERY_SECONDS = env.float("HERALD_REVERIFY_EVERY_SECONDS", default=3600.0)
HERALD_REVERIFY_BATCH = env.int("HERALD_REVERIFY_BATCH", default=200)
if HERALD_REVERIFY_EVERY_SECONDS > 0:
    CELERY_BEAT_SCHEDULE["ratings-reverify"] = {
        "task": "ratings.reverify_finished",
        "schedule": HERALD_REVERIFY_EVERY_SECONDS,
    }

# Events: the outbox sweeper sends entries left pending (broker outage, crash after commit) and
# entries whose task has not reported done after HERALD_OUTBOX_REDELIVER_AFTER seconds (a killed
# worker), at most HERALD_OUTBOX_MAX_ATTEMPTS sends in all.
CELERY_BEAT_SCHEDULE["events-sweep-outbox"] = {"task": "events.sweep_outbox", "schedule": 10.0}
HERALD_OUTBOX_REDELIVER_AFTER = env.int("HERALD_OUTBOX_REDELIVER_AFTER", default=30)
HERALD_OUTBOX_MAX_ATTEMPTS = env.int("HERALD_OUTBOX_MAX_ATTEMPTS", default=10)
# Every worker sends the schedule above itself (herald.celery.PeriodicSweeps): recovery needs no
# beat process. Two workers sweeping at once is safe (SKIP LOCKED, idempotent tasks).
HERALD_WORKER_SWEEPS = env.bool("HERALD_WORKER_SWEEPS", default=True)

# API tokens (django-rest-knox): only a digest is stored; a token expires after this many hours
# (a tournament weekend), and logout or a password change revokes it.
HERALD_TOKEN_TTL_HOURS = env.float("HERALD_TOKEN_TTL_HOURS", default=72)
REST_KNOX = {"TOKEN_TTL": timedelta(hours=HERALD_TOKEN_TTL_HOURS), "AUTH_HEADER_PREFIX": "Token"}
CELERY_BEAT_SCHEDULE["herald-purge-tokens"] = {
    "task": "herald.purge_expired_tokens",
    "schedule": 3600.0,
}

# Throttling. HERALD_THROTTLE=false turns every throttle and the login lockout off (load tests,
# fuzzing); the rates are DRF's "<n>/<second|minute|hour|day>".
HERALD_THROTTLE = env.bool("HERALD_THROTTLE", default=True)
HERALD_THROTTLE_RATES = {
    "moves": env.str("HERALD_THROTTLE_MOVES", default="120/minute"),  # per user
    "replay": env.str("HERALD_THROTTLE_REPLAY", default="30/minute"),  # per user or address
}
# A stream's verification report is cached per (stream, version, engine version, hash format).
HERALD_VERIFY_CACHE_SECONDS = env.int("HERALD_VERIFY_CACHE_SECONDS", default=24 * 3600)

# Logins (the API's token endpoint and Django's login forms): django-axes locks out an account,
# and separately an address, after this many failures, for this long.
AXES_ENABLED = HERALD_THROTTLE
AXES_FAILURE_LIMIT = env.int("HERALD_LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("HERALD_LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
# Attempts during a lockout do not extend it: someone guessing a player's password cannot keep
# the player out for more than the cool-off.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "herald.authentication.lockout_response"
AXES_CLIENT_IP_CALLABLE = "herald.authentication.client_address"
AXES_VERBOSE = False  # no banner in every management command
