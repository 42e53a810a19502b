"""bbweb settings: one file, driven by environment variables (see README.md)."""

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from bbweb.env import envbool, envint, envlist, envnetworks, envstr

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DJANGO_DEBUG", True)
# Production as the environment says: test runners set DEBUG to False, never this one.
PRODUCTION = not DEBUG
DEV_SECRET_KEY = "dev-only-insecure-key-never-used-in-production-0123456789abcdef"
# Production needs a real key, REDIS_URL and the site's hosts: bbweb/checks.py refuses to start
# without them (manage.py, gunicorn, the worker and beat). The image's build (deploy/build.sh)
# runs with DEBUG=0 and none of them: compilemessages and collectstatic use no key.
SECRET_KEY = envstr("DJANGO_SECRET_KEY", "") or (DEV_SECRET_KEY if DEBUG else "")
ALLOWED_HOSTS = envlist(
    "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else []
)
# The proxies (addresses or networks) whose X-Forwarded-For and X-Forwarded-Proto are believed
# (bbweb/clientip.py); nobody by default: the client is the connection's peer.
TRUSTED_PROXIES = envnetworks("BBWEB_TRUSTED_PROXIES")
CSRF_TRUSTED_ORIGINS = envlist("DJANGO_CSRF_TRUSTED_ORIGINS", [])
SITE_URL = envstr("BBWEB_SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    # The accounts (bbweb/accounts/): sign-up, login, e-mail, passwords, two factors, Discord.
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.discord",
    "bbweb",
    "rules",
    "teams",
    "matches",
    "matches.live",
]

