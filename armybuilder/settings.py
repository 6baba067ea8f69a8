"""Django settings, read from the environment (twelve-factor) with django-environ.

Production-safe by default: DEBUG is off unless `DEBUG=true`, a missing SECRET_KEY is an
error outside DEBUG, and cookies are secure unless `HTTPS=false`. The run and test
commands (`bin/run`, `bin/test`) set `DATABASE_URL`/`REDIS_URL` to embedded servers when
they are not given; nothing here starts a server.
"""

from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)

# Only DEBUG may fall back to a development key. Outside DEBUG an unset key stays empty,
# and Django refuses to sign anything with it (ImproperlyConfigured on first use), while
# commands that need no key (price, validate, estimate) still run.
_DEV_SECRET_KEY = "insecure-development-key-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else "")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "armybuilder",
    "armybuilder.estimates",
    "armybuilder.games",
    "rules",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Right after the language is known: an address too long is refused before other work.
    "armybuilder.request_line.RequestLineMiddleware",
    # After LocaleMiddleware: a signed-in player's saved language wins (accounts/language.py).
    "armybuilder.accounts.language.AccountLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "armybuilder.api.cookies.NoCsrfCookieForTokenRequests",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "armybuilder.api.query_checks.QueryParameterMiddleware",
    "armybuilder.login_limits.LoginRateLimitMiddleware",
    "armybuilder.page_limits.PageRateLimitMiddleware",
    # A page's "does not apply to this list" is a page that says why, not a bare 404.
    "armybuilder.not_applicable.NotApplicableMiddleware",
]
# A failed sign-in on these (or the API's token endpoint) counts against the
# `login` rate per address and username and the `login_address` rate per address; every POST
# to the sign-up and password-reset forms counts per address (`armybuilder/login_limits.py`).
LOGIN_PATHS = ["/accounts/login/", "/admin/login/"]
LOGIN_RATE_LIMITED_PATHS = [*LOGIN_PATHS, "/accounts/signup/", "/accounts/password_reset/"]

ROOT_URLCONF = "armybuilder.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Each game system keeps its own templates (OPR's points breakdown) in its package.
        "DIRS": [BASE_DIR / "templates", *sorted((BASE_DIR / "rules" / "systems").glob("*/templates"))],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "armybuilder.navigation.nav_links",
                "armybuilder.offline.service_worker_context",
            ],
        },
    },
]

WSGI_APPLICATION = "armybuilder.wsgi.application"

# Postgres only (never SQLite). bin/run and bin/test set DATABASE_URL to an embedded
# PostgreSQL when it is unset; without it (a bare `manage.py price unit.json`) the dummy
# backend lets database-free commands run and makes any query fail loudly.
DATABASES = {"default": env.db("DATABASE_URL") if "DATABASE_URL" in env
             else {"ENGINE": "django.db.backends.dummy"}}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if env.str("DATABASE_NAME", default="") and "DATABASE_URL" in env:
    # Overrides the name in DATABASE_URL: the tests point their Celery worker at the test database.
    DATABASES["default"]["NAME"] = env.str("DATABASE_NAME")
if env.str("TEST_DATABASE_NAME", default=""):
    # Lets two test runs share one server without fighting over test_<name>.
    DATABASES["default"]["TEST"] = {"NAME": env.str("TEST_DATABASE_NAME")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("pl", _("Polish")), ("cs", _("Czech")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env.bool("STATIC_MANIFEST", default=not DEBUG)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=DEBUG)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if env.str("EMAIL_HOST", default="")
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=587)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="armybuilder@localhost")

# HTTPS hardening: on unless the deployment says it serves plain HTTP (`HTTPS=false`).
HTTPS = env.bool("HTTPS", default=not DEBUG)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
# `check --deploy` is clean with HTTPS on: plain-HTTP requests are redirected (the
# proxy says which came over HTTPS; the health check a container probe makes over plain HTTP
# is exempt), and HSTS lasts a year, for subdomains too, and may be preloaded.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=HTTPS)
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and styles only from our own static files
# (htmx, the list editor, site.js; no inline handlers, no inline styles: the
# heat map's colours into classes and htmx's indicator style into site.css), nothing framed,
# forms posted only here. The API's Swagger page is served under it from the pinned
# drf-spectacular-sidecar files; Redoc needs inline styles and gets only that relaxation
# (`armybuilder/api/urls.py`).
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

