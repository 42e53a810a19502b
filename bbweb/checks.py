"""What production (``DJANGO_DEBUG=0``) refuses to start without, as Django system checks:
every ``manage.py`` command that checks (``check``, ``migrate``, ``runserver``) fails on them,
and gunicorn, the worker and beat, which run no checks of their own, call
``require_production_settings`` as they start (bbweb/wsgi.py, bbweb/asgi.py, bbweb/celery.py).

The image's build runs with ``DJANGO_DEBUG=0`` and none of these set: its commands
(compilemessages, collectstatic) run no check of this tag."""

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Error, register
from django.core.exceptions import ImproperlyConfigured

PRODUCTION = "bbweb_production"
SECRET_KEY_LENGTH = 50


def _secret_key() -> str:
    try:
        return str(settings.SECRET_KEY)
    except ImproperlyConfigured:  # Django refuses to read an empty one
        return ""


@register(PRODUCTION)
def check_production_settings(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    if not settings.PRODUCTION:
        return []
    errors: list[CheckMessage] = []
    secret = _secret_key()
    if not secret:
        errors.append(
            Error(
                "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0.",
                hint=f"{SECRET_KEY_LENGTH} or more random characters, e.g. from"
                " python -c 'import secrets; print(secrets.token_urlsafe(50))'.",
                id="bbweb.E001",
            )
        )
    elif len(secret) < SECRET_KEY_LENGTH or secret == settings.DEV_SECRET_KEY:
        errors.append(
            Error(
                f"DJANGO_SECRET_KEY must be at least {SECRET_KEY_LENGTH} characters long and"
                " not the development key.",
                id="bbweb.E002",
            )
        )
    if not settings.REDIS_URL:
        errors.append(
            Error(
                "REDIS_URL must be set when DJANGO_DEBUG=0.",
                hint="Without Redis every process keeps its own cache and rate limits, and the"
                " tasks go to a folder that other machines cannot see.",
                id="bbweb.E003",
            )
        )
    if not settings.ALLOWED_HOSTS:
        errors.append(
            Error(
                "DJANGO_ALLOWED_HOSTS must name the site's host names when DJANGO_DEBUG=0.",
                hint="Comma-separated, e.g. bbweb.example.org.",
                id="bbweb.E004",
            )
        )
    return errors


def require_production_settings() -> None:
    """Raise ImproperlyConfigured, with every reason, unless the production checks pass: what
    a server that runs no system checks (gunicorn, the worker, beat) calls as it starts."""
    errors = [message for message in check_production_settings() if message.is_serious()]
    if errors:
        lines = "\n".join(f"  {message}" for message in errors)
        raise ImproperlyConfigured(f"bbweb refuses to start in production:\n{lines}")