MIDDLEWARE = [
    # Outermost: turns whatever error the layers below answer under /api/ into the API's JSON.
    "bbweb.middleware.ApiErrors",
    "bbweb.clientip.TrustedProxyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session, the user and any view: refuses text the database cannot store.
    "bbweb.middleware.InputCheck",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "matches.notices.zones.ReaderTimeZone",  # every date in the reader's time zone
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "bbweb.accounts.login_limits.DeviceCookie",
    "bbweb.accounts.second_factor.RequireSecondFactor",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "bbweb.urls"
WSGI_APPLICATION = "bbweb.wsgi.application"

# The rooms of matches that keep templates of their own (matches/<room>/templates/).
ROOMS = (
    "play",
    "thread",
    "gm",
    "league",
    "history",
    "deadlines",
    "sequence",
    "dashboard",
    "notices",
    "verification",
)
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # base.html and the pages of accounts and teams, then each room's pages (docs/rooms.md);
        # the live companion, an app of its own, is found by APP_DIRS.
        "DIRS": [
            BASE_DIR / "templates",
            *(BASE_DIR / "matches" / room / "templates" for room in ROOMS),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "bbweb.context_processors.roles",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        envstr("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
        # A connection kept from an earlier request is checked before its first query: after
        # the database dropped it (restart, failover, idle cut) the request opens a new one
        # instead of failing.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The zero-setup database is shared by the web server and the worker: WAL lets readers
    # go on while one writes, IMMEDIATE takes the write lock when a transaction begins (a
    # transaction that read first cannot then fail to upgrade its lock: "database is
    # locked"), and the timeout makes a writer wait its turn instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": envint("BBWEB_SQLITE_TIMEOUT", 20),
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's model backend, whose session user comes with what every page's navigation asks;
# the plain one after it keeps the sessions it opened before valid (they name their backend).
AUTHENTICATION_BACKENDS = [
    "teams.backends.PageUserBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# django-allauth. Enumeration prevention needs mandatory verification: a taken address gets a
# mail, never a message on the page, and the page is the same as for a free one.
ACCOUNT_ADAPTER = "bbweb.accounts.adapter.AccountAdapter"
SOCIALACCOUNT_ADAPTER = "bbweb.accounts.adapter.SocialAccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_USERNAME_VALIDATORS = "bbweb.accounts.names.VALIDATORS"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "bbweb: "
# Failed logins are counted by bbweb/accounts/login_limits.py (per account and address, per
# address, with the device cookie): allauth's count per account would let anyone lock a coach
# out. Sign-ups and resets are counted by the site's throttle (bbweb/accounts/views.py).
ACCOUNT_RATE_LIMITS = {
    "login": False,
    "login_failed": False,
    "signup": False,
    "reset_password": False,
    "reset_password_from_key": "20/m/ip",
    "manage_email": "10/m/user",
    "change_password": "5/m/user",
    "confirm_email": "1/3m/key",
}
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "bbweb"
# GMs and staff turn on two factors before they rule, edit a league or open the admin.
BBWEB_REQUIRE_GM_MFA = envbool("BBWEB_REQUIRE_GM_MFA", not DEBUG)
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_EMAIL_VERIFICATION = "mandatory"
SOCIALACCOUNT_LOGIN_ON_GET = False
SOCIALACCOUNT_PROVIDERS: dict[str, dict[str, object]] = {}
if envstr("BBWEB_DISCORD_CLIENT_ID", "") and envstr("BBWEB_DISCORD_SECRET", ""):
    SOCIALACCOUNT_PROVIDERS["discord"] = {
        "APPS": [
            {
                "client_id": envstr("BBWEB_DISCORD_CLIENT_ID", ""),
                "secret": envstr("BBWEB_DISCORD_SECRET", ""),
            }
        ],
        "SCOPE": ["identify", "email"],
    }

LANGUAGE_CODE = "en"
# The languages of the seeds' communities: the Spanish forum (000), the Finnish live league
# (002), the Japanese (003) and the French (004) rules translations.
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("fi", _("Finnish")),
    ("fr", _("French")),
    ("ja", _("Japanese")),
]
# The language menu's choice outlives the browser session.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["bbweb.formats"]
USE_I18N = True
TIME_ZONE = envstr("BBWEB_TIME_ZONE", "Europe/Madrid")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

_EMAIL_BACKEND = envstr(
    "DJANGO_EMAIL_BACKEND",
    "bbweb.mail.ConsoleEmailBackend"  # the console's, its links whole (bbweb/mail.py)
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
_SMTP_OPTIONS = {
    "host": envstr("DJANGO_EMAIL_HOST", "localhost"),
    "port": envint("DJANGO_EMAIL_PORT", 587),
    "username": envstr("DJANGO_EMAIL_USER", ""),
    "password": envstr("DJANGO_EMAIL_PASSWORD", ""),
    "use_tls": envbool("DJANGO_EMAIL_USE_TLS", True),
    # A mail server that holds its reply fails the attempt (retried) within the task's limit.
    "timeout": envint("DJANGO_EMAIL_TIMEOUT", 20),
}
_MAIL_OPTIONS: dict[str, object] = {}
if _EMAIL_BACKEND.endswith("smtp.EmailBackend"):
    _MAIL_OPTIONS = _SMTP_OPTIONS
elif _EMAIL_BACKEND.endswith("filebased.EmailBackend"):  # one file per e-mail, for checks
    _MAIL_OPTIONS = {"file_path": envstr("DJANGO_EMAIL_FILE_PATH", str(BASE_DIR / "sent-mail"))}
MAILERS = {"default": {"BACKEND": _EMAIL_BACKEND, "OPTIONS": _MAIL_OPTIONS}}
DEFAULT_FROM_EMAIL = envstr("DJANGO_DEFAULT_FROM_EMAIL", "bbweb <noreply@bbweb.local>")

# Content Security Policy: scripts only from our origin or with this response's nonce. htmx is
# configured (base.html) not to inject inline styles, so styles need no 'unsafe-inline'.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads no cookie: the token travels in a header from the page
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# The scheme the client used: set by TrustedProxyMiddleware from X-Forwarded-Proto when a
# trusted proxy sent it (a key no request header can name: those all begin with HTTP_).
SECURE_PROXY_SSL_HEADER = ("BBWEB_FORWARDED_PROTO", "https")
if not DEBUG:
    SECURE_SSL_REDIRECT = envbool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container's own health check speaks HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Celery: the filesystem broker needs no server; REDIS_URL switches to Redis.
REDIS_URL = envstr("REDIS_URL", "")
# Live push (bbweb/push.py, matches/stream/): through Redis pub/sub with REDIS_URL, else within
# the one process. A person's open streams (tabs) per process; a comment every so many seconds
# keeps an idle stream open through proxies; a person's stream follows at most so many matches.
BBWEB_STREAMS_PER_PERSON = envint("BBWEB_STREAMS_PER_PERSON", 12)
BBWEB_STREAM_HEARTBEAT_SECONDS = envint("BBWEB_STREAM_HEARTBEAT_SECONDS", 20)
BBWEB_PERSON_STREAM_MATCHES = envint("BBWEB_PERSON_STREAM_MATCHES", 200)
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 120)
CELERY_TASK_SOFT_TIME_LIMIT = envint("CELERY_TASK_SOFT_TIME_LIMIT", 100)
RETRY_MAX_SECONDS = 300  # the longest wait between two tries of a task (matches.tasks)
# League webhooks (matches.services.hooks): in production a hook may not post to a private or
# loopback address, lest a GM reach the server's own network through it.
HOOKS_ALLOW_PRIVATE = envbool("BBWEB_HOOKS_ALLOW_PRIVATE", DEBUG)
HOOKS_TIMEOUT_SECONDS = 5
HOOKS_FAILURE_LIMIT = 10  # failed tries in a row that switch a hook off
VISIBILITY_TIMEOUT = envint("BBWEB_VISIBILITY_TIMEOUT", 600)
if VISIBILITY_TIMEOUT <= CELERY_TASK_TIME_LIMIT + RETRY_MAX_SECONDS:
    raise ImproperlyConfigured(
        f"BBWEB_VISIBILITY_TIMEOUT must be more than {CELERY_TASK_TIME_LIMIT + RETRY_MAX_SECONDS}"
        " seconds (the task time limit and the longest retry wait), or tasks run twice"
    )
# An outbox task sent and not run to its end (bbweb/outbox.py) goes out again after this long:
# longer than any task and its retries' waits, or a slow task runs twice (harmless, wasted).
OUTBOX_REPUBLISH_SECONDS = envint("BBWEB_OUTBOX_REPUBLISH_SECONDS", VISIBILITY_TIMEOUT)
CELERY_FILESYSTEM_DIR = BASE_DIR / ".celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    # A publish fails at once when Redis is down (no reconnection loop: kombu's default
    # retried for about 6 s while the request waited) and the outbox keeps the task. The
    # worker reconnects on its own, by broker_connection_max_retries.
    # A task a worker took and never acknowledged (killed) goes back to its queue after the
    # visibility timeout. It must outlast the longest task and the longest retry countdown
    # (a retry waiting in a worker's memory unacknowledged would be delivered twice).
    # "priority": a worker asks its queues in the order of CELERY_TASK_QUEUES, deadlines first.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "max_retries": 0,
        "socket_connect_timeout": 1,
        "socket_timeout": 5,
        "visibility_timeout": VISIBILITY_TIMEOUT,
        "queue_order_strategy": "priority",
    }
    CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
    CELERY_REDIS_SOCKET_TIMEOUT = 5
else:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_RESULT_BACKEND = f"file://{CELERY_FILESYSTEM_DIR / 'results'}"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_FILESYSTEM_DIR / "queue"),
        "data_folder_out": str(CELERY_FILESYSTEM_DIR / "queue"),
        "processed_folder": str(CELERY_FILESYSTEM_DIR / "processed"),
        "control_folder": str(CELERY_FILESYSTEM_DIR / "control"),
        "store_processed": False,
    }