# Installable and readable offline (armybuilder/offline.py): SERVICE_WORKER_ENABLED=false is the
# kill switch (the worker unregisters itself and deletes its caches); RELEASE names a release
# (default: a hash of the worker and the static files), and a new one replaces the old caches.
SERVICE_WORKER_ENABLED = env.bool("SERVICE_WORKER_ENABLED", default=True)
RELEASE = env.str("RELEASE", default="")

# Bounded request sizes: an oversized body is a 400, never a memory blow-up.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2 * 1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000

# Celery: Redis is broker and result backend.
# bin/run and bin/test set REDIS_URL to an embedded Redis when it is unset.
REDIS_URL = env.str("REDIS_URL", default="redis://127.0.0.1:6379/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=300)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=240)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# Worker memory. A pool process that has grown past this many KiB after a task is
# replaced before its next one (freeing what caches and numpy's allocator kept) ...
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env.int("CELERY_WORKER_MAX_MEMORY_PER_CHILD", default=400_000)
# ... and no worker process may hold more than this many MiB of data at all (RLIMIT_DATA, set in
# `armybuilder.celery`): past it an allocation fails with MemoryError, the job ends failed with
# a clear message and is not retried, instead of the kernel killing the process and the
# broker handing the same job to the next worker. 0: no limit.
ESTIMATE_WORKER_MEMORY_MB = env.int("ESTIMATE_WORKER_MEMORY_MB", default=1024)
# Each job (a one-task job, or one row of a fanned-out job) may hold at most this many
# MiB more than its process held when it started: the 300 MB a matchup may cost
# (`estimates/bounds.py`) and room for the job's own results. Past it the job fails with the
# same message, so the bound holds even where a cost model under-predicts. 0: no per-job limit.
ESTIMATE_JOB_MEMORY_MB = env.int("ESTIMATE_JOB_MEMORY_MB", default=400)
# Play mode answers the odds of a fight in the request when the system's cost model predicts
# at most this many seconds per direction; a costlier fight is queued as an estimate job.
GAME_ODDS_INLINE_SECONDS = env.float("GAME_ODDS_INLINE_SECONDS", default=0.25)
# A publish while Redis is down fails in about a second, not after a retry loop: the
# request answers 503 instead of hanging a web worker.
CELERY_BROKER_TRANSPORT_OPTIONS.update({"socket_connect_timeout": 1, "socket_timeout": 3,
                                        "max_retries": 0})
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 3
# Jobs that cannot finish are failed by a periodic reconciliation (Celery beat, run by the
# worker with `-B` in bin/run and docker-compose): queued longer than this (the broker lost
# it), or running past the hard time limit (the worker died with it).
ESTIMATE_QUEUED_LIMIT = env.int("ESTIMATE_QUEUED_LIMIT", default=600)
# Fault tests only: a running job waits while this file exists (`estimates/tasks.py`).
ESTIMATE_TEST_HOLD_FILE = env.str("ESTIMATE_TEST_HOLD_FILE", default="")
ESTIMATE_TEST_HOLD_AT = env.str("ESTIMATE_TEST_HOLD_AT", default="start")
# A list-vs-list job predicted to compute in less than this many seconds runs in one
# task instead of one task per row (`estimates/fanout.py`; bench/bench_fanout.py measures it).
ESTIMATE_FAN_OUT_MIN_SECONDS = env.float("ESTIMATE_FAN_OUT_MIN_SECONDS", default=1.0)
# ... and is cut into parts of at least this many predicted seconds (at most 16 parts).
ESTIMATE_FAN_OUT_PART_SECONDS = env.float("ESTIMATE_FAN_OUT_PART_SECONDS", default=0.1)
# How many times slower than the machine the cost models were fitted on this one runs the
# estimate engines (`estimates/machine_speed.py`): `auto` measures it on the workers and shares it; a
# number fixes it (the test runner sets 1, so what a test accepts does not depend on the CPU).
ESTIMATE_MACHINE_FACTOR = env.str("ESTIMATE_MACHINE_FACTOR", default="auto")
# An estimate job may use this many CPU seconds in all (its parts together, when fanned out):
# past it the job fails, saying so. CPU, not wall-clock, so a loaded server does not fail a job
# that would finish (`estimates/cpu_limit.py`). 0 turns the limit off.
ESTIMATE_CPU_SECONDS = env.float("ESTIMATE_CPU_SECONDS", default=180.0)
# A job younger than this is left alone by the reconciliation (its worker may not report it yet).
ESTIMATE_ORPHAN_GRACE = env.float("ESTIMATE_ORPHAN_GRACE", default=10.0)
RECONCILE_INTERVAL = env.float("RECONCILE_INTERVAL", default=30.0)
# A gauntlet panel request that finds its list computing waits at most this long for the
# worker's word that the missing matchups landed (`estimates/gauntlet_signal.py`), so it answers
# as soon as they are there; 0 answers at once and leaves it to the panel's polls.
GAUNTLET_PANEL_WAIT_MS = env.int("GAUNTLET_PANEL_WAIT_MS", default=1000)
CELERY_IMPORTS = ["armybuilder.estimates.reconciliation", "armybuilder.estimates.machine_speed",
                  "armybuilder.roster.pdf_jobs",
                  "rules.battlescribe_jobs", "armybuilder.lists.import_jobs",
                  # The previous releases' task names, still run after a deploy.
                  "armybuilder.job_aliases", "armybuilder.estimates.gauntlet_tasks"]
# A BattleScribe catalogue import on the worker (`rules/battlescribe_jobs.py`) stops after this
# many seconds (its entries are bounded too: `MAX_IMPORT_ENTRIES`).
BATTLESCRIBE_IMPORT_TIME_LIMIT = env.int("BATTLESCRIBE_IMPORT_TIME_LIMIT", default=120)
# A list import on the worker (`armybuilder/lists/import_jobs.py`) stops after this many seconds
# (its input is bounded too: 4 MB and 200 units).
LIST_IMPORT_TIME_LIMIT = env.int("LIST_IMPORT_TIME_LIMIT", default=120)
# Fault tests only: an import job kills its own process right after it committed, once, while
# this file exists (`rules/import_receipts.py`). Never set in production.
IMPORT_TEST_DIE_FILE = env.str("IMPORT_TEST_DIE_FILE", default="")
# Roster PDFs are rendered by the worker into a cache keyed by list version.
PDF_CACHE = "jobs"
# A render is bounded in CPU seconds (the profiling timer, `estimates.cpu_limit`), so a busy
# server does not kill a render that would finish; the wall-clock limit is only a backstop
# for a render that hangs without using CPU.
PDF_CPU_SECONDS = env.int("PDF_CPU_SECONDS", default=30)
PDF_TIME_LIMIT = env.int("PDF_TIME_LIMIT", default=300)
# At most this many renders (papers, languages, print options) per version of one list: the
# work a list can cost is bounded per version, not per variant.
PDF_RENDERS_PER_VERSION = env.int("PDF_RENDERS_PER_VERSION", default=8)
PDF_MAX_BYTES = env.int("PDF_MAX_BYTES", default=20 * 1024 * 1024)

# Army Forge share links pasted into the Import page are fetched by the server from this one
# site only (`armybuilder.lists.importers.fetch`): no redirects, a timeout and a size limit.
ARMY_FORGE_URL = env.str("ARMY_FORGE_URL", default="https://army-forge.onepagerules.com")
ARMY_FORGE_TIMEOUT = env.float("ARMY_FORGE_TIMEOUT", default=10.0)
ARMY_FORGE_MAX_BYTES = env.int("ARMY_FORGE_MAX_BYTES", default=2 * 1024 * 1024)
PDF_CACHE_SECONDS = env.int("PDF_CACHE_SECONDS", default=24 * 3600)
CELERY_BEAT_SCHEDULE = {
    "reconcile-jobs": {"task": "jobs.reconcile", "schedule": RECONCILE_INTERVAL,
                       "options": {"expires": RECONCILE_INTERVAL, "queue": "control"}},
    # The machine factor of the cost models, measured again (`estimates/machine_speed.py`).
    "measure-machine": {"task": "estimates.measure_machine", "schedule": 1800.0,
                        "options": {"expires": 1800.0, "queue": "control"}},
}
# Each kind of work on its own queue, consumed by its own workers (bin/run,
# docker-compose), so none waits behind another: estimates and their rows on the default
# `celery` queue; PDFs on `pdf` (minutes of rendering never starve estimates); the
# reconciliation on `control` (the schedule never waits behind thousands of rows).
# BattleScribe catalogue imports and list imports are file work like PDFs and share their
# `pdf` worker.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    "jobs.reconcile": {"queue": "control"},
    "estimates.measure_machine": {"queue": "control"},
    "roster.render_pdf": {"queue": "pdf"},
    "jobs.run": {"queue": "pdf"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # WeasyPrint announces each page it lays out; the PDF job turns that into its progress
    # (`armybuilder.roster.pdf_jobs`) and nothing else needs the lines.
    "loggers": {"weasyprint.progress": {"handlers": [], "level": "INFO", "propagate": False}},
}

# REST API (`armybuilder/api/`). Apps authenticate with a token, the browser with
# its session; every error is one JSON shape; rates are per user, per IP and per scope.
API_THROTTLE_CACHE = "api-throttle"
CACHES = {
    # Per process. It keeps the list pages' rendered unit rows and cards (`fragment_cache`,
    # a few KiB each): 2,000 entries hold ten 200-unit lists, about 15 MB (Django's default
    # of 300 would evict a long list's rows before its next page).
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}},
    # Shared by every web process, so a rate is per user/IP and not per gunicorn worker.
    API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "api-throttle",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
    },
    # Rendered PDFs and job markers, shared by the web processes and the worker.
    "jobs": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "jobs",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 3},
    },
}
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous request then gets 401 with `WWW-Authenticate: Token`.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["armybuilder.api.parsers.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "armybuilder.api.pagination.PageNumberPagination",
    "DEFAULT_THROTTLE_CLASSES": [
        "armybuilder.api.throttling.PerUserThrottle",
        "armybuilder.api.throttling.PerIPThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env.str("API_THROTTLE_USER", default="2000/hour"),
        "ip": env.str("API_THROTTLE_IP", default="600/hour"),
        "login": env.str("API_THROTTLE_LOGIN", default="20/hour"),
        "login_address": env.str("API_THROTTLE_LOGIN_ADDRESS", default="100/hour"),
        "estimates": env.str("API_THROTTLE_ESTIMATES", default="30/hour"),
        "pdf": env.str("PDF_RENDER_RATE", default="30/hour"),
        # BattleScribe catalogue imports started per account (`rules/battlescribe_jobs.py`).
        "battlescribe_import": env.str("BATTLESCRIBE_IMPORT_RATE", default="12/hour"),
        # List imports (the Import and roster pages and their API) started per account
        # (`armybuilder/lists/import_jobs.py`).
        "list_import": env.str("LIST_IMPORT_RATE", default="60/hour"),
        "page": env.str("PAGE_RATE", default="600/min"),
        # The odds of a fight asked in play mode, per account (`armybuilder/games/services.py`).
        "game_odds": env.str("GAME_ODDS_RATE", default="30/min"),
    },
    # 0: the client IP is REMOTE_ADDR (X-Forwarded-For is forgeable); set it behind proxies.
    "NUM_PROXIES": env.int("API_NUM_PROXIES", default=0),
    "EXCEPTION_HANDLER": "armybuilder.api.exceptions.exception_handler",
    "DEFAULT_METADATA_CLASS": "armybuilder.api.metadata.SchemaPointerMetadata",
    "DEFAULT_SCHEMA_CLASS": "armybuilder.api.schema.ApiAutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Army Builder API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # A list import job's states (`armybuilder/api/exports.py`): named, so the generated
    # clients' enum does not get a name derived from a hash.
    "ENUM_NAME_OVERRIDES": {"ListImportStatusEnum": ["queued", "running", "done", "failed"]},
    # Swagger UI and Redoc from our own static files (drf-spectacular-sidecar, pinned),
    # never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "PREPROCESSING_HOOKS": ["armybuilder.api.schema.only_api_endpoints"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "armybuilder.api.schema.document_api",
        "armybuilder.api.schema.name_inline_schemas",
    ],
}

#: Lists whose serialized form each process keeps (`armybuilder/api/list_cache.py`); 0 keeps none.
API_LIST_CACHE_ENTRIES = env.int("API_LIST_CACHE_ENTRIES", default=512)
#: Whether the API stores each list's JSON and reads it back in one statement
#: (`armybuilder/api/list_documents.py`); off, every uncached read serializes the list (the
#: baseline `bench/bench_api_list_cpu.py` alternates with).
API_LIST_DOCUMENTS = env.bool("API_LIST_DOCUMENTS", default=True)
