"""Django settings for Podium.

SQLite (WAL) by default so one command runs everything on a laptop; PostgreSQL when
``DATABASE_URL`` is set, Redis as the cache every process shares when ``REDIS_URL`` is set.
Production mode (``PODIUM_PRODUCTION=1``, set by ``podium serve --production``) refuses to start
without a real secret key (``podium.web.deployment``); everything a deployment sets comes from
the environment (the README's "Running a real event" lists it).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from podium.web.deployment import (
    DEVELOPMENT_KEY,
    allowed_hosts,
    flag,
    production_refusal,
    words,
)

ENV = os.environ
PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = Path(ENV.get("PODIUM_DATA_DIR", Path.cwd() / "var"))

PRODUCTION = flag(ENV, "PODIUM_PRODUCTION")
if PRODUCTION and (refusal := production_refusal(ENV)):
    raise ImproperlyConfigured(refusal)
DEBUG = flag(ENV, "PODIUM_DEBUG")
SECRET_KEY = ENV.get("PODIUM_SECRET_KEY") or DEVELOPMENT_KEY
ALLOWED_HOSTS = allowed_hosts(ENV)

# Behind a reverse proxy that ends HTTPS (PODIUM_HTTPS=1): the proxy says the request was
# secure in X-Forwarded-Proto; cookies only over HTTPS, and browsers told to stay on HTTPS.
HTTPS = flag(ENV, "PODIUM_HTTPS")
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers ask over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(ENV.get("PODIUM_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = flag(ENV, "PODIUM_HSTS_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = flag(ENV, "PODIUM_HSTS_PRELOAD")
CSRF_TRUSTED_ORIGINS = words(ENV, "PODIUM_CSRF_TRUSTED_ORIGINS")
CSRF_FAILURE_VIEW = "podium.web.kernel.errors.csrf_failure"
# How many reverse proxies in front append to X-Forwarded-For (the client's address for limits).
PODIUM_API_PROXIES = int(ENV.get("PODIUM_TRUSTED_PROXIES", "0"))
PODIUM_API_ANONYMOUS_PER_MINUTE = int(ENV.get("PODIUM_API_ANONYMOUS_PER_MINUTE", "600"))
PODIUM_API_TOKEN_PER_MINUTE = int(ENV.get("PODIUM_API_TOKEN_PER_MINUTE", "1200"))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "podium.web.apps.PodiumConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Who may keep each answer: public for anonymous spectators, private otherwise.
    "podium.web.live.headers.CacheHeaders",
    # Refuses a body over its cap before anything reads it (podium.web.kernel.limits).
    "podium.web.kernel.limits.body_limits",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Answers the spectators' polls from the shared cache before the rest runs.
    "podium.web.live.polls.PollGate",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The address's language, else the visitor's choice, else the browser's (Accept-Language).
    "podium.web.kernel.languages.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "podium.web.api.errors.json_errors",
]

# What one request may send (the README's "Limits"): the whole body, checked against
# Content-Length first; form fields without files; how many fields and files.
PODIUM_MAX_BODY_BYTES = int(ENV.get("PODIUM_MAX_BODY_BYTES", str(3 * 1024 * 1024)))
PODIUM_API_MAX_BODY_BYTES = int(ENV.get("PODIUM_API_MAX_BODY_BYTES", str(1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # form fields other than files
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 10
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # larger uploads wait in a temporary file

ROOT_URLCONF = "podium.web.urls"
WSGI_APPLICATION = "podium.web.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["podium.web.templatetags.podium_texts"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "podium.web.events.navigation.places",
            ],
        },
    }
]

_default_sqlite = f"sqlite:///{DATA_DIR / 'podium.sqlite3'}"
# A connection per request, returned at its end: a thread that dies (the development server
# makes one per request) never leaves an idle connection behind.
DATABASES = {"default": dj_database_url.parse(ENV.get("DATABASE_URL", _default_sqlite))}
DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    if "DATABASE_URL" not in ENV:
        DATA_DIR.mkdir(parents=True, exist_ok=True)
    # WAL lets readers go on while one writer writes; writers wait for each other, not fail.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
elif PRODUCTION:
    # Each process keeps a pool of at most PODIUM_DB_CONNECTIONS connections (one per worker
    # thread by default), so a machine never holds more than workers × that many.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(ENV.get("PODIUM_DB_CONNECTIONS") or ENV.get("PODIUM_THREADS") or "4"),
        "timeout": 10,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

_VALIDATION = "django.contrib.auth.password_validation"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"{_VALIDATION}.UserAttributeSimilarityValidator"},
    {"NAME": f"{_VALIDATION}.MinimumLengthValidator"},
    {"NAME": f"{_VALIDATION}.CommonPasswordValidator"},
    {"NAME": f"{_VALIDATION}.NumericPasswordValidator"},
    {"NAME": "podium.web.events.forms.accounts.NotTheDemoPassword"},
]
# Failed log-ins counted in the shared cache (``podium.web.events.logins``): per account, per
# address.
PODIUM_LOGIN_FAILURES_PER_ACCOUNT = int(ENV.get("PODIUM_LOGIN_FAILURES_PER_ACCOUNT", "5"))
PODIUM_LOGIN_FAILURES_PER_ADDRESS = int(ENV.get("PODIUM_LOGIN_FAILURES_PER_ADDRESS", "20"))
PODIUM_LOGIN_WINDOW_MINUTES = int(ENV.get("PODIUM_LOGIN_WINDOW_MINUTES", "15"))
# Who may create events: "anyone" logged in, or accounts an administrator "approved".
PODIUM_EVENT_CREATORS = ENV.get("PODIUM_EVENT_CREATORS") or ("approved" if PRODUCTION else "anyone")
if PODIUM_EVENT_CREATORS not in ("anyone", "approved"):
    raise ImproperlyConfigured("PODIUM_EVENT_CREATORS is either 'anyone' or 'approved'.")
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("cs", _("Czech")), ("it", _("Italian")), ("ru", _("Russian"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
# A chosen language outlives the browser session (Django's default cookie does not).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

# How often a spectator's page polls its table; the shared caches keep a public answer as long
# (podium.web.live.headers), and show the last one while the venue is unreachable.
PODIUM_POLL_SECONDS = int(ENV.get("PODIUM_POLL_SECONDS", "3"))
PODIUM_STALE_IF_ERROR = int(ENV.get("PODIUM_STALE_IF_ERROR", str(24 * 3600)))
PODIUM_FROZEN_MAX_AGE = int(ENV.get("PODIUM_FROZEN_MAX_AGE", str(24 * 3600)))

STATIC_URL = "/static/"
if PRODUCTION:
    # Collected by ``podium serve --production``; hashed names are cached for a year by
    # browsers and proxies, and whitenoise serves each file compressed.
    STATIC_ROOT = ENV.get("PODIUM_STATIC_ROOT") or str(DATA_DIR / "static")
    STATICFILES_BACKEND = "whitenoise.storage.CompressedManifestStaticFilesStorage"
    WHITENOISE_USE_FINDERS = False
else:
    STATIC_ROOT = ENV.get("PODIUM_STATIC_ROOT") or None
    STATICFILES_BACKEND = "django.contrib.staticfiles.storage.StaticFilesStorage"
    WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": STATICFILES_BACKEND},
}

REDIS_URL = ENV.get("REDIS_URL", "")
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if REDIS_URL:
    CACHES["default"] = {
        "BACKEND": "podium.web.live.cache.SharedRedisCache",
        "LOCATION": REDIS_URL,
        # Several installations may share one Redis, each under its own prefix.
        "KEY_PREFIX": ENV.get("PODIUM_CACHE_PREFIX", "podium"),
    }
    # Sessions read from the shared cache, written through to the database.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    # A 404 or a refused form is an answer, not an incident; errors (500s) are logged.
    "loggers": {"django.request": {"level": "ERROR"}},
}

# Messages to participants (e.g. "you moved up from the waiting list", a password reset).
# Without a mail server configured they are written to the console, so nothing is lost
# silently on a laptop; PODIUM_EMAIL_HOST sends them by SMTP.
EMAIL_HOST = ENV.get("PODIUM_EMAIL_HOST") or "localhost"
_SMTP = "django.core.mail.backends.smtp.EmailBackend"
_CONSOLE = "django.core.mail.backends.console.EmailBackend"
PODIUM_MAIL_SENDER = ENV.get("PODIUM_EMAIL_BACKEND") or (
    _SMTP if ENV.get("PODIUM_EMAIL_HOST") else _CONSOLE
)
# Requests only queue their mail; a thread in each process sends it (podium.web.kernel.outbox).
EMAIL_BACKEND = "podium.web.kernel.outbox.BackgroundBackend"
EMAIL_USE_TLS = flag(ENV, "PODIUM_EMAIL_TLS")
EMAIL_USE_SSL = flag(ENV, "PODIUM_EMAIL_SSL")
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set PODIUM_EMAIL_TLS or PODIUM_EMAIL_SSL, not both.")
EMAIL_PORT = int(
    ENV.get("PODIUM_EMAIL_PORT") or (465 if EMAIL_USE_SSL else 587 if EMAIL_USE_TLS else 25)
)
EMAIL_HOST_USER = ENV.get("PODIUM_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = ENV.get("PODIUM_EMAIL_PASSWORD", "")
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = ENV.get("PODIUM_FROM_EMAIL", "podium@localhost")
# The address people open, for the links in e-mail (a message is written without a request):
# by default the first allowed host (over HTTPS behind a proxy), else the development server
# (`podium serve` sets it to the address it serves).
_HOST = next((h for h in ALLOWED_HOSTS if h and h[0] not in ".*"), "127.0.0.1")
PODIUM_SITE_URL = ENV.get("PODIUM_SITE_URL") or (
    f"https://{_HOST}" if HTTPS else f"http://{_HOST}" if PRODUCTION else "http://127.0.0.1:8000"
)