# The cache holds the thread's rendered posts (matches.thread.page): shared by every web process on
# Redis; each process keeps its own in memory without it. Losing it only costs time.
CACHES: dict[str, dict[str, object]]
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "bbweb",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }

CELERY_TASK_ALWAYS_EAGER = envbool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = TIME_ZONE
# Two queues: the deadlines (the sweep, contest rolls, the outbox's relay, the sweep's fan-out)
# ahead of everything else (the notices, on Celery's default queue). Every worker consumes
# both, deadlines first: a sweep waits for a worker's current task, never behind a backlog.
CELERY_TASK_QUEUES = {name: {"routing_key": name} for name in ("deadlines", "celery")}
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    name: {"queue": "deadlines"}
    for name in (
        "matches.tasks.sweep_deadlines",
        "matches.tasks.adjudicate_blitz",
        "matches.tasks.enqueue_all",
        "bbweb.tasks.relay_outbox",
    )
}
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "matches.tasks.sweep_deadlines",
        "schedule": envint("BBWEB_SWEEP_SECONDS", 30),
    },
    "relay-outbox": {
        "task": "bbweb.tasks.relay_outbox",
        "schedule": envint("BBWEB_OUTBOX_SECONDS", 2),
    },
    "send-digests": {"task": "matches.tasks.send_digests", "schedule": 3600},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("DJANGO_LOG_LEVEL", "INFO")},
}
